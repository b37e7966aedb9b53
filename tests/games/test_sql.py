"""The statements every move makes (games/sql.py): what they lock, and what PostgreSQL does with them."""

from __future__ import annotations

import random
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from django.db import DatabaseError, OperationalError, connection, transaction
from django.db.models import QuerySet
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games import sql
from games.eventlog import load_state
from games.models import Game, GameEvent, GameSeat, Table
from games.services.moves import game_command_submit
from harehra import legal_commands
from tests.factories import play_out, seated_game
from tests.support.waits import wait_until

pytestmark = pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL only")

# What a move writes on the game row, apart from `status`, which changes once, when it ends.
MOVE_COLUMNS = [f for f in sql._GAME_MOVE_FIELDS if f != "status"]


def _game(make_user, client_for, players: int = 2) -> Game:
    return Game.objects.get(pk=seated_game([client_for(make_user()) for _ in range(players)]))


@pytest.mark.django_db
def test_the_move_statements_run_prepared(make_user, client_for):
    game = _game(make_user, client_for, players=4)
    play_out(game, random.Random(8), moves=8)  # psycopg prepares a statement on its fifth run
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
    # A slow game's own columns are the exception, and indexed on purpose (games/models.py): they
    # stay NULL and false at live games, whose moves so keep their HOT updates.
    slow_only = {"slow_deadline_at", "slow_tell"}
    live_columns = [c for c in MOVE_COLUMNS if c not in slow_only]
    for definition in definitions:
        named = re.findall(r"\b\w+\b", definition)
        assert not [c for c in live_columns if c in named], definition


@pytest.mark.django_db
def test_live_moves_write_no_slow_column(make_user, client_for):
    """What keeps live moves HOT beside the slow columns' indexes: a live game writes them as they
    were (NULL, false), so no indexed column of its row changes."""
    game = _game(make_user, client_for)
    for _ in range(6):
        play_out(game, random.Random(4), moves=1)
        row = Game.objects.get(pk=game.pk)
        assert row.deadline_at is not None
        assert (row.slow, row.slow_deadline_at, row.slow_tell) == (False, None, False)


@pytest.mark.django_db
def test_a_move_writes_its_events_record_and_game_row_in_one_statement(make_user, client_for):
    game = _game(make_user, client_for)
    play_out(game, random.Random(3), moves=3)
    game.refresh_from_db()
    assert game.last_seq == GameEvent.objects.filter(game=game).count()
    assert game.commands.count() == 3
    # Each command's record carries the id it was sent with, in the order they were sent.
    ids = list(game.commands.order_by("first_seq").values_list("client_cmd_id", flat=True))
    assert len(set(ids)) == 3 and ids == sorted(ids, key=lambda cmd_id: int(cmd_id.removeprefix("r")))


@pytest.mark.django_db
@pytest.mark.parametrize("seed", [5, 6])
def test_a_persons_command_reads_the_seats_once_even_when_it_opens_a_reaction_window(
    make_user, client_for, settings, seed
):
    """The seats come with the move's one read (`move_read`), "answer for me" among them: no
    command reads them again through the ORM, and a reaction window is still as long as the
    answering seat's choice says (games/services/moves.py, _with_deadline)."""
    settings.AUTO_ANSWER_SECONDS = 3  # the table's reaction timer is 10 s
    game = _game(make_user, client_for, players=3)
    GameSeat.objects.filter(game=game, seat=1).update(auto_answer=True)
    users = {s.seat: s.user for s in GameSeat.objects.filter(game=game).select_related("user")}
    rng, windows = random.Random(seed), set()
    for n in range(80):
        game = Game.objects.get(pk=game.pk)
        if game.status != "running":
            break
        state = load_state(game)
        seat = state.awaiting.seat
        command = {k: v for k, v in rng.choice(legal_commands(state, seat)).items() if k != "seat"}
        with CaptureQueriesContext(connection) as orm:
            game_command_submit(game=game, user=users[seat], command=command, client_cmd_id=f"q{n}")
        after = Game.objects.get(pk=game.pk)
        if after.status != "running":
            break  # the end of a game reads the seats for its placings (games/ended.py)
        assert not [q["sql"] for q in orm.captured_queries if "games_gameseat" in q["sql"]]
        if after.awaiting_kind in ("volley", "skip"):
            left = (after.deadline_at - timezone.now()).total_seconds()
            answers_itself = after.awaiting_seat == 1
            assert (left <= 3) if answers_itself else (left > 5), (after.awaiting_seat, left)
            windows.add(answers_itself)
    assert windows == {True, False}, "no reaction window opened for both kinds of seat"


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
    game = _game(make_user, client_for)
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
    game = _game(make_user, client_for)
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
