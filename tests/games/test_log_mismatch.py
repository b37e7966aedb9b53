"""A game whose log does not end where its row says: every command gets a clear error with a
stable code (never a 500), nothing is written, the sweep reports it, and a moderator can end it
without touching its log. Every API error, a 500 included, is JSON."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.utils import timezone

from games.models import CommandRecord, Game, GameEvent, GameFault, GameSeat
from games.services.autoplay import game_bot_move, game_deadline_expire
from games.services.moves import LogMismatch
from games.tasks import sweep_deadlines
from moderation.models import AuditEntry
from moderation.services import game_abort
from tests.factories import seated_game, send
from tests.moderation.conftest import make_moderator

pytestmark = pytest.mark.django_db


@pytest.fixture
def broken(make_user: Callable[..., Any], client_for: Callable[[Any], Any]) -> dict[str, Any]:
    """A running game with a row written at last_seq + 1 behind its row's back."""
    users = [make_user(), make_user()]
    clients = [client_for(u) for u in users]
    game = Game.objects.get(pk=seated_game(clients))
    with connection.cursor() as cur:
        cur.execute(
            "INSERT INTO games_gameevent (game_id, seq, type, version, payload, created_at) "
            "VALUES (%s, %s, 'GameEnded', 1, %s, now())",
            [game.pk, game.last_seq + 1, json.dumps({"result": "win", "winner": 1})],
        )
    by_seat = {gs.seat: clients[[u.pk for u in users].index(gs.user_id)] for gs in game.game_seats.all()}
    return {"game": game, "clients": by_seat, "users": users}


def _log(game: Game) -> list[tuple[int, str]]:
    return list(GameEvent.objects.filter(game=game).order_by("seq").values_list("seq", "type"))


def test_a_command_gets_log_mismatch_and_writes_nothing(broken: dict[str, Any]) -> None:
    game = broken["game"]
    before = _log(game)
    mover = broken["clients"][game.awaiting_seat]
    r = send(mover, game.pk, {"burn": None})
    assert r.status_code == 409 and r["Content-Type"] == "application/json"
    assert r.json()["code"] == "log_mismatch" and "moderators" in r.json()["detail"]
    assert _log(game) == before and not CommandRecord.objects.filter(game=game).exists()
    assert Game.objects.get(pk=game.pk).last_seq == game.last_seq


def test_a_timer_or_a_bot_on_it_is_refused_too(broken: dict[str, Any]) -> None:
    game = broken["game"]
    Game.objects.filter(pk=game.pk).update(deadline_at=timezone.now() - timedelta(seconds=1))
    with pytest.raises(LogMismatch):
        game_deadline_expire(game_id=game.pk, guard_seq=game.last_seq)
    before = _log(game)
    GameSeat.objects.filter(game=game, seat=game.awaiting_seat).update(bot_playing=True)
    assert game_bot_move(game_id=game.pk, guard_seq=game.last_seq) is None  # refused, logged
    assert _log(game) == before


def test_racing_commands_see_the_log_their_lock_holder_wrote(broken: dict[str, Any]) -> None:
    """The log's end is read after the lock (a statement begun while waiting for the lock would
    not see what its holder committed): a healthy game is never taken for a damaged one."""
    from games.sql import log_end, move_read

    game = broken["game"]
    assert log_end(game.pk) == game.last_seq + 1
    assert move_read(game.pk, None, "x").log_seq == game.last_seq + 1


def test_readers_stop_where_the_row_says_the_log_ends(broken: dict[str, Any]) -> None:
    game = broken["game"]
    events = broken["clients"][0].get(f"/api/games/{game.pk}/events/").json()
    assert max(e["seq"] for e in events["events"]) == game.last_seq


def test_the_sweep_sets_it_aside_and_a_moderator_aborts_it_leaving_the_log(
    broken: dict[str, Any], make_user: Callable[..., Any]
) -> None:
    game = broken["game"]
    sweep_deadlines()
    assert GameFault.objects.get(game=game).set_aside_at is not None
    before = _log(game)
    moderator = make_moderator(make_user)
    seq = game_abort(moderator=moderator, game=game, reason="its log is damaged")
    game.refresh_from_db()
    assert seq == game.last_seq and game.status == "aborted" and game.deadline_at is None
    assert _log(game) == before  # not one row added, changed or removed
    assert AuditEntry.objects.filter(action="abort", target_id=str(game.pk)).count() == 1
    r = send(broken["clients"][0], game.pk, {"burn": None})
    assert r.status_code == 409 and r.json()["code"] == "game_over"


def test_an_unexpected_error_under_api_is_json(monkeypatch: pytest.MonkeyPatch, settings: Any) -> None:
    settings.DEBUG = False

    def broken_selector(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("a bug")

    monkeypatch.setattr("ratings.api.leaderboard", broken_selector)
    r = Client(raise_request_exception=False).get("/api/ratings/leaderboard/")
    assert r.status_code == 500 and r["Content-Type"] == "application/json"
    assert r.json() == {
        "code": "server_error",
        "detail": "something went wrong on our side; it has been logged",
    }
    monkeypatch.setattr("ratings.views.leaderboard", broken_selector)
    page = Client(raise_request_exception=False).get("/leaderboard/")  # a page keeps its error page
    assert page.status_code == 500 and page["Content-Type"].startswith("text/html")
