"""The engine is pure (issue section 2): no framework, clock, RNG, environment or file I/O."""

from __future__ import annotations

import ast
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "games" / "engine"
FORBIDDEN_MODULES = {
    "django",
    "rest_framework",
    "channels",
    "celery",
    "random",
    "time",
    "datetime",
    "os",
    "secrets",
    "io",
    "pathlib",
}
FORBIDDEN_CALLS = {"open", "__import__", "input", "print"}


def impurities(source: str) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = [node.module or ""] if node.level == 0 else []
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            if node.func.id in FORBIDDEN_CALLS:
                found.append(f"line {node.lineno}: calls {node.func.id}()")
            continue
        else:
            continue
        for name in names:
            if name.split(".")[0] in FORBIDDEN_MODULES:
                found.append(f"line {node.lineno}: imports {name}")
    return found


def test_engine_imports_no_framework_clock_rng_or_io() -> None:
    paths = sorted(ENGINE.rglob("*.py"))
    assert ENGINE / "decide.py" in paths and ENGINE / "events.py" in paths  # the check reads the engine
    problems = {path.name: found for path in paths if (found := impurities(path.read_text(encoding="utf-8")))}
    assert problems == {}


def test_the_check_catches_each_kind_of_impurity() -> None:
    assert impurities("import django.db") == ["line 1: imports django.db"]
    assert impurities("from random import choice") == ["line 1: imports random"]
    assert impurities("import os, json") == ["line 1: imports os"]
    assert impurities("from datetime import datetime") == ["line 1: imports datetime"]
    assert impurities("x = open('f').read()") == ["line 1: calls open()"]
    assert impurities("from .time_rules import x\nimport json") == []
