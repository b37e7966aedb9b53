"""`manage.py bench_notify`: how soon a follow's notification reaches the open page (bench/notify.py)."""

from __future__ import annotations

from typing import Any

from bench.kit.command import DATABASE, LOG_DIR, REDIS, BenchCommand, config, guarded
from bench.kit.stats import write_report
from bench.notify import NotifyConfig, run_bench


class Command(BenchCommand):
    help = (
        "Open /ws/me/ for N people on real servers, have other people follow them at a rate, and "
        "report from each follow's request to its notification on the page (p50/p95/p99) and the "
        "CPU per notification. Leaves its bn* accounts behind."
    )
    options = (
        ("--people", 50, "people with an open page"),
        ("--follows", 200, "follows, each by a new account"),
        ("--rate", 20.0, "follows a second"),
        ("--servers", 1, "ASGI server processes"),
        ("--no-worker", False, "don't start the Celery worker"),
        DATABASE,
        REDIS,
        LOG_DIR,
    )

    def handle(self, *args: Any, **options: Any) -> None:
        cfg = config(NotifyConfig, options, worker=not options["no_worker"])
        lines = guarded(lambda: run_bench(cfg, self.stdout.write), cfg.database_url, cfg.redis_url)
        write_report(lines, self.stdout.write)
