"""Every event reaches a game's log through one function, `games.services.moves.game_append`.

The source check finds any other code that could insert into the event table; the run check
drives every kind of writer (a table's start and its next game, a person's command, a bot, a
timer, a seat handed to a bot and taken back, a moderator's abort) and counts that each event in
the log was written by the one statement `game_append` runs.
"""

from __future__ import annotations

import ast
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone

from games import sql
from games.models import Game, GameEvent, GameSeat, Table
from games.services.autoplay import game_bot_move, game_deadline_expire
from games.services.seats import seat_hand_to_bot, seat_reclaim
from games.services.tables import table_next_game
from moderation.services import game_abort
from tests.factories import seated_game, send

ROOT = Path(__file__).resolve().parents[2]
APPEND_MODULE = ROOT / "games" / "services" / "moves.py"
SQL_MODULE = ROOT / "games" / "sql.py"
# The one list of append-only logs names the table too: to refuse its changes (triggers), not to write.
APPEND_ONLY_MODULE = ROOT / "plumbing" / "append_only.py"
# ... and the partitions' DDL (the table's shape, run by migrations and the beat), not to append.
PARTITIONS_MODULE = ROOT / "games" / "partitions.py"
# ... and the event log's bench, which fills a database of its own with copies of a real game.
EVENT_LOG_BENCH = ROOT / "bench" / "event_log.py"
EVENT_TABLE = "games_gameevent"
# What writes events: the statement builders in sql.py, and write_move, which only game_append calls.
WRITERS = {"write_move", "_insert_events", "_insert_events_from_array", "_insert_event_values"}
ORM_WRITES = {"create", "bulk_create", "get_or_create", "update_or_create", "update", "raw"}


def _project_sources() -> list[Path]:
    skip = {".venv", "tests", "migrations", "node_modules", "staticfiles"}
    return [p for p in ROOT.rglob("*.py") if not skip & set(p.relative_to(ROOT).parts)]


def _writes_events(path: Path) -> list[str]:
    found = []
    tree = ast.parse(path.read_text(), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name in WRITERS and path not in (APPEND_MODULE, SQL_MODULE):
                found.append(f"{path}:{node.lineno} calls {name}")
            if (
                name in ORM_WRITES
                and isinstance(func, ast.Attribute)
                and "GameEvent" in ast.unparse(func.value)
            ):
                found.append(f"{path}:{node.lineno} writes GameEvent rows through the ORM")
        named = isinstance(node, ast.Constant) and isinstance(node.value, str) and EVENT_TABLE in node.value
        if named and path not in (SQL_MODULE, APPEND_ONLY_MODULE, PARTITIONS_MODULE, EVENT_LOG_BENCH):
            found.append(f"{path}:{node.lineno} names the event table in SQL")
    return found


def test_no_code_but_the_append_path_writes_the_event_log() -> None:
    sources = _project_sources()
    assert APPEND_MODULE in sources and len(sources) > 50
    offenders = [hit for path in sources for hit in _writes_events(path)]
    assert offenders == []
    # write_move is called from game_append and nowhere else in the append module.
    tree = ast.parse(APPEND_MODULE.read_text())
    callers = {
        fn.name
        for fn in ast.walk(tree)
        if isinstance(fn, ast.FunctionDef)
        for call in ast.walk(fn)
        if isinstance(call, ast.Call)
        and isinstance(call.func, ast.Attribute)
        and call.func.attr == "write_move"
    }
    assert callers == {"game_append"}


def test_the_source_check_catches_a_writer_outside_the_path(tmp_path: Path) -> None:
    rogue = tmp_path / "rogue.py"
    rogue.write_text(
        "from games import sql\n"
        "from games.models import GameEvent\n"
        "def f(game):\n"
        "    sql.write_move(game, 1, [], None, None)\n"
        "    GameEvent.objects.bulk_create([])\n"
        "    return 'INSERT INTO games_gameevent VALUES (1)'\n"
    )
    assert len(_writes_events(rogue)) == 3


@pytest.fixture
def written(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The number of events each call of the append path's write carried."""
    calls: list[int] = []
    real = sql.write_move

    def spy(game: Any, first_seq: int, events: Any, *args: Any) -> None:
        calls.append(len(events))
        real(game, first_seq, events, *args)

    monkeypatch.setattr(sql, "write_move", spy)
    return calls


def _logged(game_id: int) -> int:
    return GameEvent.objects.filter(game_id=game_id).count()


@pytest.mark.django_db
def test_every_writer_appends_through_the_one_path(
    written: list[int], make_user: Any, client_for: Any, django_capture_on_commit_callbacks: Any
) -> None:
    from tests.moderation.conftest import make_moderator

    people = [make_user() for _ in range(3)]
    clients = [client_for(u) for u in people]
    game_id = seated_game(clients)  # a table's start
    assert sum(written) == _logged(game_id) > 0
    kinds = []

    def check(kind: str) -> None:
        kinds.append(kind)
        assert sum(written) == sum(_logged(g) for g in Game.objects.values_list("pk", flat=True)), kind

    game = Game.objects.get(pk=game_id)
    by_user = {gs.user_id: gs.seat for gs in GameSeat.objects.filter(game=game)}
    mover = next(c for u, c in zip(people, clients, strict=True) if by_user[u.pk] == game.awaiting_seat)
    legal = mover.get(f"/api/games/{game_id}/").json()["legal"]
    assert send(mover, game_id, {k: v for k, v in legal[0].items() if k != "seat"}).status_code == 200
    check("command")

    game = Game.objects.get(pk=game_id)
    Game.objects.filter(pk=game_id).update(deadline_at=timezone.now() - timedelta(seconds=1))
    assert game_deadline_expire(game_id=game_id, guard_seq=game.last_seq) is not None
    check("timer")

    game = Game.objects.get(pk=game_id)
    with django_capture_on_commit_callbacks():
        from django.db import transaction

        with transaction.atomic():
            assert seat_hand_to_bot(game=game, seat=game.awaiting_seat, reason="away")
    check("seat taken by a bot")
    game = Game.objects.get(pk=game_id)
    assert game_bot_move(game_id=game_id, guard_seq=game.last_seq) is not None
    check("bot")

    away = next(u for u in people if by_user[u.pk] == GameSeat.objects.get(game=game, bot_playing=True).seat)
    seat_reclaim(game=Game.objects.get(pk=game_id), user=away)
    check("seat taken back")

    game_abort(moderator=make_moderator(make_user), game=Game.objects.get(pk=game_id), reason="test abort")
    check("abort")

    table = Table.objects.get(games__pk=game_id)
    table_next_game(table=table, user=people[0])
    check("next game")
    assert len(kinds) == 7
