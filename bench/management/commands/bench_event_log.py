"""`manage.py bench_event_log`: a move's append and a replay's read on a small log and on one of
millions of events, one table against the partitioned log, in one run (bench/event_log.py)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from bench.event_log import EventLogConfig, format_report, run_event_log_bench
from bench.kit.command import config, guarded


class Command(BaseCommand):
    help = "Appends and replay reads on a small and a big event log, before and after partitioning."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--database-url", required=True, help="the big log's database (dropped and made)")
        parser.add_argument("--events", type=int, help="events in the big log (10,000,000)")
        parser.add_argument("--commands", type=int, help="moves appended per measure (300)")
        parser.add_argument("--reads", type=int, help="replay reads per measure (300)")
        parser.add_argument("--seed", type=int)

    def handle(self, *args: Any, **options: Any) -> None:
        cfg = config(EventLogConfig, options)
        figures = guarded(lambda: run_event_log_bench(cfg, self.stdout.write))
        for line in format_report(figures):
            self.stdout.write(line)
