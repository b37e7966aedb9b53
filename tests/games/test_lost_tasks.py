"""A killed worker loses no bot move for long: the sweep moves bots whose wake-up never came,
and tasks are acknowledged late and given back if their worker dies."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from importlib import reload
from typing import Any

import pytest
from django.conf import settings as site_settings
from django.utils import timezone

from analysis.models import AnalysisRequest, GameAnalysis
from analysis.tasks import analyse_game
from games.models import Game, GameEvent, GameSeat
from games.services.autoplay import game_bot_choose
from games.services.seats import seat_hand_to_bot
from games.services.tables import (
    TABLE_LIMITS,
    TableSettings,
    table_add_bot,
    table_create,
    table_join,
    table_start,
)
from games.tasks import bot_move, bot_play, bot_think, deadline_expire, sweep_deadlines
from harehra_site.celery import app
from tests.factories import finished_game

pytestmark = pytest.mark.django_db


def test_tasks_survive_a_dead_worker() -> None:
    assert app.conf.task_acks_late is True
    assert app.conf.task_reject_on_worker_lost is True


def test_the_visibility_timeout_outlasts_every_wait_in_a_live_workers_hands(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """harehra_site/settings.py: a task still waiting in a live worker must not be handed out
    again, so the timeout is longer than the longest countdown and away check (with Redis; the
    memory broker of the embedded server has none)."""
    import harehra_site.settings as site

    monkeypatch.setenv("REDIS_URL", "redis://127.0.0.1:1/0")
    try:
        timeout = reload(site).CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"]
    finally:
        monkeypatch.undo()
        reload(site)
    longest_timer = max(TABLE_LIMITS[name].high for name in ("turn_timer", "reaction_timer", "discard_timer"))
    assert timeout > longest_timer + 60 and timeout > site_settings.AWAY_GRACE_SECONDS + 60
    assert timeout <= 3600 / 2  # deliberately shorter than kombu's hour


def _log(game: Game) -> list[tuple[int, str]]:
    return list(GameEvent.objects.filter(game=game).order_by("seq").values_list("seq", "type"))


def test_tasks_given_back_long_after_their_time_change_nothing(
    make_user: Callable[..., Any], settings: Any
) -> None:
    """A killed worker's tasks come back after the visibility timeout (tests/games/
    test_redelivery_servers.py), long after the sweep did their work: a deadline, a bot's thinking
    and move, an analysis each run again and change nothing."""
    settings.BOT_DELAY_SECONDS = 0
    settings.BOT_OVERDUE_SECONDS = 0
    settings.ANALYSIS_PLAYOUTS = 2
    long_ago = timezone.now() - timedelta(hours=1)

    people = [make_user(), make_user()]
    table = table_create(host=people[0], settings=TableSettings(seats=2))
    table_join(table=table, user=people[1])
    timed = table_start(table=table, user=people[0])
    seq = Game.objects.get(pk=timed.pk).last_seq
    Game.objects.filter(pk=timed.pk).update(deadline_at=long_ago)
    sweep_deadlines()
    done = _log(timed)
    assert done[-1][0] > seq
    deadline_expire(timed.pk, seq, long_ago.isoformat())
    assert _log(timed) == done

    host = make_user()
    table = table_create(host=host, settings=TableSettings(seats=2))
    table_add_bot(table=table, user=host)
    bots = table_start(table=table, user=host)
    seat_hand_to_bot(game=bots, seat=0, reason="away")  # no worker: every wake-up is lost
    seq = Game.objects.get(pk=bots.pk).last_seq
    choice = game_bot_choose(game_id=bots.pk, guard_seq=seq)
    assert choice is not None
    sweep_deadlines()
    done = _log(bots)
    assert done[-1][0] > seq
    bot_think(bots.pk, seq, long_ago.isoformat())
    bot_play(bots.pk, seq, choice.seat, choice.command, long_ago.isoformat())
    bot_move(bots.pk, seq, long_ago.isoformat())
    assert _log(bots) == done

    game = finished_game([make_user(), make_user()], seed=5)
    analyse_game(game.pk)
    made = list(GameAnalysis.objects.filter(game=game).values())
    asked = list(AnalysisRequest.objects.filter(game=game).values())
    analyse_game(game.pk)
    assert list(GameAnalysis.objects.filter(game=game).values()) == made
    assert list(AnalysisRequest.objects.filter(game=game).values()) == asked


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
