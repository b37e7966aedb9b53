"""Celery tasks stay thin: each wakes a service with the seq it was armed for."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any

from celery import shared_task
from django.utils import timezone

from plumbing import metrics

from .partitions import event_log_partitions_ensure as partitions_ensure
from .services.autoplay import BotChoice, game_bot_move, game_bot_play, game_bot_think, game_timer_fired
from .services.presence import seat_mark_away
from .services.sweep import slow_game_run, sweep_run
from .services.turns import decisions_tell, your_turn_sweep

log = logging.getLogger(__name__)


@contextmanager
def _moves_from(source: str) -> Iterator[None]:
    """The moves this task makes are timed from now (plumbing/metrics.py)."""
    token = metrics.move_origin_set(source)
    try:
        yield
    finally:
        metrics.move_origin_reset(token)


def _when(value: Any) -> datetime | None:
    """A task's scheduled time as Celery hands it over (an ISO string or a datetime), or None."""
    if isinstance(value, str):
        value = datetime.fromisoformat(value)
    if not isinstance(value, datetime):
        return None
    return value if timezone.is_aware(value) else timezone.make_aware(value, UTC)


def _late(task: str, scheduled: datetime | None) -> None:
    if scheduled is not None:
        metrics.task_late(task, (timezone.now() - scheduled).total_seconds())


@shared_task(ignore_result=True)
def bot_think(game_id: int, seq: int, due: str) -> None:
    """Sent as soon as a bot's decision is due: it thinks now and its move is armed for `due`."""
    when = _when(due) or timezone.now()
    choice = game_bot_think(game_id=game_id, guard_seq=seq, due=when)
    if choice is not None:  # it thought past its time: it moves now
        _late("bot", when)
        with _moves_from("bot"):
            game_bot_play(game_id=game_id, guard_seq=seq, choice=choice)


@shared_task(ignore_result=True)
def bot_play(game_id: int, seq: int, seat: int, command: dict[str, object], due: str) -> None:
    """A bot's move, chosen at `seq` by `bot_think`, at its time (`due`, the task's ETA)."""
    _late("bot", _when(due))  # due BOT_DELAY_SECONDS after the move before
    with _moves_from("bot"):
        game_bot_play(game_id=game_id, guard_seq=seq, choice=BotChoice(seat, command))


@shared_task(bind=True, ignore_result=True)
def bot_move(self: Any, game_id: int, seq: int, due: str | None = None) -> None:
    """A bot thinks and moves at once: what servers before bot_think sent, with a countdown (kept
    so that tasks queued by them still run during a rolling deploy)."""
    _late("bot", _when(due) or _when(self.request.eta))
    with _moves_from("bot"):
        game_bot_move(game_id=game_id, guard_seq=seq)


@shared_task(bind=True, ignore_result=True)
def deadline_expire(self: Any, game_id: int, seq: int, armed_for: str | None = None) -> None:
    when = _when(armed_for)
    _late("timer", when or _when(self.request.eta))
    with _moves_from("timer"):
        game_timer_fired(game_id=game_id, guard_seq=seq, armed_for=when)


@shared_task(ignore_result=True)
def sweep_deadlines() -> None:
    """The safety net under the countdown tasks, each game's work isolated (services/sweep.py)."""
    with _moves_from("sweep"):
        report = sweep_run()
    metrics.sweep_done(report.done, report.failed, report.unread, len(report.set_aside))
    if report.failed or report.unread:
        log.warning("sweep: %s", report.line())


@shared_task(ignore_result=True)
def slow_deadline(game_id: int, seq: int, due: str | None = None) -> None:
    """A slow game's deadline (or its bot's lost move), handed over by the sweep at `seq`."""
    _late("slow", _when(due))
    with _moves_from("sweep"):
        report = slow_game_run(game_id, seq)
    metrics.sweep_work(report.done, report.failed, len(report.set_aside))
    if report.failed:
        log.warning("slow deadline of game %s: %s", game_id, report.line())


@shared_task(ignore_result=True)
def event_log_partitions_ensure() -> None:
    """The event log's next partitions, made long before a game needs one (games/partitions.py)."""
    made = partitions_ensure()
    if made:
        log.info("event log: %d partitions made ahead", made)


@shared_task(ignore_result=True)
def check_away(game_id: int, seat: int) -> None:
    with _moves_from("away"):
        seat_mark_away(game_id=game_id, seat=seat)


@shared_task(ignore_result=True)
def your_turn_notify() -> int:
    """The beat's: people whose decision waits with no page of theirs open are told, once."""
    return your_turn_sweep() + decisions_tell()
