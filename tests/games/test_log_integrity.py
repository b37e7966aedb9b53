"""A log no one can rewrite: verify_games checks every event by the rules and the row against
the log; TRUNCATE is refused by trigger; the application's own role may only read and append."""

from __future__ import annotations

import json
import uuid

import pytest
from django.core.management import call_command
from django.db import DatabaseError, connection, transaction

from games.models import Game, GameEvent, GameSeat
from games.services.seats import seat_hand_to_bot
from games.tasks import sweep_deadlines
from plumbing.append_only import APPEND_ONLY_LOGS
from tests.factories import seated_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(make_user, client_for):
    clients = [client_for(make_user()) for _ in range(2)]
    return Game.objects.get(pk=seated_game(clients))


def _verify(capsys) -> tuple[int, str]:
    try:
        call_command("verify_games")
        code = 0
    except SystemExit as e:
        code = int(e.code or 0)
    return code, capsys.readouterr().out


def test_a_game_played_to_its_end_verifies_clean(game, settings, capsys):
    settings.BOT_DELAY_SECONDS = 0
    settings.BOT_OVERDUE_SECONDS = 0
    for seat in (0, 1):
        seat_hand_to_bot(game=game, seat=seat, reason="away")
    for _ in range(2000):
        sweep_deadlines()  # moves every bot whose wake-up never came (no worker runs here)
        game.refresh_from_db()
        if game.status != "running":
            break
    assert game.status == "finished"
    assert _verify(capsys) == (0, "1 games checked, 0 with problems\n")


def test_a_forged_game_ended_inserted_by_hand_is_found(game, capsys):
    assert _verify(capsys)[0] == 0
    seq = game.last_seq + 1
    with connection.cursor() as cur:  # as someone with the database's password would
        cur.execute(
            "INSERT INTO games_gameevent (game_id, seq, type, version, payload, created_at) "
            "VALUES (%s, %s, 'GameEnded', 1, %s, now())",
            [game.pk, seq, json.dumps({"result": "win", "winner": 1})],
        )
    Game.objects.filter(pk=game.pk).update(last_seq=seq, status="finished", result="win", winner_seat=1)
    code, out = _verify(capsys)
    assert code == 1 and f"game {game.pk}: its log breaks the rules at seq {seq}" in out


@pytest.mark.django_db(transaction=True)
def test_truncate_is_refused_even_for_the_owner(game):
    for table, what in APPEND_ONLY_LOGS.items():
        with (
            pytest.raises(DatabaseError, match=f"{what} append-only: TRUNCATE refused"),
            transaction.atomic(),
            connection.cursor() as cur,
        ):
            cur.execute(f"TRUNCATE {table} CASCADE")
    assert GameEvent.objects.filter(game=game).exists()


def test_the_application_role_may_read_and_append_the_logs_only(game):
    role = f"harehra_app_{uuid.uuid4().hex[:8]}"
    call_command("grant_app_role", role, create=True)
    try:
        with transaction.atomic(), connection.cursor() as cur:
            cur.execute(f'SET LOCAL ROLE "{role}"')
            cur.execute("SELECT count(*) FROM games_gameevent")
            cur.execute("UPDATE games_gameseat SET missed_deadlines = 0 WHERE game_id = %s", [game.pk])
            for forbidden in (
                "UPDATE games_gameevent SET type = 'Forged'",
                "DELETE FROM games_gameevent",
                "TRUNCATE games_gameevent",
                "UPDATE moderation_auditentry SET reason = 'x'",
                "TRUNCATE chat_chatmessage",
                "DELETE FROM chat_chatmessage",
                "ALTER TABLE games_gameevent DISABLE TRIGGER ALL",
                "SET session_replication_role = replica",
            ):
                cur.execute("SAVEPOINT probe")
                with pytest.raises(DatabaseError):
                    cur.execute(forbidden)
                cur.execute("ROLLBACK TO SAVEPOINT probe")
        assert GameSeat.objects.filter(game=game).count() == 2
    finally:
        with connection.cursor() as cur:
            cur.execute("RESET ROLE")  # SET LOCAL lasts as long as the test's own transaction
            cur.execute(f'DROP OWNED BY "{role}"')
            cur.execute(f'DROP ROLE "{role}"')
