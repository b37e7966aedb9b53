"""The test database's flush survives a deadlock with a writer that is still running (a bot of a
module's shared servers, tests/conftest.py: _flush_may_truncate_the_logs)."""

from __future__ import annotations

import re
import threading

import psycopg
import pytest
from django.contrib.auth import get_user_model
from django.core.management.color import no_style
from django.core.management.sql import sql_flush
from django.db import connection

from tests.support.stack import database_url
from tests.support.waits import wait_until

pytestmark = pytest.mark.django_db(transaction=True)


# Without resetting sequences, as the test teardown flushes: the tables locked, their rows deleted;
# with it, TRUNCATE (tests/conftest.py). Both lock the tables in the TRUNCATE statement's order.
@pytest.mark.parametrize("reset_sequences", [False, True], ids=["delete", "truncate"])
def test_a_flush_that_deadlocks_with_a_writer_is_tried_again(reset_sequences: bool) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("the flush's TRUNCATE and its locks are PostgreSQL's")
    User = get_user_model()
    User.objects.create(username="left-behind")
    statements = sql_flush(no_style(), connection, reset_sequences=reset_sequences, allow_cascade=False)
    truncate = next(s for s in statements if s.startswith("TRUNCATE"))
    tables = re.findall(r'"([^"]+)"', truncate)  # TRUNCATE locks them in this order
    first, last = tables[0], tables[-1]
    flusher_pid = connection.cursor().connection.info.backend_pid
    holding, writer_got_both = threading.Event(), threading.Event()
    failures: list[BaseException] = []

    def writer() -> None:
        # Holds the flush's last table, then asks for its first: a deadlock. Its own detection
        # waits 10 s, so the flush's (1 s) finds the deadlock first and the flush is the one aborted.
        try:
            with psycopg.connect(database_url(connection.settings_dict)) as other:
                other.execute("SET deadlock_timeout = '10s'")
                other.execute(f'LOCK TABLE "{last}" IN ROW EXCLUSIVE MODE')
                holding.set()
                wait_until(
                    lambda: other.execute(
                        "SELECT 1 FROM pg_locks WHERE pid = %s AND NOT granted", [flusher_pid]
                    ).fetchone(),
                    "the flush never waited for the writer's table",
                    every=0.01,
                )
                other.execute(f'LOCK TABLE "{first}" IN ROW EXCLUSIVE MODE')
                writer_got_both.set()
        except BaseException as e:  # reported by the test thread
            failures.append(e)
            holding.set()

    thread = threading.Thread(target=writer)
    thread.start()
    assert holding.wait(10)
    connection.ops.execute_sql_flush(statements)  # raises unless the aborted flush is tried again
    thread.join(20)

    assert not failures, failures
    assert writer_got_both.is_set()  # the writer was not the deadlock's victim: the flush was
    assert not User.objects.exists()


def test_a_flush_empties_the_logs_and_leaves_them_append_only() -> None:
    """The flush deletes the logs' rows with their triggers off for its own transaction only: the
    rows are gone, and a DELETE afterwards is refused as before (tests/conftest.py)."""
    if connection.vendor != "postgresql":
        pytest.skip("the flush's locks and triggers are PostgreSQL's")
    from django.db import DatabaseError, transaction

    from games.models import GameEvent
    from tests.factories import finished_game

    User = get_user_model()
    game = finished_game([User.objects.create(username="ann"), User.objects.create(username="bob")], seed=1)
    assert GameEvent.objects.filter(game_id=game.pk).exists()
    # As the test teardown flushes (django.core.management.commands.flush, reset_sequences=False).
    connection.ops.execute_sql_flush(sql_flush(no_style(), connection, reset_sequences=False))

    assert not GameEvent.objects.exists() and not User.objects.exists()
    game = finished_game([User.objects.create(username="cat"), User.objects.create(username="dan")], seed=2)
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        GameEvent.objects.filter(game_id=game.pk).delete()
    with connection.cursor() as cursor:
        cursor.execute("SHOW session_replication_role")
        assert cursor.fetchone()[0] == "origin"
