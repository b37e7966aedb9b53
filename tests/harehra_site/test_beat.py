"""Beat's scheduler: a beat just started sweeps at once (harehra_site/beat.py)."""

from __future__ import annotations

from celery.beat import Scheduler

from harehra_site.beat import DueAtStartScheduler
from harehra_site.celery import app


def test_every_periodic_task_is_due_when_beat_starts() -> None:
    scheduler = DueAtStartScheduler(app=app)
    due = {name: entry.is_due() for name, entry in scheduler.schedule.items()}
    assert {"sweep-deadlines", "tournaments"} <= set(due)
    assert all(is_due for is_due, _next in due.values()), due
    # Celery's own scheduler waits a whole interval first: what a restarted beat added to a
    # bot's wait when a killed worker had held its task.
    plain = Scheduler(app=app)
    assert not plain.schedule["sweep-deadlines"].is_due()[0]


def test_after_running_a_task_it_is_due_again_one_interval_later() -> None:
    scheduler = DueAtStartScheduler(app=app)
    entry = scheduler.schedule["sweep-deadlines"]
    ran = next(entry)  # what beat keeps after sending it
    is_due, next_in = ran.is_due()
    assert not is_due and 4.0 < next_in <= 5.0
