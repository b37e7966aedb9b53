"""`manage.py bench_event_log`: a move's append and a replay's read on a small log and on one of
millions of events, one table against the partitioned log, in one run (bench/event_log.py)."""

from __future__ import annotations

from typing import Any

from bench.event_log import EventLogConfig, format_report, run_event_log_bench
from bench.kit.command import BenchCommand, config, guarded


class Command(BenchCommand):
    help = "Appends and replay reads on a small and a big event log, before and after partitioning."

    options = (
        ("--database-url", None, "the big log's database (dropped and made)", {"required": True}),
        ("--events", None, "events in the big log (10,000,000)", {"type": int}),
        ("--commands", None, "moves appended per measure (300)", {"type": int}),
        ("--reads", None, "replay reads per measure (300)", {"type": int}),
        ("--seed", None, None, {"type": int}),
    )

    def handle(self, *args: Any, **options: Any) -> None:
        cfg = config(EventLogConfig, options)
        figures = guarded(lambda: run_event_log_bench(cfg, self.stdout.write))
        self.lines(format_report(figures))
