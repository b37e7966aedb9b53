"""Celery tasks stay thin: each wakes a service with the seq it was armed for."""

from __future__ import annotations

from datetime import datetime

from celery import shared_task

from .services.autoplay import (
    due_deadlines,
    game_bot_move,
    game_deadline_expire,
    game_timer_fired,
    overdue_bot_moves,
)
from .services.presence import presence_sweep, seat_mark_away, seats_gone_away


@shared_task(ignore_result=True)
def bot_move(game_id: int, seq: int) -> None:
    game_bot_move(game_id=game_id, guard_seq=seq)


@shared_task(ignore_result=True)
def deadline_expire(game_id: int, seq: int, armed_for: str | None = None) -> None:
    game_timer_fired(
        game_id=game_id,
        guard_seq=seq,
        armed_for=datetime.fromisoformat(armed_for) if armed_for else None,
    )


@shared_task(ignore_result=True)
def sweep_deadlines() -> None:
    """The safety net under the countdown tasks: a lost task delays a timeout by one sweep at most."""
    for game_id, seq in due_deadlines():
        game_deadline_expire(game_id=game_id, guard_seq=seq)
    for game_id, seq in overdue_bot_moves():  # a bot whose wake-up was lost with its worker
        game_bot_move(game_id=game_id, guard_seq=seq)
    presence_sweep()  # counts left behind by sockets that ended unseen
    for game_id, seat in seats_gone_away():
        seat_mark_away(game_id=game_id, seat=seat)


@shared_task(ignore_result=True)
def check_away(game_id: int, seat: int) -> None:
    seat_mark_away(game_id=game_id, seat=seat)
