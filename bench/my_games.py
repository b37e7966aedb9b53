"""What My games costs a server (the page and the API) for a person with many slow games: asked
through Django's test client, in-process (the server's time: middleware, the statements, the
template or the serializer), on the default database, then rolled back.

The person plays `games` slow tables of four (themselves, two other people, a bot), each started
through the games' services (a deal, its deadline); `history` finished games of theirs lie in the
past (rows written directly, as a finished game's row and seats are: My games reads no log), so the
read of their seats is measured against a long record, not an empty one. For scale, the same
person with one slow game is measured in the same run first.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.utils import timezone
from rest_framework.throttling import SimpleRateThrottle

from bench.kit.stats import percentile
from bench.stored_games import rolled_back
from games.models import Game, GameSeat, GameStatus, Pace, Table, TableStatus
from games.selectors import my_games
from games.services.tables import TableSettings, table_add_bot, table_create, table_join, table_start

DAY = 86400


def run_my_games(games: int, history: int, count: int, write: Callable[[str], None]) -> None:
    with rolled_back(dict.fromkeys(SimpleRateThrottle.THROTTLE_RATES)):  # every scope: no limit
        _measure(games, history, count, write)


def _people(stamp: int, n: int) -> list[Any]:
    users = get_user_model().objects
    return [users.create_user(username=f"bench-mine-{i}-{stamp}", password=None) for i in range(n)]


def _slow_game(person: Any, others: list[Any], shuffler: int) -> Game:
    table = table_create(host=person, settings=TableSettings(seats=4, rated=False))
    Table.objects.filter(pk=table.pk).update(
        pace=Pace.SLOW, turn_timer=DAY, reaction_timer=DAY, discard_timer=DAY, next_shuffler=shuffler
    )
    table.refresh_from_db()
    for other in others:
        table_join(table=table, user=other, invite_code=table.invite_code)
    table_add_bot(table=table, user=person)
    return table_start(table=table, user=person)


def _history(person: Any, others: list[Any], n: int) -> None:
    """`n` finished games in the past, four seats each: rows as a finished game leaves them."""
    if n <= 0:
        return
    table = Table.objects.create(host=person, seats=4, status=TableStatus.CLOSED)
    long_ago = timezone.now() - timedelta(days=60)
    made = Game.objects.bulk_create(
        [
            Game(
                table=table,
                number=i + 1,
                players=4,
                shuffler=0,
                status=GameStatus.FINISHED,
                result="win",
                winner_seat=i % 4,
                last_seq=200,
                finished_at=long_ago,
            )
            for i in range(n)
        ]
    )
    people = [person, *others[:2], None]
    GameSeat.objects.bulk_create(
        [
            GameSeat(game=g, seat=s, user=u, is_bot=u is None, bot_playing=u is None)
            for g in made
            for s, u in enumerate(people)
        ]
    )


@contextmanager
def _database_time() -> Iterator[list[float]]:
    """The time spent in the database's statements (ms each), while inside."""
    spent: list[float] = []

    def timed(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        t = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            spent.append((time.perf_counter() - t) * 1000)

    with connection.execute_wrapper(timed):
        yield spent


def _ask(client: Client, url: str, count: int) -> tuple[list[float], list[float], list[float], int, int]:
    client.get(url)  # once first: a compiled template, the session, as a server has them
    wall, cpu, db = [], [], []
    statements, size = 0, 0
    for _ in range(count):
        with _database_time() as spent:
            t, c = time.perf_counter(), time.process_time()
            r = client.get(url)
            wall.append((time.perf_counter() - t) * 1000)
            cpu.append((time.process_time() - c) * 1000)
        assert r.status_code == 200, (url, r.status_code, r.content[:200])
        db.append(sum(spent))
        statements, size = len(spent), len(r.content)
    return wall, cpu, db, statements, size


def _measure(games: int, history: int, count: int, write: Callable[[str], None]) -> None:
    stamp = time.time_ns()
    person, *others = _people(stamp, 5)
    _history(person, others, history)
    client = Client()
    client.force_login(person)
    write(
        f"My games: a person with 1, then {games} slow games (four seats each) and {history} "
        f"finished games before; {count} requests each, server time in-process"
    )
    write(
        f"{'games':>6s} {'endpoint':18s} {'p50 ms':>8s} {'p95 ms':>8s} {'max ms':>8s} "
        f"{'CPU p50':>8s} {'DB p50':>8s} {'stmts':>6s} {'answer':>8s}"
    )
    made = 0
    for target in (1, games):
        for i in range(made, target):
            _slow_game(person, [others[i % 4], others[(i + 1) % 4]], i % 4)
        made = target
        listed = len(my_games(person)["games"])
        assert listed == target, (listed, target)
        for label, url in (
            ("GET /games/mine/", "/games/mine/"),
            ("GET /api/games/mine/", "/api/games/mine/"),
        ):
            wall, cpu, db, statements, size = _ask(client, url, count)
            write(
                f"{target:6d} {label:18s} {statistics.median(wall):8.1f} {percentile(wall, 95):8.1f} "
                f"{max(wall):8.1f} {statistics.median(cpu):8.1f} {statistics.median(db):8.1f} "
                f"{statements:6d} {size / 1024:6.0f} KiB"
            )
