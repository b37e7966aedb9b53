"""`manage.py bench_push`: notifications a minute the worker sends as web push (bench/push.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection

from bench.kit.stack import check_loopback, database_url
from bench.kit.stats import write_report
from bench.push import run_bench, run_compare


class Command(BaseCommand):
    help = (
        "Keep N notifications for people subscribed to web push at a push service on loopback, and "
        "measure how many a minute a Celery worker sends. Needs PostgreSQL and REDIS_URL (the "
        "worker's broker). Leaves its bp* accounts behind."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--notifications", type=int, default=10_000)
        parser.add_argument("--people", type=int, default=500, help="accounts, one subscription each")
        parser.add_argument("--batch", type=int, default=100, help="notifications a transaction")
        parser.add_argument("--workers", type=int, default=1, help="worker processes (one has beat)")
        parser.add_argument(
            "--compare-ref",
            metavar="REF",
            help="REF's worker (fed as its servers queued), then this checkout's",
        )
        parser.add_argument("--rounds", type=int, default=1, help="with --compare-ref: old/new pairs")
        parser.add_argument("--log-dir", default="test-output/bench-push", help="the worker's log")

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
