"""A killed worker loses no bot move for long: the sweep moves bots whose wake-up never came,
and tasks are acknowledged late and given back if their worker dies."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from games.models import Game, GameEvent, GameSeat
from games.services.seats import seat_hand_to_bot
from games.services.tables import TableSettings, table_add_bot, table_create, table_start
from games.tasks import sweep_deadlines
from harehra_site.celery import app

pytestmark = pytest.mark.django_db


def test_tasks_survive_a_dead_worker() -> None:
    assert app.conf.task_acks_late is True
    assert app.conf.task_reject_on_worker_lost is True


def test_the_sweep_moves_a_bot_whose_wake_up_was_lost(make_user: Callable[..., Any], settings: Any) -> None:
    settings.BOT_DELAY_SECONDS = 0
    settings.BOT_OVERDUE_SECONDS = 0
    host = make_user()
    table = table_create(host=host, settings=TableSettings(seats=2))
    table_add_bot(table=table, user=host)
    game = table_start(table=table, user=host)
    seat_hand_to_bot(game=game, seat=0, reason="away")  # every seat a bot: all moves are theirs
    # No worker runs in this test: every bot wake-up sent after these writes is lost.
    before = Game.objects.get(pk=game.pk).last_seq
    sweep_deadlines()
    game.refresh_from_db()
    assert game.last_seq > before
    after = GameEvent.objects.filter(game=game, seq__gt=before).order_by("seq")
    moved = list(after.values_list("type", "actor_id"))
    # The first seat's opening turn, played by its bot (no person is the actor).
    assert moved[0][0] in ("CardsPlayed", "CardBurned") and {actor for _, actor in moved} == {None}, moved
    sweep_deadlines()
    assert Game.objects.get(pk=game.pk).last_seq > game.last_seq or game.status != "running"
    assert GameSeat.objects.filter(game=game, bot_playing=True).count() == 2
