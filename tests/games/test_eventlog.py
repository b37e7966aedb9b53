"""The log is append-only in the database itself, and snapshots are checked against it."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.db import DatabaseError, connection, transaction

from games.eventlog import fold_from_log, forget_states, load_state
from games.models import Game, GameEvent, GameSnapshot
from tests.factories import seated_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(make_user, client_for):
    clients = [client_for(make_user()) for _ in range(2)]
    return Game.objects.get(pk=seated_game(clients))


def test_update_of_an_event_is_refused_by_the_database(game):
    event = GameEvent.objects.filter(game=game).first()
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        GameEvent.objects.filter(pk=event.pk).update(payload={"forged": True})
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic(), connection.cursor() as cur:
        cur.execute("UPDATE games_gameevent SET type = 'Forged' WHERE id = %s", [event.pk])
    event.refresh_from_db()
    assert event.type == "GameStarted"


def test_delete_of_an_event_is_refused_by_the_database(game):
    count = GameEvent.objects.filter(game=game).count()
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        GameEvent.objects.filter(game=game).delete()
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic(), connection.cursor() as cur:
        cur.execute("DELETE FROM games_gameevent WHERE game_id = %s", [game.pk])
    assert GameEvent.objects.filter(game=game).count() == count


def test_verify_games_reports_a_tampered_snapshot(game, capsys):
    call_command("verify_games")
    assert "0 with problems" in capsys.readouterr().out
    snap = GameSnapshot.objects.get(game=game)
    state = snap.state
    state["damage"][0] = 4
    GameSnapshot.objects.filter(pk=snap.pk).update(state=state)
    with pytest.raises(SystemExit) as exit_info:
        call_command("verify_games")
    assert exit_info.value.code == 1
    out = capsys.readouterr().out
    assert f"game {game.pk}: its snapshot at seq" in out and "differs from its log" in out


def test_a_snapshot_of_an_older_version_is_refolded_not_read(game, capsys):
    snap = GameSnapshot.objects.get(game=game)
    state = snap.state
    del state["drawn_since_volley_taken"], state["drawn_since_skip_taken"]
    state["damage"][0] = 4  # whatever an old snapshot says, it is not read
    GameSnapshot.objects.filter(pk=snap.pk).update(state=state)
    forget_states()
    assert load_state(Game.objects.get(pk=game.pk)) == fold_from_log(game)
    call_command("verify_games")
    assert "0 with problems" in capsys.readouterr().out


def test_a_process_that_has_not_held_the_game_starts_from_its_snapshot(game):
    """What a process that never held the game (a server just started, taking a restarted one's
    pages) reads: the snapshot, then the events after it. A current snapshot is taken as it is
    (verify_games is what checks it), so a marked one shows it was read."""
    snap = GameSnapshot.objects.get(game=game)
    assert snap.seq == game.last_seq
    state = snap.state
    state["damage"][0] = 3
    GameSnapshot.objects.filter(pk=snap.pk).update(state=state)
    forget_states()
    assert load_state(Game.objects.get(pk=game.pk)).damage[0] == 3
    assert fold_from_log(game).damage[0] != 3
