"""What follows a write to a game's log: a bot's move and the game's countdown, armed after commit.

A bot's move is two tasks: it thinks at once (`bot_think`, sent when its decision becomes due) and
moves at its time (`bot_play`, an ETA task carrying the chosen command and the seq it was chosen
at), so a hard bot's search runs during the delay, not after it.

Tasks are sent by name, so the services that arm them never import `games.tasks`: tasks import
services, never the other way round.
"""

from __future__ import annotations

from datetime import datetime, timedelta

# The project's Celery app (harehra_site/celery.py, made current when Django loads harehra_site):
# tasks are sent through it by name, without importing the composition root.
from celery import current_app as app
from django.conf import settings
from django.db import transaction
from django.utils import timezone

from plumbing import clock

from .models import Game, GameStatus

BOT_THINK_TASK = "games.tasks.bot_think"
BOT_PLAY_TASK = "games.tasks.bot_play"
DEADLINE_TASK = "games.tasks.deadline_expire"
CHECK_AWAY_TASK = "games.tasks.check_away"
SLOW_DEADLINE_TASK = "games.tasks.slow_deadline"


def timer_to_arm(game: Game) -> datetime | None:
    """The moment a new countdown task must fire for the game's deadline, or None if one is armed.

    A game keeps one countdown task pending, not one per decision: a deadline no earlier than the
    pending task's needs none (the task re-arms itself when it finds the game moved on), so a game
    where moves come every second costs a task per timer period, not per move.
    """
    deadline = game.deadline_at
    if deadline is None:
        return None
    armed = game.timer_armed_for
    if armed is not None and timezone.now() < armed <= deadline:
        return None
    return deadline


def followups_arm(game: Game, *, bot_to_move: bool) -> None:
    """Once committed: wake the bot if one must move, and make sure a countdown covers the deadline.

    Sets `game.timer_armed_for` when a countdown is armed: call it before the game row is written.
    """
    if game.slow:
        _slow_wake_set(game, bot_to_move=bot_to_move)
        if bot_to_move and game.status == GameStatus.RUNNING and game.awaiting_seat is not None:
            game_id, seq = game.pk, game.last_seq
            transaction.on_commit(lambda: followups_send(game_id, seq, bot_to_move=True, timer_at=None))
        return
    if game.status != GameStatus.RUNNING or game.awaiting_seat is None:
        return
    timer_at = timer_to_arm(game)
    if timer_at is not None:
        game.timer_armed_for = timer_at
    game_id, seq = game.pk, game.last_seq
    if bot_to_move or timer_at is not None:
        transaction.on_commit(
            lambda: followups_send(game_id, seq, bot_to_move=bot_to_move, timer_at=timer_at)
        )


def _slow_wake_set(game: Game, *, bot_to_move: bool) -> None:
    """A slow game's deadline is kept in PostgreSQL only (`Game.slow_deadline_at`, indexed), never
    as a countdown task: with the Redis broker a task whose ETA lies beyond the visibility timeout
    is delivered again and again, and a slow game's deadline lies hours or days ahead. The beat's
    sweep picks the due ones (games/services/autoplay.py, slow_due_claim) and hands each to its
    own task (`followups_slow_deadline`). A bot to move still gets its
    wake-up task (a second's ETA); the sweep looks again BOT_DELAY + BOT_OVERDUE seconds later
    in case that task is lost, as `overdue_bot_moves` does for live games."""
    if game.status != GameStatus.RUNNING or game.awaiting_seat is None or game.deadline_at is None:
        game.slow_deadline_at = None
        return
    wake = game.deadline_at
    if bot_to_move:
        lost_after = timedelta(seconds=settings.BOT_DELAY_SECONDS + settings.BOT_OVERDUE_SECONDS)
        wake = min(wake, clock.now() + lost_after)
    game.slow_deadline_at = wake
    game.timer_armed_for = None


def followups_send(game_id: int, seq: int, *, bot_to_move: bool, timer_at: datetime | None) -> None:
    """Send the tasks for the decision awaited at `seq`; each is a no-op once the game moves on."""
    if bot_to_move:
        # Sent now: the bot thinks during its delay and its move is armed for `due`
        # (games/services/autoplay.py, game_bot_think).
        due = timezone.now() + timedelta(seconds=settings.BOT_DELAY_SECONDS)
        app.signature(BOT_THINK_TASK, args=(game_id, seq, due.isoformat())).apply_async()
    if timer_at is not None:
        app.signature(DEADLINE_TASK, args=(game_id, seq, timer_at.isoformat())).apply_async(eta=timer_at)


def followups_bot_play(game_id: int, seq: int, seat: int, command: dict[str, object], due: datetime) -> None:
    """A bot's chosen move, played at `due` if the game is still at `seq` (the seq it was chosen at).

    An ETA task: the worker holds it until its time (the embedded worker's timer thread, a Redis
    worker's event loop) without taking a thread of its pool meanwhile."""
    app.signature(BOT_PLAY_TASK, args=(game_id, seq, seat, command, due.isoformat())).apply_async(eta=due)


def followups_check_away(game_id: int, seat: int, *, countdown: float) -> None:
    """Look again once the grace period is over: is the seat's person still gone?"""
    app.signature(CHECK_AWAY_TASK, args=(game_id, seat)).apply_async(countdown=countdown)


def followups_slow_deadline(game_id: int, seq: int, due: datetime) -> None:
    """A slow game's due deadline, applied by its own task if the game is still at `seq`."""
    app.signature(SLOW_DEADLINE_TASK, args=(game_id, seq, due.isoformat())).apply_async()
