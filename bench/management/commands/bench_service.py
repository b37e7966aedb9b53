"""`manage.py bench_service`: commands per second, submit latency and game load time."""

from __future__ import annotations

import cProfile
import io
import pstats
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection

from bench.service import BenchConfig, bench_one_game, new_prefix, run_bench


class Command(BaseCommand):
    help = (
        "Benchmark the game services on the configured database (PostgreSQL is the target): "
        "commands per second for one game and for many in threads, p50/p99 submit latency, "
        "and loading a 1,000-event game with and without its snapshot. Leaves its bench-* data."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--commands", type=int, default=1000, help="commands for one game, and in all")
        parser.add_argument("--games", type=int, default=50, help="games driven in parallel")
        parser.add_argument("--threads", type=int, default=8, help="threads driving them")
        parser.add_argument("--load-events", type=int, default=1000, help="events in the loaded game")
        parser.add_argument("--load-runs", type=int, default=20, help="timed loads of each kind")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--allow-sqlite", action="store_true", help="run on SQLite anyway")
        parser.add_argument(
            "--profile", type=int, default=0, metavar="N", help="only cProfile the one-game loop; show N rows"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if connection.vendor == "sqlite" and not options["allow_sqlite"]:
            raise CommandError(
                "PostgreSQL is the target of this bench: set DATABASE_URL=postgres://... "
                "(or pass --allow-sqlite to measure SQLite anyway)"
            )
        if getattr(settings, "CELERY_TASK_ALWAYS_EAGER", False):
            raise CommandError("CELERY_TASK_ALWAYS_EAGER is on: timer tasks would play moves mid-bench")
        if min(options["commands"], options["games"], options["threads"], options["load_events"]) < 1:
            raise CommandError("--commands, --games, --threads and --load-events must be at least 1")
        cfg = BenchConfig(
            commands=options["commands"],
            games=options["games"],
            threads=options["threads"],
            load_events=options["load_events"],
            load_runs=options["load_runs"],
            seed=options["seed"],
        )
        if options["profile"]:
            self._profile(cfg, options["profile"])
            return
        run_bench(cfg, self.stdout.write)

    def _profile(self, cfg: BenchConfig, rows: int) -> None:
        profiler = cProfile.Profile()
        profiler.enable()
        figures = bench_one_game(cfg, new_prefix())
        profiler.disable()
        self.stdout.write(f"one game: {figures.commands} commands in {figures.wall_s:.2f} s")
        for order in ("tottime", "cumulative"):
            out = io.StringIO()
            pstats.Stats(profiler, stream=out).sort_stats(order).print_stats(rows)
            self.stdout.write(out.getvalue())
