"""`manage.py bench_push`: notifications a minute the worker sends as web push (bench/push.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import CommandError
from django.db import connection

from bench.kit.command import BenchCommand
from bench.kit.stack import check_loopback, database_url
from bench.kit.stats import write_report
from bench.push import run_bench, run_compare


class Command(BenchCommand):
    help = (
        "Keep N notifications for people subscribed to web push at a push service on loopback, and "
        "measure how many a minute a Celery worker sends. Needs PostgreSQL and REDIS_URL (the "
        "worker's broker). Leaves its bp* accounts behind."
    )

    options = (
        ("--notifications", 10_000, None),
        ("--people", 500, "accounts, one subscription each"),
        ("--batch", 100, "notifications a transaction"),
        ("--workers", 1, "worker processes (one has beat)"),
        (
            "--compare-ref",
            None,
            "REF's worker (fed as its servers queued), then this checkout's",
            {"metavar": "REF"},
        ),
        ("--rounds", 1, "with --compare-ref: old/new pairs"),
        ("--log-dir", "test-output/bench-push", "the worker's log"),
    )

    def handle(self, *args: Any, **options: Any) -> None:
        if connection.vendor != "postgresql":
            raise CommandError("set DATABASE_URL=postgres://... (the worker shares the database)")
        redis_url = settings.REDIS_URL
        if not redis_url:
            raise CommandError("set REDIS_URL=redis://127.0.0.1:PORT/N: the worker's broker")
        check_loopback(redis_url)
        if min(options["notifications"], options["people"], options["batch"], options["workers"]) < 1:
            raise CommandError("--notifications, --people, --batch and --workers must be at least 1")
        bench = {
            "notifications": options["notifications"],
            "people": options["people"],
            "batch": options["batch"],
            "database_url": database_url(connection.settings_dict),
            "redis_url": redis_url,
            "log_dir": Path(options["log_dir"]),
            "workers": options["workers"],
        }
        if options["compare_ref"]:  # each run's lines written as it ends
            run_compare(options["compare_ref"], options["rounds"], self.stdout.write, **bench)
            return
        write_report(run_bench(**bench), self.stdout.write)
