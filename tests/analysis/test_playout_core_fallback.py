"""Where the compiled playout core is not built (or does not import), the pure core plays the very
same moves, and the server warns once when it starts (analysis/playout_core.py): a fresh process
with the compiled module kept from importing starts Django, analyses a game and gives the pinned
bytes (tests/engine/test_playout.py), and logs the warning exactly once."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest

from analysis.playout_core import NOT_BUILT, warn_if_pure
from harehra.bots import playout
from tests.engine.test_playout import PINNED

ROOT = Path(__file__).resolve().parents[2]

NO_CORE = """
import hashlib, sys
sys.modules["harehra.bots._playout_core"] = None  # the compiled core as if it were not built
import django
django.setup()
from harehra.analysis import analyse, analysis_json
from harehra.bots import playout
from tests.engine.test_playout import _bot_game
assert not playout.CORE_COMPILED and playout.play_moves is playout.pure_moves
text = analysis_json(analyse(_bot_game(4, 3), 6, salt="game 4"))
print("digest", hashlib.sha256(text.encode()).hexdigest())
"""


def test_without_the_compiled_core_the_pure_core_plays_the_same_and_the_server_warns_once() -> None:
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "harehra_site.settings", "LOG_FORMAT": "text"}
    done = subprocess.run(
        [sys.executable, "-c", NO_CORE], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    assert f"digest {PINNED[(4, 3, ())]}" in done.stdout
    assert (done.stdout + done.stderr).count(NOT_BUILT) == 1


def test_with_the_compiled_core_the_server_says_nothing(caplog: pytest.LogCaptureFixture) -> None:
    if not playout.CORE_COMPILED:
        pytest.skip("the compiled playout core is not built")
    with caplog.at_level(logging.WARNING, logger="analysis.playout_core"):
        assert warn_if_pure() is False
    assert NOT_BUILT not in caplog.text
