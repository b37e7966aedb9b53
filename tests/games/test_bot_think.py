"""A bot thinks as soon as its decision is due and moves when its delay is over: a hard bot
whose search started only then would move 150-300 ms after its delay.

Through the memory broker the embedded worker reads (in the tests nothing reads it): the tasks as
they are sent, with their ETAs; then each task's body runs as a worker would run it."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest
from django.db import transaction
from django.utils import timezone

from bench.kit.broker import tasks_sent
from games import tasks
from games.eventlog import load_state
from games.models import Game, GameSeat
from games.services import autoplay
from games.services.autoplay import game_bot_choose, game_bot_play
from games.services.moves import game_command_submit
from games.services.seats import seat_hand_to_bot
from harehra import legal_commands, view_for
from harehra_site.celery import app
from tests.factories import start_table

pytestmark = pytest.mark.django_db
LONG = {"turn_timer": 600, "reaction_timer": 600, "discard_timer": 600}


@pytest.fixture
def sent() -> Any:
    assert app.conf.broker_url == "memory://localhost/"  # the embedded worker's broker, in this process
    tasks_sent()  # what earlier tests left
    return lambda task: [t for t in tasks_sent() if t.task.startswith(task)]


@pytest.fixture
def bot_due(make_user, settings, sent, django_capture_on_commit_callbacks) -> tuple[Game, int]:
    """A person and a hard bot; the person has just moved and made the bot's decision due (the
    move's follow-ups sent, as after its commit). The bot's seat."""
    settings.BOT_DELAY_SECONDS = 600  # its time is far off whatever this test's speed
    for _deal in range(5):  # a deal whose game ends before the bot is due after a move: another
        found = _bot_due_after_a_move(make_user, django_capture_on_commit_callbacks)
        if found is not None:
            return found
    raise AssertionError("the bot's decision never came after the person's move")


def _bot_due_after_a_move(make_user: Any, capture: Any) -> tuple[Game, int] | None:
    person = make_user()
    game = start_table([person], bots=1, **LONG)
    bot = GameSeat.objects.get(game=game, user__isnull=True)
    GameSeat.objects.filter(pk=bot.pk).update(bot_level="hard")
    for n in range(200):
        game = Game.objects.get(pk=game.pk)
        if game.status != "running":
            return None
        if game.awaiting_seat == bot.seat:
            autoplay.game_bot_move(game_id=game.pk, guard_seq=game.last_seq)
            continue
        legal = legal_commands(load_state(game), game.awaiting_seat)
        if not legal:
            return None
        command = {k: v for k, v in legal[0].items() if k != "seat"}
        with capture(execute=True):
            game_command_submit(game=game, user=person, command=command, client_cmd_id=f"t{n}")
        game = Game.objects.get(pk=game.pk)
        if game.awaiting_seat == bot.seat and game.status == "running":
            return game, bot.seat
    return None


def test_a_bot_thinks_as_soon_as_its_decision_is_due_and_moves_when_its_delay_is_over(
    bot_due, sent, monkeypatch, django_capture_on_commit_callbacks
):
    game, seat = bot_due
    seq = game.last_seq
    # The move sent the bot's thinking to run now, not at the end of its delay.
    bot_tasks = sent("games.tasks.bot_")
    assert [(t.task, t.eta) for t in bot_tasks] == [("games.tasks.bot_think", None)]
    think = bot_tasks[0]
    assert think.args[:2] == [game.pk, seq]
    due = datetime.fromisoformat(think.args[2])
    assert due - timezone.now() > timedelta(seconds=500)  # BOT_DELAY_SECONDS from the move

    seen: list[tuple[str, dict[str, Any]]] = []
    real_think = autoplay.think
    monkeypatch.setattr(
        autoplay,
        "think",
        lambda level, view, legal: seen.append((level, view)) or real_think(level, view, legal),
    )
    tasks.bot_think(*think.args)
    # It chose from its own seat's view at the seq it was due at, and has not moved yet ...
    assert seen == [("hard", view_for(load_state(game), seat))]
    assert Game.objects.get(pk=game.pk).last_seq == seq
    # ... its move waits for its time, carrying the command and the seq it was chosen at.
    [play] = sent(tasks.bot_play.name)
    assert play.eta == due
    assert play.args[:3] == [game.pk, seq, seat]
    command = play.args[3]
    assert command in legal_commands(load_state(game), seat)
    assert not sent(tasks.bot_play.name)

    with django_capture_on_commit_callbacks(execute=True):
        tasks.bot_play(*play.args)
    moved = Game.objects.get(pk=game.pk)
    assert moved.last_seq > seq
    # The same task again (a duplicate, a redelivery) finds the game moved on: nothing changes.
    tasks.bot_play(*play.args)
    assert Game.objects.get(pk=game.pk).last_seq == moved.last_seq


def test_a_move_chosen_before_the_game_moved_on_is_refused(bot_due):
    game, seat = bot_due
    seq = game.last_seq
    choice = game_bot_choose(game_id=game.pk, guard_seq=seq)
    assert choice is not None and choice.seat == seat
    person = GameSeat.objects.get(game=game, user__isnull=False).seat
    with transaction.atomic():  # meanwhile the person's seat goes to a bot: a new event
        assert seat_hand_to_bot(game=game, seat=person, reason="away")
    assert game_bot_play(game_id=game.pk, guard_seq=seq, choice=choice) is None
    assert Game.objects.get(pk=game.pk).last_seq == seq + 1


def test_a_bot_that_thought_past_its_time_moves_at_once(bot_due, sent):
    game, _ = bot_due
    seq = game.last_seq
    tasks.bot_think(game.pk, seq, (timezone.now() - timedelta(seconds=1)).isoformat())
    assert not sent(tasks.bot_play.name)  # nothing left to wait for
    moved = Game.objects.get(pk=game.pk)
    assert moved.last_seq > seq


def test_a_stale_thinking_task_chooses_nothing(bot_due, sent, monkeypatch):
    game, _ = bot_due
    monkeypatch.setattr(autoplay, "think", lambda *a: pytest.fail("a stale task must not think"))
    tasks.bot_think(game.pk, game.last_seq - 1, (timezone.now() + timedelta(seconds=60)).isoformat())
    assert not sent(tasks.bot_play.name)
    assert Game.objects.get(pk=game.pk).last_seq == game.last_seq
