"""The analysis on hand-made positions where the truth is known (tests/analysis_positions/*.json,
docs/ANALYSIS.md "Hand-made positions"): each decision must get the label and the best option
its file names. Seeded by the file's salt and the decision's step, so the verdicts never vary."""

from __future__ import annotations

from pathlib import Path

import pytest

from harehra import analysis
from harehra.analysis import DEFAULT_PLAYOUTS, label
from harehra.positions import check_position, judge_position, load_position

FILES = sorted((Path(__file__).resolve().parents[1] / "analysis_positions").glob("*.json"))


def test_there_are_enough_positions_of_both_kinds() -> None:
    expected = [load_position(f)["expect"]["label"] for f in FILES]
    assert len(FILES) >= 6
    assert sum(1 for x in expected if x is None) >= 2 and sum(1 for x in expected if x) >= 3


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_the_position_is_labelled_as_expected(path: Path) -> None:
    data = load_position(path)
    assert data.get("playouts", DEFAULT_PLAYOUTS) <= DEFAULT_PLAYOUTS  # no more than the site's budget
    verdict = check_position(data)
    assert verdict.passed, verdict.describe()
    judged = verdict.judged
    chosen = judged["options"][judged["chosen"]]["command"]
    assert chosen == data["decision"]  # the decision taken is the one judged
    assert judged["label"] == label(judged["drop"], judged["se"])


def test_a_verdict_that_differs_is_reported() -> None:
    """The check can fail: the blunder of p01 expected as no label, with the wrong best option."""
    data = load_position(FILES[0])
    data["expect"] = {"label": None, "best": data["decision"]}
    verdict = check_position(data)
    assert not verdict.passed and len(verdict.failures) == 2


def test_the_same_position_gives_the_same_verdict() -> None:
    data = load_position(FILES[0])
    assert judge_position(data) == judge_position(data)


def test_a_label_in_doubt_gets_a_second_look(monkeypatch: pytest.MonkeyPatch) -> None:
    """p05 at 64 worlds: the first look leaves the drop's lower bound near the blunder threshold,
    so the chosen and the best options get more worlds and the drop's standard error shrinks."""
    data = load_position(next(f for f in FILES if f.stem.startswith("p05")))
    second = judge_position(data, 64)
    monkeypatch.setattr(analysis, "EXTRA_ROUNDS", 0)
    first = judge_position(data, 64)
    assert second["se"] < 0.75 * first["se"]
    assert second["options"][second["best"]]["command"] == {"seat": 1, "discard": ["mini"]}
