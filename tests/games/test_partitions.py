"""The event log partitioned by ranges of game ids (games/partitions.py): the conversion keeps
every event as it was, verify_games and every replay's frames are the same after it, new games'
events land in partitions made ahead by the beat's function, and every partition refuses what the
log refuses."""

from __future__ import annotations

import random
import uuid
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from django.db import DatabaseError, connection, transaction
from django.test import override_settings

from bench.event_log import OLD, PARTITIONED, migrate_log_layout
from games.frames import ALL, build_frames
from games.models import Game, GameStatus
from games.partitions import event_log_partitions, event_log_partitions_ensure
from replays.selectors import game_events, seat_names
from tests.factories import finished_game, play_out, start_table

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's partitioned tables"),
]

BEFORE, AFTER = OLD, PARTITIONED


def _migrate(target: tuple[str, str]) -> None:
    migrate_log_layout(old=target == BEFORE)


@pytest.fixture
def small_partitions():
    """Partitions of 10 games, so that a test's games span several; the log is put back in the
    site's own shape afterwards (the next tests' games need the default headroom)."""
    with override_settings(EVENT_LOG_GAMES_PER_PARTITION=10, EVENT_LOG_PARTITIONS_AHEAD=2):
        yield
    _migrate(BEFORE)
    _migrate(AFTER)


def _rows() -> list[tuple[Any, ...]]:
    """Every event as stored, with the row's version (xmin) and place (ctid): a row rewritten or
    copied would change them."""
    with connection.cursor() as cur:
        cur.execute(
            "SELECT id, game_id, seq, type, version, payload::text, created_at, actor_id, xmin::text, "
            "ctid::text FROM games_gameevent ORDER BY id"
        )
        return cur.fetchall()


def _verify() -> str:
    out = StringIO()
    call_command("verify_games", stdout=out)
    return out.getvalue()


def _frames() -> dict[int, Any]:
    return {g.pk: build_frames(game_events(g), seat_names(g), ALL) for g in Game.objects.order_by("pk")}


def _partition_of(game: Game) -> str:
    with connection.cursor() as cur:
        cur.execute(
            "SELECT DISTINCT tableoid::regclass::text FROM games_gameevent WHERE game_id = %s", [game.pk]
        )
        return ",".join(sorted(row[0] for row in cur.fetchall()))


def test_the_conversion_keeps_every_event_and_new_games_go_to_new_partitions(make_user, small_partitions):
    _migrate(BEFORE)
    people = [make_user(), make_user()]
    finished = [finished_game(people, seed=seed) for seed in (1, 2)]
    running = play_out(start_table(people), random.Random(3), moves=6)
    assert running.status == GameStatus.RUNNING and all(g.status == GameStatus.FINISHED for g in finished)
    rows, verified, frames = _rows(), _verify(), _frames()

    _migrate(AFTER)

    assert _rows() == rows, "an event was copied, rewritten or lost"
    assert _verify() == verified
    assert _frames() == frames
    names = [name for name, _ in event_log_partitions()]
    assert names[0] == "games_gameevent_before" and len(names) == 1 + 2
    assert {_partition_of(g) for g in [*finished, running]} == {"games_gameevent_before"}

    # The running game goes on in its partition; new games land in the partitions made ahead.
    play_out(Game.objects.get(pk=running.pk), random.Random(4), moves=3)
    assert _partition_of(running) == "games_gameevent_before"
    for _ in range(10):  # past the converted log's last game id range
        start_table(people)
    newer = finished_game(people, seed=5)
    assert _partition_of(newer).startswith("games_gameevent_g")
    assert "broken" not in _verify()


def test_the_beat_makes_partitions_ahead_of_the_newest_game(make_user, small_partitions):
    _migrate(BEFORE)
    _migrate(AFTER)
    made_at_first = len(event_log_partitions())
    assert event_log_partitions_ensure() == 0, "nothing to make while the headroom holds"
    people = [make_user(), make_user()]
    for _ in range(12):  # more games than one partition holds
        start_table(people)
    assert event_log_partitions_ensure() >= 1
    assert len(event_log_partitions()) > made_at_first
    assert event_log_partitions_ensure() == 0
    newest = Game.objects.order_by("-pk").first()
    play_out(newest, random.Random(7), moves=2)
    assert _partition_of(newest).startswith("games_gameevent_g")


def test_every_partition_refuses_what_the_log_refuses(make_user):
    game = finished_game([make_user(), make_user()], seed=8)
    partition = _partition_of(game)
    for statement in (
        f"UPDATE {partition} SET type = 'Forged' WHERE game_id = %s",
        f"DELETE FROM {partition} WHERE game_id = %s",
        f"TRUNCATE {partition}",
    ):
        with (
            pytest.raises(DatabaseError, match="game events are append-only"),
            transaction.atomic(),
            connection.cursor() as cur,
        ):
            cur.execute(statement, [game.pk] if "%s" in statement else None)
    for name, _ in event_log_partitions():
        with (
            pytest.raises(DatabaseError, match="TRUNCATE refused"),
            transaction.atomic(),
            connection.cursor() as cur,
        ):
            cur.execute(f"TRUNCATE {name}")


def test_the_application_role_reaches_partitions_only_through_the_log(make_user):
    game = finished_game([make_user(), make_user()], seed=9)
    partition = _partition_of(game)
    role = f"harehra_app_{uuid.uuid4().hex[:8]}"
    call_command("grant_app_role", role, create=True, stdout=StringIO())
    try:
        with transaction.atomic(), connection.cursor() as cur:
            cur.execute(f'SET LOCAL ROLE "{role}"')
            cur.execute("SELECT count(*) FROM games_gameevent WHERE game_id = %s", [game.pk])
            assert cur.fetchone()[0] > 0
            cur.execute("SELECT games_gameevent_make_partitions(50000, 4)")
            for forbidden in (
                f"SELECT count(*) FROM {partition}",
                f"INSERT INTO {partition} SELECT * FROM {partition}",
            ):
                cur.execute("SAVEPOINT probe")
                with pytest.raises(DatabaseError, match="permission denied"):
                    cur.execute(forbidden)
                cur.execute("ROLLBACK TO SAVEPOINT probe")
    finally:
        with connection.cursor() as cur:
            cur.execute("RESET ROLE")
            cur.execute(f'DROP OWNED BY "{role}"')
            cur.execute(f'DROP ROLE "{role}"')
