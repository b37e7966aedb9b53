"""`manage.py bench_event_log`: a move's append and a replay's read on a log of millions of
events, one table against the partitioned log, in alternating rounds of one run (bench/event_log.py)."""

from __future__ import annotations

from typing import Any

from bench.event_log import EventLogConfig, format_report, run_event_log_bench
from bench.kit.command import BenchCommand, config, guarded


class Command(BenchCommand):
    help = "Appends and replay reads on a big event log, one table and partitioned, in alternating rounds."

    options = (
        (
            "--database-url",
            None,
            "the one-table log's database, dropped and made (the copy: NAME_part)",
            {"required": True},
        ),
        ("--events", None, "events in the big log (10,000,000)", {"type": int}),
        ("--commands", None, "moves appended per layout, over all rounds (300)", {"type": int}),
        ("--reads", None, "replay reads per layout, over all rounds (300)", {"type": int}),
        ("--rounds", None, "alternating rounds (10)", {"type": int}),
        ("--in-first-partition", False, "the moves' new games in the converted log's own partition"),
        ("--keep", False, "keep both databases (dropped by default)"),
        ("--seed", None, None, {"type": int}),
    )

    def handle(self, *args: Any, **options: Any) -> None:
        cfg = config(EventLogConfig, options, new_partition=not options["in_first_partition"])
        figures = guarded(lambda: run_event_log_bench(cfg, self.stdout.write))
        self.lines(format_report(figures))
