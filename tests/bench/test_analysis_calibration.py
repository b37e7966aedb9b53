"""`analysis_calibration`: the reliability table's arithmetic, and the command on a few tiny games
(no figure of the analysis's quality is asserted: the command measures it, docs/ANALYSIS.md)."""

from __future__ import annotations

import json
import math
import random
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from bench.calibration import Calibration, LabelPair, _clustered_se, fit_map, mapped, remapped
from harehra.analysis import CALIBRATION_LEAD, CALIBRATION_POWER, calibrated


def test_the_table_groups_by_decile_and_scores_against_saying_one_in_n() -> None:
    cal = Calibration()
    # 100 samples said 5% and 5 of them won; 100 said 75% and 50 won: the first decile is
    # calibrated, the eighth is not.
    for i in range(100):
        cal.players.append(4)
        cal.predicted.append(0.05)
        cal.won.append(1 if i < 5 else 0)
    for i in range(100):
        cal.players.append(4)
        cal.predicted.append(0.75)
        cal.won.append(1 if i < 50 else 0)
    rows = cal.rows()
    assert len(rows) == 10
    assert rows[0]["n"] == 100 and rows[0]["observed"] == pytest.approx(0.05) and rows[0]["within"]
    assert rows[7]["n"] == 100 and rows[7]["observed"] == pytest.approx(0.5) and not rows[7]["within"]
    assert all(r["n"] == 0 for i, r in enumerate(rows) if i not in (0, 7))
    brier = (5 * 0.95**2 + 95 * 0.05**2 + 50 * 0.25**2 + 50 * 0.75**2) / 200
    assert cal.brier() == pytest.approx(brier)
    assert cal.brier_uniform() == pytest.approx((55 * 0.75**2 + 145 * 0.25**2) / 200)
    text = "\n".join(cal.lines())
    assert "NO" in text and "yes" in text and "Brier score" in text


def test_the_gaps_error_counts_each_game_once_when_its_samples_agree() -> None:
    # 10 games of 10 samples said 50%: five games won at every sample, five lost at every one.
    # As independent samples the error would be 5 points; they are ten, so about 16.
    gaps = [(1.0 if g < 5 else 0.0) - 0.5 for g in range(10) for _ in range(10)]
    games = [g for g in range(10) for _ in range(10)]
    assert _clustered_se(gaps, games) == pytest.approx(math.sqrt(10 / 9 * 10 * 5**2) / 100)
    alone = _clustered_se(gaps, list(range(100)))  # every sample its own game: the plain error
    assert alone == pytest.approx(math.sqrt(100 / 99) * 0.05)
    cal = Calibration(
        players=[4] * 100, predicted=[0.5] * 100, won=[int(g + 0.5 > 0) for g in gaps], game=games
    )
    row = cal.rows()[5]
    assert row["gap"] == pytest.approx(0) and row["gap_se"] == pytest.approx(_clustered_se(gaps, games))
    assert row["se"] == pytest.approx(0.05)


def test_the_fit_finds_the_map_that_made_the_winners() -> None:
    # Tables of three seats whose winners are drawn from the map (0.5, -0.8) of their raw shares:
    # the fit finds about those parameters, and mapped by them the table is calibrated.
    rng = random.Random(5)
    cal = Calibration()
    for t in range(1500):
        cut = sorted(rng.random() for _ in range(2))
        shares = [cut[0], cut[1] - cut[0], 1 - cut[1]]
        truth = mapped(shares, 0.5, -0.8)
        winner = rng.choices(range(3), weights=truth)[0]
        for s, p in enumerate(shares):
            cal.players.append(3)
            cal.predicted.append(p)
            cal.raw.append(p)
            cal.won.append(int(s == winner))
            cal.game.append(t)
            cal.table.append(0)
    power, lead, brier = fit_map(cal)
    assert abs(power - 0.5) < 0.25 and abs(lead + 0.8) < 0.35
    assert brier < cal.brier()  # better than the raw shares
    assert remapped(cal, power, lead).brier() == pytest.approx(brier)
    assert mapped([0.45, 0.35, 0.15, 0.05], CALIBRATION_POWER, CALIBRATION_LEAD) == pytest.approx(
        calibrated([0.45, 0.35, 0.15, 0.05], 4)
    )  # the analysis's map is this one with its parameters


def test_label_pairs_count_bands_apart_and_the_references_serious_labels() -> None:
    def ds(*labels: str | None) -> list[dict[str, object]]:
        return [{"step": i, "label": x} for i, x in enumerate(labels)]

    pair = LabelPair()
    pair.add(
        ds(None, "inaccuracy", None, "inaccuracy", "blunder", None, "mistake"),
        ds(None, "inaccuracy", "mistake", "blunder", "mistake", "inaccuracy", "blunder"),
    )
    assert (pair.judged, pair.alike, pair.labelled, pair.labelled_alike) == (7, 2, 6, 1)
    assert pair.far == 2  # none against mistake, inaccuracy against blunder
    assert (pair.b_serious, pair.b_serious_labelled) == (4, 3)
    assert pair.matrix[(0, 2)] == 1 and pair.matrix[(3, 2)] == 1
    text = "\n".join(pair.lines("default", "reference"))
    assert "two or more bands apart: 2 of 7" in text and "3 of 4" in text


def test_the_command_plays_samples_and_compares_two_seeds() -> None:
    out = StringIO()
    call_command(
        "analysis_calibration",
        *("--games", "2", "--steps", "3", "--playouts", "2", "--levels", "easy", "normal"),
        *("--players", "3", "--compare-seeds", "1"),
        stdout=out,
        stderr=StringIO(),
    )
    text = out.getvalue()
    assert "calibration: 2 games, 6 steps" in text
    assert "Brier score" in text
    assert "two seeds: 1 games" in text and "labels:" in text and "luck per seat" in text
    with pytest.raises(CommandError):
        call_command("analysis_calibration", "--games", "-1", stdout=out)


def test_the_command_compares_against_a_reference_and_pools_saved_runs(tmp_path: Path) -> None:
    out = StringIO()
    call_command(
        "analysis_calibration",
        *("--games", "0", "--playouts", "2", "--players", "2", "--reference", "1"),
        stdout=out,
        stderr=StringIO(),
    )
    text = out.getvalue()
    assert "reference: 1 games" in text and "the reference (32)" in text
    assert "two or more bands apart" in text and "two seeds at the default budget" in text
    files = []
    for seed in (1, 2):
        files.append(str(tmp_path / f"run{seed}.json"))
        call_command(
            "analysis_calibration",
            *("--games", "1", "--steps", "2", "--playouts", "2", "--players", "3", "--seed", str(seed)),
            *("--save", files[-1]),
            stdout=StringIO(),
            stderr=StringIO(),
        )
    runs = [json.loads(Path(f).read_text()) for f in files]
    assert runs[0]["game"][0] != runs[1]["game"][0]  # games of two seeds are other games
    out = StringIO()
    call_command("analysis_calibration", "--pool", *files, stdout=out)
    assert "calibration: 2 games, 4 steps" in out.getvalue()
    out = StringIO()
    call_command("analysis_calibration", "--fit", *files, stdout=out)
    assert "fitted: power" in out.getvalue() and "mapped by the fitted map" in out.getvalue()
