"""Smoke test of `bench_live`: a few games, one real server, three seconds (no timing asserted)."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.db import connection

from bench.browser import BrowserConfig, run_browser_bench
from games.models import Game, GameStatus
from tests.redis_server import redis_url
from tests.support.stack import database_url

pytestmark = [pytest.mark.server, pytest.mark.django_db(transaction=True)]


def test_bench_live_browser_mix(tmp_path: Path) -> None:
    """The browser mix on a few games: game pages, a watch page and a lobby page, a few seconds.

    The server pushes each socket its `view` after a move: the pages make no HTTP request per move.
    """
    if connection.vendor != "postgresql":
        pytest.skip("the live bench shares its database with server processes: PostgreSQL only")
    cfg = BrowserConfig(
        games=4,  # a watch page on game 0, one lobby page (16 players)
        servers=1,
        mean_gap=0.5,
        duration=3.0,
        warmup=1.0,
        drain=5.0,
        jitter_seconds=0.5,  # the jitter is only reported; half a second gives its figures
        database_url=database_url(connection.settings_dict),
        redis_url=redis_url(8),
        migrate=False,
        log_dir=tmp_path,
    )
    lines: list[str] = []
    result = run_browser_bench(cfg, lines.append)

    s = result.stats
    assert s.sent > 0
    assert s.completed > 0, "no move reached every page of its table (4 seats and the watch page)"
    assert not s.errors and not s.http_errors and not s.seq_gaps and not s.unfinished, "\n".join(result.lines)
    assert s.http["game"] == 0 and s.http["frames"] == 0, "the pages render from the pushes alone"
    # The bench leaves no game running behind it for bots to play out later.
    assert not Game.objects.filter(status=GameStatus.RUNNING).exists()
    assert Game.objects.filter(status=GameStatus.ABORTED).count() == cfg.games
    fastest, p50, p99, worst = result.jitter_ms
    assert 0 < fastest <= p50 <= p99 <= worst
    labels = ("machine wake-up jitter", "moves scheduled:", "moves sent:", "latency send -> last page")
    for label in (*labels, "errors:", "CPU per move"):
        assert any(line.startswith(label) for line in result.lines), label
