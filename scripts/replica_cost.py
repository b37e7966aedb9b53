"""What reading replays from the replica costs and spares (docs/OPERATIONS.md, "A read replica"):
a finished game's replay page asked for again and again, read from the replica, then from the
primary (the replica's replay paused past REPLICA_MAX_LAG_SECONDS, so every process reads the
primary), in turns. Prints each turn's page time (p50, p90, measured at the client on loopback,
straight to one server) and the rows each cluster read per page (pg_stat_database, read after the
backends' statistics are flushed; the beat's and the lag measures' own reads are in them too).

Against a running shape, with the replay throttles raised so that the pages are not refused:

    THROTTLE_REPLAY_FRAMES=100000/min THROTTLE_REPLAY_FRAMES_ADDRESS=100000/min \\
      PROD_PORT=8380 RUN_DIR=run/replica bash scripts/prod --servers 1 --own-postgres --replica
    python scripts/replica_cost.py --server http://127.0.0.1:8381 \\
      --owner postgres://postgres@127.0.0.1:5734/harehra_prod \\
      --replica postgres://postgres@127.0.0.1:5733/harehra_prod [--pages 200] [--rounds 2]

It makes a finished 4-seat game (as the owner) when the database has none.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import psycopg
import requests

ROOT = Path(__file__).resolve().parents[1]
FLUSH_SECONDS = 11  # an idle backend reports its statistics within 10 s (PostgreSQL 15)

MAKE_GAME = """
from accounts.services import user_register
from bench.stored_games import finished_game
people = [user_register(username=f"cost{n}", password="correct-horse-battery") for n in range(4)]
print("GAME", finished_game(people, seed=5, rated=False, replay_access="public").pk)
"""


def sql(url: str, statement: str) -> Any:
    with psycopg.connect(url, autocommit=True) as c:
        cur = c.execute(statement)
        row = cur.fetchone() if cur.description else None
        return row[0] if row else None


def rows_read(url: str) -> int:
    return int(
        sql(url, "SELECT tup_returned + tup_fetched FROM pg_stat_database WHERE datname = current_database()")
    )


def replica_state(server: str) -> str:
    return requests.get(f"{server}/readyz", timeout=5).json().get("replica", {}).get("state", "off")


def wait_for(server: str, state: str, seconds: float = 30) -> None:
    end = time.monotonic() + seconds
    while replica_state(server) != state:
        if time.monotonic() > end:
            raise SystemExit(f"the replica is not {state} within {seconds} s")
        time.sleep(0.3)


def a_game(owner: str) -> int:
    found = sql(owner, "SELECT max(id) FROM games_game WHERE status = 'finished'")
    if found:
        return int(found)
    made = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", MAKE_GAME],
        cwd=ROOT,
        env={**os.environ, "DATABASE_URL": owner},
        capture_output=True,
        text=True,
        check=True,
    )
    return int(made.stdout.split("GAME", 1)[1].split()[0])


def turn(server: str, game: int, pages: int, owner: str, replica: str) -> dict[str, float]:
    session = requests.Session()
    before = rows_read(owner), rows_read(replica)
    times = []
    for _ in range(pages):
        start = time.perf_counter()
        answer = session.get(f"{server}/replays/{game}/", timeout=30)
        times.append(time.perf_counter() - start)
        if answer.status_code != 200:
            raise SystemExit(f"the replay page answered {answer.status_code}")
    time.sleep(FLUSH_SECONDS)
    after = rows_read(owner), rows_read(replica)
    times.sort()
    return {
        "p50": 1000 * statistics.median(times),
        "p90": 1000 * times[int(0.9 * len(times)) - 1],
        "primary_rows": (after[0] - before[0]) / pages,
        "replica_rows": (after[1] - before[1]) / pages,
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--server", required=True)
    parser.add_argument("--owner", required=True, help="the primary's URL, as the tables' owner")
    parser.add_argument("--replica", required=True, help="the replica's URL (a superuser: to pause it)")
    parser.add_argument("--pages", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    game = a_game(args.owner)
    events = sql(args.owner, f"SELECT last_seq FROM games_game WHERE id = {game}")
    print(
        f"replay page of game {game} ({events} events), {args.pages} pages a turn, straight to {args.server}"
    )
    for n in range(1, args.rounds + 1):
        wait_for(args.server, "ok")
        on_replica = turn(args.server, game, args.pages, args.owner, args.replica)
        # Paused, and a write it has not replayed: its lag grows past the limit.
        sql(args.replica, "SELECT pg_wal_replay_pause()")
        try:
            sql(args.owner, "CREATE TABLE IF NOT EXISTS replica_cost_probe (at timestamptz)")
            sql(args.owner, "INSERT INTO replica_cost_probe VALUES (now())")
            wait_for(args.server, "lagging")
            on_primary = turn(args.server, game, args.pages, args.owner, args.replica)
        finally:
            sql(args.replica, "SELECT pg_wal_replay_resume()")
        for name, f in (("replica", on_replica), ("primary", on_primary)):
            print(
                f"round {n}, read from the {name}: page p50 {f['p50']:.1f} ms, p90 {f['p90']:.1f} ms; "
                f"rows read per page: primary {f['primary_rows']:.0f}, replica {f['replica_rows']:.0f}"
            )


if __name__ == "__main__":
    main()
