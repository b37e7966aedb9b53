"""The rules scenarios in tests/scenarios, one test each, and the runner's own failure reporting."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from harehra.scenarios import run_file, run_scenario, scenario_files

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"
FILES = scenario_files([SCENARIOS])


def test_every_rule_has_scenarios() -> None:
    """Each rule of docs/RULES.md (R1, R2, ...) has scenarios, and every scenario is named for its
    rule (rNN_...)."""
    rules_text = (SCENARIOS.parent.parent / "docs" / "RULES.md").read_text()
    rules = sorted({int(n) for n in re.findall(r"^\*\*R(\d+) ", rules_text, re.MULTILINE)})
    assert rules == list(range(1, len(rules) + 1)) and len(rules) >= 14, rules
    covered = {int(m.group(1)) for p in FILES if (m := re.match(r"r(\d\d)_", p.name))}
    assert covered == set(rules), f"rules without a scenario: {sorted(set(rules) - covered)}"
    assert [p.name for p in FILES if not re.match(r"r\d\d_", p.name)] == []


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_scenario(path: Path) -> None:
    result = run_file(path)
    assert result.passed, f"{path.name}: {result.describe()}"


def _volley_scenario(expected_damage: list[int]) -> dict[str, Any]:
    return {
        "title": "two cumi, declined",
        "players": 2,
        "hands": [["cumi", "cumi", "zada", "zada", "zada"], ["zada"] * 5],
        "draw_pile": ["strom"] * 5,
        "steps": [
            {"seat": 0, "play": ["cumi", "cumi"], "target": 1},
            {"expect": {"awaiting": {"seat": 1, "kind": "volley"}}},
            {"seat": 1, "react": "none"},
            {"expect": {"damage": expected_damage}},
        ],
    }


def test_right_scenario_passes() -> None:
    assert run_scenario(_volley_scenario([0, 2])).passed


def test_wrong_expectation_fails_at_its_step() -> None:
    result = run_scenario(_volley_scenario([0, 3]))
    assert not result.passed
    assert result.step == 4
    assert "damage" in result.message
    assert "[0, 3]" in result.message and "[0, 2]" in result.message


def test_wrong_error_code_fails_at_its_step() -> None:
    data = _volley_scenario([0, 2])
    data["steps"].insert(0, {"seat": 1, "play": ["zada"], "error": "wrong_action"})
    result = run_scenario(data)
    assert (result.passed, result.step) == (False, 1)
    assert "not_your_turn" in result.message


def test_refused_command_fails_at_its_step() -> None:
    data = _volley_scenario([0, 2])
    data["steps"][2] = {"seat": 1, "react": "taptap"}  # seat 1 holds no taptap
    result = run_scenario(data)
    assert (result.passed, result.step) == (False, 3)
    assert "not_in_hand" in result.message


def test_accepted_command_that_should_be_refused_fails() -> None:
    data = _volley_scenario([0, 2])
    data["steps"][0]["error"] = "bad_target"
    result = run_scenario(data)
    assert (result.passed, result.step) == (False, 1)
    assert "accepted" in result.message


def test_unknown_expect_key_fails() -> None:
    data = _volley_scenario([0, 2])
    data["steps"].append({"expect": {"damges": [0, 2]}})
    result = run_scenario(data)
    assert (result.passed, result.step) == (False, 5)


def test_bad_setup_fails_without_a_step() -> None:
    result = run_scenario({"title": "five without a pack", "players": 5, "steps": []})
    assert not result.passed
    assert result.step is None
    assert "bad_ruleset" in result.message


def test_command_passes_on_good_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "good.json").write_text(json.dumps(_volley_scenario([0, 2])))
    call_command("check_scenarios", str(tmp_path))
    out = capsys.readouterr().out
    assert out.splitlines()[0].startswith("PASS ")


def test_command_fails_on_a_failing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "a_good.json").write_text(json.dumps(_volley_scenario([0, 2])))
    (tmp_path / "b_bad.json").write_text(json.dumps(_volley_scenario([0, 3])))
    with pytest.raises(CommandError) as raised:
        call_command("check_scenarios", str(tmp_path / "a_good.json"), str(tmp_path / "b_bad.json"))
    assert raised.value.returncode != 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("PASS ")
    assert lines[1].startswith("FAIL ") and "step 4" in lines[1]


def test_command_exit_code_from_the_command_line(tmp_path: Path) -> None:
    from django.core.management import execute_from_command_line

    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(_volley_scenario([5, 5])))
    with pytest.raises(SystemExit) as raised:
        execute_from_command_line(["manage.py", "check_scenarios", str(bad)])
    assert raised.value.code not in (0, None)


def test_command_recurses_folders_in_sorted_order(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "b.json").write_text(json.dumps(_volley_scenario([0, 2])))
    (tmp_path / "a.json").write_text(json.dumps(_volley_scenario([0, 2])))
    (tmp_path / "notes.txt").write_text("not a scenario")
    call_command("check_scenarios", str(tmp_path))
    lines = [line for line in capsys.readouterr().out.splitlines() if line.startswith("PASS")]
    assert [line.split()[1] for line in lines] == [str(tmp_path / "a.json"), str(tmp_path / "sub" / "b.json")]


def test_command_refuses_a_missing_path(tmp_path: Path) -> None:
    with pytest.raises(CommandError):
        call_command("check_scenarios", str(tmp_path / "missing.json"))
