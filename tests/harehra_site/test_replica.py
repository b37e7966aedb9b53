"""Reads from a streaming replica, for real, on the grown shape: `scripts/prod --own-postgres
--replica --shards 2` starts a PostgreSQL primary of its own and a replica of it (pg_basebackup
-R), two servers, nginx, two channel-layer Redis and the broker's. Then:

1. the replay page is read from the replica: with the replica's replay paused, a player renamed
   on the primary still has the old name on the page (only the replica still has it);
2. read-your-writes: a person who follows a player sees the follow on that player's profile at
   once, while someone else's view of it, read from the paused replica, does not yet;
3. past REPLICA_MAX_LAG_SECONDS the pages answer 200 with the primary's rows, and `/readyz`
   says the replica lags;
4. the replica stopped: the pages answer 200 and `/readyz` says it is down (and stays ready),
   and two live games, one on each channel-layer shard, each player's page a socket through
   nginx, play on: every page is told the whole log, nothing closed.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import subprocess
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
import requests

from tests.redis_server import private_server
from tests.support.game_page import Page, shard_of
from tests.support.ports import free_port_block

pytestmark = [pytest.mark.server, pytest.mark.long]

ROOT = Path(__file__).resolve().parents[2]
PG_BIN = Path("/usr/lib/postgresql/15/bin")
MAX_LAG = 3.0

SETUP = """
from django.contrib.auth import get_user_model
from accounts.services import user_register
from bench.stored_games import finished_game
ann, bob = (user_register(username=n, password="correct-horse-battery") for n in ("ann", "bob"))
user_register(username="carl", password="correct-horse-battery")
print("GAME", finished_game([ann, bob], seed=3, rated=False, replay_access="public").pk)
from accounts.services import user_token
print("TOKENS", " ".join(
    user_token(user=user_register(username=f"live{i}", password="correct-horse-battery")) for i in range(16)
))
"""


def _free_port_block() -> int:
    """A PROD_PORT whose nginx, servers and PostgreSQL ports (PROD_PORT - 2647, - 2646) are free."""
    return free_port_block((0, 1, 2, -2647, -2646), base=30000)


def _until(check: Callable[[], Any], seconds: float, what: str) -> Any:
    end = time.monotonic() + seconds
    while True:
        found = check()
        if found:
            return found
        if time.monotonic() > end:
            raise AssertionError(f"not within {seconds} s: {what}")
        time.sleep(0.2)


@pytest.fixture
def shape() -> Iterator[dict[str, Any]]:
    if not (PG_BIN / "pg_basebackup").exists() or shutil.which("nginx") is None:
        pytest.skip("needs PostgreSQL 15's programs and nginx")
    # A directory the postgres user may enter (pytest's tmp_path may be private to root).
    run_dir = Path(f"/tmp/harehra-replica-{os.getpid()}")
    shutil.rmtree(run_dir, ignore_errors=True)
    run_dir.mkdir(mode=0o755)
    prod = _free_port_block()
    shards = free_port_block((0, 1, 2), base=30500)  # the two shards', then the broker's
    with private_server() as redis:
        yield from _started(run_dir, prod, redis, shards)


def _started(run_dir: Path, prod: int, redis: str, shards: int) -> Iterator[dict[str, Any]]:
    env = {
        **os.environ,
        "PROD_PORT": str(prod),
        "PROD_REDIS_PORT": str(shards),
        "RUN_DIR": str(run_dir),
        "REDIS_URL": f"redis://{redis}/0",
        "PROD_INSTALL": "0",
        "REPLICA_MAX_LAG_SECONDS": str(MAX_LAG),
        "REPLICA_RETRY_SECONDS": "2",
    }
    for name in ("DATABASE_URL", "OWNER_DATABASE_URL", "DATABASE_REPLICA_URL", "PROD_SHARDS"):
        env.pop(name, None)
    script = ["bash", str(ROOT / "scripts/prod")]
    started = subprocess.run(
        [*script, "--servers", "2", "--own-postgres", "--replica", "--shards", "2"],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    try:
        assert started.returncode == 0, started.stdout + started.stderr
        assert (
            f"channel layer redis://127.0.0.1:{shards}/0,redis://127.0.0.1:{shards + 1}/0" in started.stdout
        )
        assert f"broker redis://127.0.0.1:{shards + 2}/0" in started.stdout
        owner = f"postgres://postgres@127.0.0.1:{prod - 2646}/harehra_prod"
        made = subprocess.run(
            ["python", "manage.py", "shell", "-c", SETUP],
            cwd=ROOT,
            env={**env, "DATABASE_URL": owner},
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert made.returncode == 0, made.stderr
        game = int(re.search(r"GAME (\d+)", made.stdout).group(1))  # type: ignore[union-attr]
        yield {
            "site": f"http://127.0.0.1:{prod}",
            "owner": owner,
            "replica": f"postgres://postgres@127.0.0.1:{prod - 2647}/harehra_prod",
            "replica_dir": run_dir / "postgres-replica",
            "game": game,
            "tokens": re.search(r"TOKENS (.+)", made.stdout).group(1).split(),  # type: ignore[union-attr]
        }
    finally:
        subprocess.run([*script, "--stop"], env=env, capture_output=True, timeout=180)
        shutil.rmtree(run_dir, ignore_errors=True)


def _sql(url: str, statement: str) -> Any:
    with psycopg.connect(url, autocommit=True) as c:
        cur = c.execute(statement)
        row = cur.fetchone() if cur.description else None
        return row[0] if row else None


def _api(site: str, path: str, token: str, data: dict[str, Any] | None = None) -> Any:
    request = urllib.request.Request(
        site + path,
        data=json.dumps(data or {}).encode(),
        headers={"Content-Type": "application/json", "Authorization": f"Token {token}"},
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.load(answer)


def _games_on_each_shard(site: str, tokens: list[str]) -> dict[int, list[str]]:
    """Two-seat games (long timers: only the pages move), a pair of players each, until one
    lives on each channel-layer shard."""
    games: dict[int, list[str]] = {}
    for pair in zip(tokens[::2], tokens[1::2], strict=True):
        timers = {"turn_timer": 600, "reaction_timer": 600, "discard_timer": 600}
        table = _api(site, "/api/tables/", pair[0], {"seats": 2, **timers})
        _api(site, f"/api/tables/{table['id']}/join/", pair[1])
        game = _api(site, f"/api/tables/{table['id']}/start/", pair[0])["current_game"]
        if shard_of(game) not in {shard_of(g) for g in games}:
            games[game] = list(pair)
        if len(games) == 2:
            return games
    raise AssertionError("no game on each shard")


async def _play(site: str, games: dict[int, list[str]], seconds: float) -> list[Page]:
    ws = site.replace("http://", "ws://")
    pages = [
        Page(ws, game, token, f"g{game}s{i}") for game, pair in games.items() for i, token in enumerate(pair)
    ]
    tasks = [asyncio.create_task(page.run()) for page in pages]
    await asyncio.sleep(seconds)
    for page in pages:  # no new move; the moves in flight reach every page before it closes
        page.playing = False
    await asyncio.sleep(2.0)
    for page in pages:
        page.stop = True
    await asyncio.gather(*tasks)
    return pages


def _followers(html: str) -> int:
    return int(re.search(r'data-followers="(\d+)"', html).group(1))  # type: ignore[union-attr]


def test_replays_read_from_the_replica_and_pages_survive_its_lag_and_loss(shape: dict[str, Any]) -> None:
    site, owner, replica, game = shape["site"], shape["owner"], shape["replica"], shape["game"]
    replay = f"{site}/replays/{game}/"
    anyone = requests.Session()
    page = anyone.get(replay, timeout=10)
    assert page.status_code == 200 and "ann" in page.text
    assert anyone.get(f"{site}/readyz", timeout=5).json()["replica"]["state"] == "ok"

    # carl signs in now; his sign-in's mark (a write: the primary for a few seconds) is dropped, as
    # it would have expired by the time he reads again.
    carl = requests.Session()
    carl.get(f"{site}/accounts/login/", timeout=10)
    signed = carl.post(
        f"{site}/api/accounts/login/",
        json={"username": "carl", "password": "correct-horse-battery"},
        headers={"X-CSRFToken": carl.cookies["csrftoken"], "Referer": site + "/"},
        timeout=10,
    )
    assert signed.status_code == 200, signed.text
    carl.cookies.pop("harehra_wrote", None)

    # The replica replays a fresh transaction (its lag is then measured from now), then pauses.
    _sql(owner, "CREATE TABLE IF NOT EXISTS replica_probe (at timestamptz)")
    fresh_at = time.monotonic()  # the replica's lag counts from this transaction's commit
    _sql(owner, "INSERT INTO replica_probe VALUES (now())")
    target = _sql(owner, "SELECT pg_current_wal_lsn()::text")
    _until(
        lambda: _sql(replica, f"SELECT pg_last_wal_replay_lsn() >= '{target}'::pg_lsn"),
        10,
        "replica caught up",
    )
    _sql(replica, "SELECT pg_wal_replay_pause()")
    _sql(owner, "UPDATE auth_user SET username = 'annabel' WHERE username = 'ann'")

    # 1. The replay page still names ann: it was read from the replica, which alone has that row.
    page = anyone.get(replay, timeout=10)
    assert page.status_code == 200
    assert re.search(r"\bann\b", page.text), "the replay page was not read from the replica"
    assert "annabel" not in page.text

    # 2. Read-your-writes: carl follows bob, and sees it on bob's profile; anyone else does not yet.
    followed = carl.post(
        f"{site}/api/relations/follows/bob/",
        headers={"X-CSRFToken": carl.cookies["csrftoken"], "Referer": site + "/"},
        timeout=10,
    )
    assert followed.status_code == 200, followed.text
    assert "harehra_wrote" in carl.cookies
    mine = carl.get(f"{site}/players/bob/", timeout=10)
    theirs = anyone.get(f"{site}/players/bob/", timeout=10)
    assert time.monotonic() - fresh_at < MAX_LAG, "too slow to see the replica within its lag"
    assert mine.status_code == theirs.status_code == 200
    assert _followers(mine.text) == 1, "the person's own write was not read back"
    assert _followers(theirs.text) == 0, "the profile was not read from the replica"

    # 3. Past the lag limit: the primary's rows, every page 200, /readyz says so and stays ready.
    time.sleep(max(0.0, MAX_LAG + 1.5 - (time.monotonic() - fresh_at)))
    ready = anyone.get(f"{site}/readyz", timeout=5)
    assert ready.status_code == 200 and ready.json()["replica"]["state"] == "lagging", ready.text
    page = anyone.get(replay, timeout=10)
    assert page.status_code == 200 and "annabel" in page.text
    assert _followers(anyone.get(f"{site}/players/bob/", timeout=10).text) == 1
    for path in (
        "/leaderboard/",
        "/replays/",
        f"/api/replays/{game}/frames/",
        f"/api/replays/{game}/export/",
    ):
        assert anyone.get(site + path, timeout=10).status_code == 200, path

    # Replay resumes: the replica catches up and serves again.
    _sql(replica, "SELECT pg_wal_replay_resume()")
    _until(
        lambda: anyone.get(f"{site}/readyz", timeout=5).json()["replica"]["state"] == "ok",
        15,
        "replica ok again",
    )

    # 4. The replica stopped: pages answer 200 from the primary, /readyz says it is down.
    as_pg = ["runuser", "-u", "postgres", "--"] if os.getuid() == 0 else []
    subprocess.run(
        [*as_pg, str(PG_BIN / "pg_ctl"), "-D", str(shape["replica_dir"]), "-m", "immediate", "stop"],
        check=True,
        capture_output=True,
        timeout=60,
    )
    for path in (f"/replays/{game}/", "/players/bob/", "/leaderboard/", f"/api/replays/{game}/frames/"):
        answer = anyone.get(site + path, timeout=10)
        assert answer.status_code == 200, (path, answer.text[:300])
    ready = anyone.get(f"{site}/readyz", timeout=5)
    assert ready.status_code == 200, ready.text
    assert ready.json()["replica"]["state"] == "down", ready.text
    assert "annabel" in anyone.get(replay, timeout=10).text

    # Live games play on, on both channel-layer shards, through nginx: each page is told every
    # event of its game's log once, in order, and no socket is closed.
    games = _games_on_each_shard(site, shape["tokens"])
    pages = asyncio.run(_play(site, games, 6.0))
    for page in pages:
        log = _sql(
            owner, f"SELECT array_agg(seq ORDER BY seq) FROM games_gameevent WHERE game_id = {page.game_id}"
        )
        assert page.acks, f"{page.name}: no move answered"
        assert page.closes == [] and page.refused == 0, (page.name, page.closes)
        assert page.seqs == [s for s in log if s >= page.seqs[0]] and page.seqs[-1] == log[-1], page.name
