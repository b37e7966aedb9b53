"""`manage.py bench_service`: commands per second, submit latency and game load time."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import CommandError
from django.db import connection

from bench.kit.command import BenchCommand, config
from bench.service import BenchConfig, run_bench


class Command(BenchCommand):
    help = (
        "Benchmark the game services on the configured database (PostgreSQL): commands per second "
        "for one game and for many in threads, submit latency, and loading a long game."
    )
    options = (
        ("--commands", 1000, "commands for one game, and in all"),
        ("--games", 50, "games driven in parallel"),
        ("--threads", 8, "threads driving them"),
        ("--load-events", 1000, "events in the loaded game"),
        ("--load-runs", 20, "timed loads of each kind"),
        ("--seed", 1, None),
    )

    def handle(self, *args: Any, **options: Any) -> None:
        if connection.vendor == "sqlite":
            raise CommandError("PostgreSQL is the target of this bench: set DATABASE_URL=postgres://...")
        if getattr(settings, "CELERY_TASK_ALWAYS_EAGER", False):
            raise CommandError("CELERY_TASK_ALWAYS_EAGER is on: timer tasks would play moves mid-bench")
        if min(options["commands"], options["games"], options["threads"], options["load_events"]) < 1:
            raise CommandError("--commands, --games, --threads and --load-events must be at least 1")
        run_bench(config(BenchConfig, options), self.stdout.write)
