"""docs/ARCHITECTURE.md is the map of the repository: it names every top-level folder and every
page script, and names no file that is gone (as the README's old layout named `replaychart.js`
long after the capacity chart had moved into `table/replaydraw.js`). The front door and the
settings page are held to the second rule too."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ARCHITECTURE = ROOT / "docs" / "ARCHITECTURE.md"
CHECKED_DOCS = (ARCHITECTURE, ROOT / "README.md", ROOT / "docs" / "SETTINGS.md")

# Backticked names that are files or folders of the repository: a path with a slash, or a file
# name with one of these endings. URLs (a leading slash, a scheme), commands (spaces) and Python
# dotted names are not paths and are left alone.
FILE_ENDINGS = (".py", ".js", ".mjs", ".md", ".html", ".css", ".conf", ".toml", ".txt", ".json")
PATH_LIKE = re.compile(r"[A-Za-z0-9_.][A-Za-z0-9_./-]*")
# What is never in the repository, only made on a machine.
NOT_TRACKED = {".git", ".venv", "node_modules", "__pycache__", "test-output", "staticfiles", "run"}


def _git_files(*args: str) -> list[str] | None:
    try:
        out = subprocess.run(
            ["git", "ls-files", "-z", *args], cwd=ROOT, capture_output=True, check=True, timeout=30
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    return [p for p in out.decode().split("\0") if p]


def _walk_files() -> list[str]:
    """The checkout's files when git cannot say (an exported tree)."""
    found = []
    for here, dirs, files in os.walk(ROOT):
        dirs[:] = [d for d in dirs if d not in NOT_TRACKED and not d.endswith("_cache")]
        found.extend(str((Path(here) / f).relative_to(ROOT)) for f in files)
    return found


def repository_files() -> list[str]:
    """Every file of the checkout, tracked or new (not ignored), as paths from the root."""
    files = _git_files("--cached", "--others", "--exclude-standard")
    return files if files is not None else _walk_files()


def top_level_folders() -> set[str]:
    """Every top-level folder git tracks, and every top-level Python package."""
    tracked = _git_files()
    files = tracked if tracked is not None else _walk_files()
    folders = {p.split("/")[0] for p in files if "/" in p}
    folders |= {p.name for p in ROOT.iterdir() if p.is_dir() and (p / "__init__.py").is_file()}
    return folders - NOT_TRACKED


def page_scripts() -> list[str]:
    """Every script under static/js, as its path from static/js."""
    return sorted(
        p[len("static/js/") :] for p in repository_files() if p.startswith("static/js/") and p.endswith(".js")
    )


def named_paths(text: str) -> set[str]:
    """The backticked names in `text` that are paths (fenced blocks left out)."""
    text = re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)
    names = set()
    for span in re.findall(r"`([^`]+)`", text):
        name = " ".join(span.split())
        if not PATH_LIKE.fullmatch(name) or name.split("/")[0].isdigit():
            continue  # not a path, or a rate (`30/min`)
        if "/" in name.rstrip("/") or name.endswith(("/", *FILE_ENDINGS)):
            names.add(name)
    return names


def missing_paths(names: set[str], files: list[str]) -> list[str]:
    """The names that match no file or folder: each is a path from the root, or the tail of one
    (`core/socket.js`, `api/`, `sentences.py`), as the docs name files inside the folder at hand."""
    slashed = ["/" + f for f in files]
    missing = []
    for name in names:
        if name.split("/")[0] in NOT_TRACKED:
            continue  # made by running things (`test-output/`), never in a checkout
        tail = "/" + name.rstrip("/")
        if not any(f.endswith(tail) or (tail + "/") in f for f in slashed):
            missing.append(name)
    return sorted(missing)


def test_the_map_names_every_top_level_folder() -> None:
    text = ARCHITECTURE.read_text()
    folders = top_level_folders()
    assert {"games", "harehra", "harehra_site", "static", "tests", "tournaments", "analysis"} <= folders
    assert sorted(f for f in folders if f"`{f}/`" not in text) == []


def test_the_map_names_every_page_script() -> None:
    text = ARCHITECTURE.read_text()
    scripts = page_scripts()
    assert "core/socket.js" in scripts and "pages/game.js" in scripts
    assert [s for s in scripts if f"`{s}`" not in text and f"`static/js/{s}`" not in text] == []


def test_the_docs_name_no_file_that_is_gone() -> None:
    files = repository_files()
    for doc in CHECKED_DOCS:
        names = named_paths(doc.read_text())
        assert names, doc  # the check reads the doc's names
        assert missing_paths(names, files) == [], doc.name


def test_a_stale_name_is_caught() -> None:
    """The check itself: the old layout's capacity-chart script, a folder that is not there and a
    moved module are reported; URLs, commands and dotted names are not paths."""
    text = (
        "`replayviewer.js` steps through frames (`replaychart.js`: its chart); `core/socket.js`;\n"
        "`games/services/moves.py`, `games/moves.py`, `widgets/`, `api/`, `/api/schema/`,\n"
        "`python manage.py\n  serve`, `harehra.bots.LEVELS`, `memory://localhost/`, `30/min`"
    )
    names = named_paths(text)
    assert not {"python manage.py serve", "/api/schema/", "30/min"} & names
    assert missing_paths(names, repository_files()) == ["games/moves.py", "replaychart.js", "widgets/"]
