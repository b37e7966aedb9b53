"""A deploy under load, small (bench/deploy.py, `manage.py bench_deploy`): the production
shape that scripts/prod starts (nginx in front of two servers, a worker, beat), the browser mix's
pages of 10 games through nginx (one with a bot), then one server restarted with
SIGTERM (it drains and closes its sockets with 1012) and then the other killed with SIGKILL,
each replaced while the games go on. On the sharded shape (`scripts/prod --shards 2`): the
channel layer on two Redis servers of its own and the broker on a third, the cache on the test's
Redis. Every must of the bench holds: no move lost or applied
twice (the pages' answers checked against the log), no error shown to a page, every page back
within 5 s at p99, no bot late beyond its bound."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from django.db import connection

from bench.deploy import DeployConfig, run_deploy_bench
from games.models import Game, GameStatus
from tests.redis_server import redis_url
from tests.support.ports import free_port_block
from tests.support.stack import database_url

pytestmark = [pytest.mark.server, pytest.mark.django_db(transaction=True)]


def _free_ports(n: int) -> int:
    """The first of `n` consecutive free ports on loopback (nginx's, then one per server)."""
    return free_port_block(range(n), base=20000)


def test_a_restart_and_a_crash_under_load_lose_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("the servers share the test database: PostgreSQL only")
    if shutil.which("nginx") is None:
        pytest.skip("needs Debian's nginx (bash scripts/prod installs it)")
    if shutil.which("redis-server") is None:
        pytest.skip("needs Debian's redis-server (scripts/prod --shards starts its own)")
    port = _free_ports(6)  # nginx, two servers, then two channel-layer Redis and the broker's
    # scripts/prod reads these from the environment the bench hands it (its own, with these).
    monkeypatch.setenv("PROD_SHARDS", "2")
    monkeypatch.setenv("PROD_REDIS_PORT", str(port + 3))
    cfg = DeployConfig(
        games=10,
        servers=2,
        mean_gap=2.0,
        warmup=2.0,
        steady=4.0,
        settle=2.0,
        phases=("term:1", "kill:2"),
        bot_every=10,
        database_url=database_url(connection.settings_dict),
        redis_url=redis_url(2),
        port=port,
        run_dir=tmp_path / "prod",
        migrate=False,  # pytest-django made and migrated the test database
        jitter_seconds=0.2,
        drain=10.0,
    )
    lines: list[str] = []
    result = run_deploy_bench(cfg, lines.append)
    report = "\n".join(lines)

    _, term, kill = result.phases
    assert [p.title for p in result.phases] == [
        "steady",
        "SIGTERM restart of server 1",
        "kill -9 restart of server 2",
    ]
    # Each restart really went on under the pages: the drained server closed its sockets with
    # 1012, the killed one's just ended (1006), and moves were made meanwhile.
    assert set(term.stats.closes) == {1012}, report
    assert set(kill.stats.closes) == {1006}, report
    for phase in result.phases:
        assert phase.moves > 0, report
        assert phase.lost == 0 and phase.duplicated == 0 and phase.unrecorded == 0, report
        assert phase.errors_shown == 0, report
        assert phase.not_back == 0 and phase.bots_late == 0, report
    # About half of the 46 pages were on server 1, and most on server 2 when it was killed.
    assert len(term.stats.back_s) >= 10 and len(kill.stats.back_s) >= 20, report
    assert not result.anomalies, report
    assert result.failures == [], report  # pages back within BACK_BOUND_S at p99 among them
    # It ran on the sharded shape (scripts/prod says so as it starts the Redis servers).
    shards = [line for line in report.splitlines() if "redis: channel layer" in line]
    assert shards and f"127.0.0.1:{port + 3}/0,redis://127.0.0.1:{port + 4}/0" in shards[0], report
    assert f"broker redis://127.0.0.1:{port + 5}/0" in shards[0], report
    # The bench leaves no game running for bots to play out later.
    assert not Game.objects.filter(status=GameStatus.RUNNING).exists()
