"""Beat's scheduler: every periodic task here is due at once when beat starts.

Beat's periodic tasks are the deadline sweep and the tournaments' step, every 5 s, and nothing
depends on when they last ran: a schedule kept on disk (Celery's default) only delayed the first
sweep of a restarted beat by up to its interval after its start, which itself takes seconds, so a
bot whose task a killed worker held waited through both (bench_deploy's kill -9 window: moves up
to 10.7 s late against a bound of 9). Started before the old beat stops (scripts/prod), the new
one sweeps as soon as it runs; two beats for a moment only sweep twice, and a sweep changes
nothing that is not overdue."""

from __future__ import annotations

from typing import Any

from celery.beat import Scheduler
from celery.schedules import schedule


class DueAtStartScheduler(Scheduler):
    """Celery's in-memory scheduler, with each interval task's last run one interval ago."""

    def setup_schedule(self) -> None:
        super().setup_schedule()
        for entry in self.schedule.values():
            every: Any = entry.schedule
            if isinstance(every, schedule):
                entry.last_run_at = entry.default_now() - every.run_every
