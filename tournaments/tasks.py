"""The beat's tournament work, each event isolated: one failing event stops no other."""

from __future__ import annotations

import logging

from celery import shared_task

from .services import tournament_tick as tick
from .services import tournaments_due, tournaments_starting_notify

log = logging.getLogger(__name__)


@shared_task(ignore_result=True)
def tournament_tick(tournament_id: int) -> None:
    tick(tournament_id=tournament_id)


@shared_task(ignore_result=True)
def tournaments_run() -> list[int]:
    """Start, seat and finish every event that is due; the ids of those that failed (logged)."""
    failed = []
    for tournament_id in tournaments_due():
        try:
            tick(tournament_id=tournament_id)
        except Exception:
            log.exception("tournament %s: its step failed", tournament_id)
            failed.append(tournament_id)
    return failed


@shared_task(ignore_result=True)
def tournaments_starting() -> int:
    """The beat's: entrants of an event starting in 5 minutes are told, once."""
    return tournaments_starting_notify()
