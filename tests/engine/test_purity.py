"""The rules engine is pure: no framework, clock, RNG, environment or file I/O. The rest of the
pure game's package (bots, the simulator, the scenario runner, the replay analysis) may time,
seed and read files, but imports no framework either."""

from __future__ import annotations

import ast
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "harehra"
# The pure game's tools around the rules (the simulator, the scenario and position runners, the
# analysis): they may use a clock, seeded RNGs and files.
TOOLS = {"simulation.py", "scenarios.py", "analysis.py", "positions.py"}
FRAMEWORKS = {"django", "rest_framework", "channels", "celery", "redis", "psycopg", "games", "harehra_site"}
FORBIDDEN_MODULES = FRAMEWORKS | {
    "random",
    "time",
    "datetime",
    "os",
    "secrets",
    "io",
    "pathlib",
}
FORBIDDEN_CALLS = {"open", "__import__", "input", "print"}


def impurities(
    source: str, forbidden: set[str] = FORBIDDEN_MODULES, calls: set[str] = FORBIDDEN_CALLS
) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = [node.module or ""] if node.level == 0 else []
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            if node.func.id in calls:
                found.append(f"line {node.lineno}: calls {node.func.id}()")
            continue
        else:
            continue
        for name in names:
            if name.split(".")[0] in forbidden:
                found.append(f"line {node.lineno}: imports {name}")
    return found


def test_engine_imports_no_framework_clock_rng_or_io() -> None:
    paths = sorted(p for p in ENGINE.glob("*.py") if p.name not in TOOLS)
    assert ENGINE / "decide.py" in paths and ENGINE / "events.py" in paths  # the check reads the engine
    problems = {path.name: found for path in paths if (found := impurities(path.read_text(encoding="utf-8")))}
    assert problems == {}


def test_the_pure_games_tools_import_no_framework() -> None:
    paths = sorted(p for p in ENGINE.rglob("*.py") if p.name in TOOLS or p.parent.name == "bots")
    assert ENGINE / "bots" / "search.py" in paths and ENGINE / "simulation.py" in paths
    problems = {
        str(path.relative_to(ENGINE)): found
        for path in paths
        if (found := impurities(path.read_text(encoding="utf-8"), FRAMEWORKS, set()))
    }
    assert problems == {}


def test_the_check_catches_each_kind_of_impurity() -> None:
    assert impurities("import django.db") == ["line 1: imports django.db"]
    assert impurities("from random import choice") == ["line 1: imports random"]
    assert impurities("import os, json") == ["line 1: imports os"]
    assert impurities("from datetime import datetime") == ["line 1: imports datetime"]
    assert impurities("x = open('f').read()") == ["line 1: calls open()"]
    assert impurities("from .time_rules import x\nimport json") == []
