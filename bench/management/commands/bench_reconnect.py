"""`manage.py bench_reconnect`: what a socket open costs, and every page of a server coming back at once."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import CommandError

from bench.kit.command import DATABASE, REDIS, BenchCommand, config
from bench.kit.stack import use_database
from bench.reconnect import ReconnectConfig, run_reconnect_bench


class Command(BenchCommand):
    help = (
        "Open a game page's socket for every seat of N games on real servers, close them all, then "
        "reopen them all at once naming their last seq; report each page's time until it is back, "
        "the servers' CPU and the shared parts' work per open. With --root, that checkout's servers "
        "take turns with this one's (docs/BENCHMARKS.md)."
    )
    options = (
        ("--games", 250, "4-seat games a side: 4 pages each"),
        ("--servers", 1, "servers a side"),
        ("--jitter", 0.0, "spread the reconnects over S seconds"),
        DATABASE,
        REDIS,
        ("--no-migrate", False, None),
        ("--log-dir", Path("/tmp/harehra-bench-reconnect"), None),
        ("--root", None, "compare: this checkout's servers run beside these", {"type": Path}),
        ("--rounds", 1, "each side's open and reconnect, this often"),
        ("--settle", 11.0, "seconds to wait after each phase before reading PostgreSQL's statistics"),
        ("--fresh", False, "then reconnect every page again, to servers just started"),
        ("--auth", ("token", "session"), "pages sign in by API token, or by session cookie"),
    )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["games"] < 1 or options["servers"] < 1 or options["rounds"] < 1:
            raise CommandError("games, servers and rounds are at least 1")
        use_database(options["database_url"])
        cfg = config(ReconnectConfig, options, migrate=not options["no_migrate"])
        run_reconnect_bench(cfg, write=self.stdout.write)
