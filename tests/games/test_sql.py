"""The statements every move makes (games/sql.py): what they lock, and what PostgreSQL does with them."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from django.db import DatabaseError, OperationalError, connection, transaction
from django.db.models import QuerySet

from games import sql
from games.eventlog import load_state
from games.models import Game, GameEvent, Table
from games.services.moves import game_command_submit
from harehra import legal_commands
from tests.games.helpers import seated_game
from tests.support.waits import wait_until

pytestmark = pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL only")

# What a move writes on the game row, apart from `status`, which changes once, when it ends.
MOVE_COLUMNS = [f for f in sql._GAME_MOVE_FIELDS if f != "status"]


def _game(make_user, client_for, players: int = 2) -> tuple[Game, dict[int, object]]:
    users = [make_user() for _ in range(players)]
    game = Game.objects.get(pk=seated_game([client_for(u) for u in users]))
    return game, {s.seat: s.user for s in game.game_seats.select_related("user")}


def _play(game: Game, by_seat: dict[int, object], moves: int) -> None:
    for i in range(moves):
        game.refresh_from_db()
        state = load_state(game)
        if state.over:
            return
        seat = state.awaiting.seat
        command = {k: v for k, v in legal_commands(state, seat)[-1].items() if k != "seat"}
        game_command_submit(game=game, user=by_seat[seat], command=command, client_cmd_id=f"m{i}")


@pytest.mark.django_db
def test_the_move_statements_run_prepared(make_user, client_for):
    game, by_seat = _game(make_user, client_for, players=4)
    _play(game, by_seat, 8)  # psycopg prepares a statement on its fifth run
    with connection.cursor() as cur:
        cur.execute("SELECT statement FROM pg_prepared_statements")
        prepared = [row[0] for row in cur.fetchall()]
    assert any("FOR UPDATE OF t, g" in s for s in prepared), prepared
    # One text for the write, whatever the number of events: the events go as one JSON array.
    writes = [s for s in prepared if s.startswith("WITH w0 AS (INSERT INTO")]
    assert len(writes) == 1 and "jsonb_array_elements" in writes[0], prepared


@pytest.mark.django_db
def test_no_index_of_the_game_table_covers_a_column_a_move_changes():
    """Then PostgreSQL updates the game row in place (HOT): no index entries per move."""
    with connection.cursor() as cur:
        cur.execute(
            "SELECT pg_get_indexdef(indexrelid) FROM pg_index WHERE indrelid = 'games_game'::regclass"
        )
        definitions = [row[0] for row in cur.fetchall()]
    assert definitions
    for definition in definitions:
        assert not [c for c in MOVE_COLUMNS if c in definition], definition


@pytest.mark.django_db
def test_a_move_writes_its_events_record_and_game_row_in_one_statement(make_user, client_for):
    game, by_seat = _game(make_user, client_for)
    _play(game, by_seat, 3)
    game.refresh_from_db()
    assert game.last_seq == GameEvent.objects.filter(game=game).count()
    assert game.commands.count() == 3
    assert list(game.commands.order_by("first_seq").values_list("client_cmd_id", flat=True)) == [
        "m0",
        "m1",
        "m2",
    ]


@contextmanager
def _row_locked_elsewhere(rows: QuerySet) -> Iterator[None]:
    """The row locked by another connection (a thread's transaction) until the block ends."""
    holding, release = threading.Event(), threading.Event()

    def hold() -> None:
        try:
            with transaction.atomic():
                rows.select_for_update().get()
                holding.set()
                release.wait(10)
        finally:
            connection.close()

    holder = threading.Thread(target=hold)
    holder.start()
    try:
        assert holding.wait(10)
        yield
    finally:
        release.set()
        holder.join(10)


@pytest.mark.django_db(transaction=True)
def test_locked_game_waits_for_a_lock_held_on_its_table(make_user, client_for):
    """The table row is locked with the game's (table first): a leave holding it makes a move wait."""
    game, _ = _game(make_user, client_for)
    with (
        _row_locked_elsewhere(Table.objects.filter(pk=game.table_id)),
        pytest.raises(OperationalError, match="lock timeout"),
        transaction.atomic(),
    ):
        with connection.cursor() as cur:
            cur.execute("SET LOCAL lock_timeout = '300ms'")
        sql.locked_game(game.pk)
    with transaction.atomic():
        locked = sql.locked_game(game.pk)
        assert locked.table.pk == game.table_id and sql.log_end(game.pk) == locked.last_seq == game.last_seq


def _waiting_for_a_lock() -> int:
    with connection.cursor() as cur:
        cur.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
            "AND datname = current_database()"
        )
        return int(cur.fetchone()[0])


@pytest.mark.django_db(transaction=True)
def test_locked_game_locks_the_table_before_the_game(make_user, client_for):
    """While it waits for the game's lock, it already holds the table's: the one lock order."""
    game, _ = _game(make_user, client_for)
    locked = threading.Event()

    def lock_both() -> None:
        try:
            with transaction.atomic():
                sql.locked_game(game.pk)
                locked.set()
        finally:
            connection.close()

    mover = threading.Thread(target=lock_both)
    with _row_locked_elsewhere(Game.objects.filter(pk=game.pk)):
        mover.start()
        wait_until(lambda: _waiting_for_a_lock() == 1, "the mover never waited for a lock", timeout=5)
        assert not locked.is_set()
        with pytest.raises(DatabaseError, match="could not obtain lock"), transaction.atomic():
            Table.objects.select_for_update(nowait=True).get(pk=game.table_id)
    mover.join(10)
    assert locked.is_set()
