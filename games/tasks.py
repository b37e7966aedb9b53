"""Celery tasks stay thin: each wakes a service with the seq it was armed for."""

from __future__ import annotations

import logging
from datetime import datetime

from celery import shared_task

from .services.autoplay import game_bot_move, game_timer_fired
from .services.presence import seat_mark_away
from .services.sweep import sweep_run

log = logging.getLogger(__name__)


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
    """The safety net under the countdown tasks, each game's work isolated (services/sweep.py)."""
    report = sweep_run()
    if report.failed or report.unread:
        log.warning("sweep: %s", report.line())


@shared_task(ignore_result=True)
def check_away(game_id: int, seat: int) -> None:
    seat_mark_away(game_id=game_id, seat=seat)
