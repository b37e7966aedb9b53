"""The beat's sweep does each game's work on its own: one game that fails (a damaged log, a row
that makes its timeout raise) is counted and set aside, and every other game's timeout, lost bot
move and presence repair still happens, sweep after sweep."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.core.cache import cache
from django.db import connection
from django.utils import timezone

from games.models import Game, GameEvent, GameFault, GameSeat
from games.services.faults import SET_ASIDE_AFTER, games_set_aside
from games.services.presence import presence_connect
from games.services.seats import seat_hand_to_bot
from games.services.tables import TableSettings, table_add_bot, table_create, table_join, table_start
from games.tasks import sweep_deadlines
from tests.moderation.conftest import make_moderator

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _quick(settings: Any) -> None:
    settings.BOT_DELAY_SECONDS = 0
    settings.BOT_OVERDUE_SECONDS = 0
    settings.AWAY_GRACE_SECONDS = 60
    settings.PRESENCE_LEASE_SECONDS = 30


def _people_game(make_user: Callable[..., Any]) -> Game:
    users = [make_user(), make_user()]
    table = table_create(host=users[0], settings=TableSettings(seats=2))
    table_join(table=table, user=users[1])
    return table_start(table=table, user=users[0])


def _bots_game(make_user: Callable[..., Any]) -> Game:
    host = make_user()
    table = table_create(host=host, settings=TableSettings(seats=2))
    table_add_bot(table=table, user=host)
    game = table_start(table=table, user=host)
    seat_hand_to_bot(game=game, seat=0, reason="away")  # every seat a bot; no worker: wake-ups lost
    return game


def _expire(game: Game, seconds_ago: float) -> None:
    Game.objects.filter(pk=game.pk).update(deadline_at=timezone.now() - timedelta(seconds=seconds_ago))


def _orphan_row(game: Game) -> int:
    """A row written at the log's next seq behind the game row's back (the probe's way in)."""
    seq = Game.objects.get(pk=game.pk).last_seq + 1
    with connection.cursor() as cur:
        cur.execute(
            "INSERT INTO games_gameevent (game_id, seq, type, version, payload, created_at) "
            "VALUES (%s, %s, 'CardBurned', 1, %s, now())",
            [game.pk, seq, json.dumps({"seat": 0, "card": "hare_cumi"})],
        )
    return seq


def _seq(game: Game) -> int:
    return Game.objects.get(pk=game.pk).last_seq


def test_one_failing_game_stops_no_other_games_work(make_user: Callable[..., Any]) -> None:
    broken = _people_game(make_user)
    _expire(broken, 60)  # the oldest deadline: the first game the sweep takes
    orphan = _orphan_row(broken)
    timed_out = _people_game(make_user)
    _expire(timed_out, 1)
    bots = _bots_game(make_user)
    gone = _people_game(make_user)
    presence_connect(game_id=gone.pk, seat=0)  # a socket that ended unseen 65 s ago
    cache.set(f"seat-seen:{gone.pk}:0", time.time() - 65, 600)
    before = {g.pk: _seq(g) for g in (broken, timed_out, bots)}

    sweep_deadlines()

    assert _seq(timed_out) > before[timed_out.pk]  # its timeout applied
    assert _seq(bots) > before[bots.pk]  # its lost bot move made
    row = GameSeat.objects.get(game=gone, seat=0)
    assert row.connections == 0 and row.bot_playing  # its presence repaired, its seat handed over
    # The broken game: set aside at once (its log can never be appended to), nothing written.
    assert _seq(broken) == before[broken.pk] == orphan - 1
    assert GameEvent.objects.filter(game=broken).order_by("-seq").values_list("seq", flat=True)[0] == orphan
    fault = GameFault.objects.get(game=broken)
    assert fault.set_aside_at is not None and fault.stage == "log"
    assert f"ends at seq {orphan}" in fault.error
    # The sweeps after it go on the same way and leave the set-aside game alone.
    for _ in range(3):
        at = _seq(bots)
        sweep_deadlines()
        assert _seq(bots) > at or Game.objects.get(pk=bots.pk).status != "running"
    fault.refresh_from_db()
    assert fault.failures == 1 and [f.game_id for f in games_set_aside()] == [broken.pk]


def test_a_game_that_keeps_failing_is_counted_then_set_aside(make_user: Callable[..., Any]) -> None:
    failing = _people_game(make_user)
    # Its row names an awaited seat the game does not have: every timeout of it raises.
    Game.objects.filter(pk=failing.pk).update(awaiting_seat=5)
    _expire(failing, 60)
    others = [_people_game(make_user) for _ in range(SET_ASIDE_AFTER + 1)]
    for n, game in enumerate(others, start=1):
        _expire(game, 1)
        sweep_deadlines()
        assert _seq(game) > game.last_seq  # each sweep still applies the other games' timeouts
        fault = GameFault.objects.get(game=failing)
        assert fault.failures == min(n, SET_ASIDE_AFTER) and fault.stage == "deadline"
        assert (fault.set_aside_at is not None) == (n >= SET_ASIDE_AFTER)
    assert "DoesNotExist" in fault.error
    assert _seq(failing) == failing.last_seq


def test_a_success_clears_a_games_count(make_user: Callable[..., Any]) -> None:
    game = _people_game(make_user)
    seat = game.awaiting_seat
    Game.objects.filter(pk=game.pk).update(awaiting_seat=5)
    _expire(game, 1)
    sweep_deadlines()
    assert GameFault.objects.get(game=game).failures == 1
    Game.objects.filter(pk=game.pk).update(awaiting_seat=seat)  # whatever made it fail is gone
    sweep_deadlines()
    assert _seq(game) > game.last_seq and not GameFault.objects.filter(game=game).exists()


def test_moderators_are_told_in_their_report_queue(make_user: Callable[..., Any], client_for: Any) -> None:
    broken = _people_game(make_user)
    _orphan_row(broken)
    sweep_deadlines()
    moderator = make_moderator(make_user)
    client = client_for(moderator)
    client.force_login(moderator)
    page = client.get("/admin/moderation/report/?status__exact=open")
    assert page.status_code == 200
    assert "1 running game(s) keep failing and wait for a moderator" in page.content.decode()
    listed = client.get("/admin/moderation/moderatedgame/?set_aside=yes").content.decode()
    assert f"/admin/moderation/moderatedgame/{broken.pk}/change/" in listed
