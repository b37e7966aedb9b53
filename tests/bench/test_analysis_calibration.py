"""`analysis_calibration`: the reliability table's arithmetic, and the command on a few tiny games
(no figure of the analysis's quality is asserted: the command measures it, docs/ANALYSIS.md)."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from bench.calibration import Calibration


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
