"""Smoke test of `bench_bot_delay`: both modes, one table, a few bot moves (no timing asserted)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import connection

from games.models import Game, GameStatus
from tests.redis_server import redis_url
from tests.support.stack import ROOT, database_url

pytestmark = [pytest.mark.server, pytest.mark.django_db(transaction=True)]


def test_bench_bot_delay_measures_bots_in_both_modes(tmp_path: Path) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("the bench's Redis mode shares its database with server processes: PostgreSQL only")
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    # Its own process: the bench points Django's connection at the servers' databases (the embedded
    # mode's is a scratch SQLite file).
    done = subprocess.run(
        [
            sys.executable, "manage.py", "bench_bot_delay", "--mode", "both", "--games", "1",
            "--moves", "6", "--warmup-moves", "1", "--delay", "0.05",
            "--database-url", database_url(connection.settings_dict), "--redis-url", redis_url(8),
            "--log-dir", str(tmp_path), "--timeout", "120",
            # Analyses kept pending meanwhile (at a tiny budget), by the embedded analyst or an
            # analyst process.
            "--analyses", "1", "--phase", "2", "--analysis-games", "2",
            "--server-env", "ANALYSIS_PLAYOUTS=2",
        ],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=400, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    out = done.stdout
    for mode in ("embedded", "redis"):
        report = out[out.index(f"bench_bot_delay: {mode}") :]
        page = re.search(r"bot move late at the page \(ms\): p50 (-?\d+) .* \(n=(\d+)\)", report)
        log = re.search(r"bot move late in the log \(ms\): .* \(n=(\d+)\)", report)
        assert page and int(page[2]) >= 6, report[:2000]
        assert log and int(log[1]) == int(page[2])  # each bot move found in the log
        assert re.search(r"bot task start - due \(n=\d+\): mean", report), report[:2000]
        assert "errors: none; seq gaps: 0" in report
        assert "analyses: 1 kept pending on the analysis queue" in report, report[:3000]
        assert re.search(r"with analyses +late at the page .* \(n=\d+\)", report)
        assert re.search(r"without analyses +late at the page .* \(n=\d+\)", report)
        done_line = r"analyses completed in the window: \d+; .* failed or lost: 0"
        assert re.search(done_line, report), report[:3000]
    # The bench ends the games it started on PostgreSQL: none is left for a later worker to play.
    assert not Game.objects.filter(status=GameStatus.RUNNING).exists()
