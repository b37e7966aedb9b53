"""`manage.py bench_slow_deadlines`: the beat's sweep and the lateness of due deadlines beside
100,000 slow games' deadlines spread over 3 days (bench/slow_deadlines.py)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from bench.kit.command import config, guarded
from bench.kit.stack import ensure_database
from bench.slow_deadlines import SlowConfig, format_report, run_slow_bench


class Command(BaseCommand):
    help = "The sweep's database time and due deadlines' lateness beside 100,000 slow games."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--database-url", required=True, help="the bench's database (dropped and made)")
        parser.add_argument("--games", type=int, help="slow games not due, spread over 3 days (100,000)")
        parser.add_argument("--live", type=int, help="live games beside them, not due (600)")
        parser.add_argument("--due", type=int, help="slow games due in the window (the rate of 3 days)")
        parser.add_argument("--window", type=int, help="seconds of moved clock measured (600)")
        parser.add_argument("--hot-moves", type=int, help="live moves counted for HOT updates (200; 0: none)")
        parser.add_argument("--seed", type=int)

    def handle(self, *args: Any, **options: Any) -> None:
        cfg = config(SlowConfig, options)
        figures = guarded(lambda: self._run(cfg))
        for line in format_report(figures):
            self.stdout.write(line)

    def _run(self, cfg: SlowConfig) -> dict[str, Any]:
        from bench.kit.stack import use_database
        from bench.slow_deadlines import drop_database

        drop_database(cfg.database_url)
        ensure_database(cfg.database_url)
        use_database(cfg.database_url)
        return run_slow_bench(cfg, self.stdout.write)
