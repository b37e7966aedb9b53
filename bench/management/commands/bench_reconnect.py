"""`manage.py bench_reconnect`: what a socket open costs, and every page of a server coming back at once."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from bench.kit.command import config
from bench.kit.stack import DEFAULT_DATABASE_URL, DEFAULT_REDIS_URL, use_database
from bench.reconnect import ReconnectConfig, run_reconnect_bench


class Command(BaseCommand):
    help = (
        "Open a game page's socket for every seat of N 4-seat games on real server processes "
        "(PostgreSQL and Redis on 127.0.0.1), close them all, then reopen them all at once naming "
        "their last seq, as pages do after their server restarts; report each page's time until "
        "it is back (its view arrived), opens per second, the servers' CPU and the shared parts' "
        "work per open. With --root, that checkout's servers run beside this one's and the two "
        "take turns phase by phase (one run, the same load). Leaves its bench* users and games "
        "in the database."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--games", type=int, default=250, help="4-seat games a side: 4 pages each")
        parser.add_argument("--servers", type=int, default=1, help="servers a side")
        parser.add_argument("--jitter", type=float, default=0.0, help="spread the reconnects over S seconds")
        parser.add_argument("--database-url", default=DEFAULT_DATABASE_URL)
        parser.add_argument("--redis-url", default=DEFAULT_REDIS_URL, help="flushed at start")
        parser.add_argument("--no-migrate", action="store_true")
        parser.add_argument("--log-dir", type=Path, default=Path("/tmp/harehra-bench-reconnect"))
        parser.add_argument(
            "--root",
            type=Path,
            default=None,
            help="compare: this checkout's servers (e.g. a worktree of an older commit) run beside these",
        )
        parser.add_argument(
            "--rounds", type=int, default=1, help="each side's open and reconnect, this often"
        )
        parser.add_argument(
            "--settle",
            type=float,
            default=11.0,
            help="seconds to wait after each phase before reading PostgreSQL's statistics (reported late)",
        )
        parser.add_argument(
            "--profile",
            type=Path,
            default=None,
            metavar="DIR",
            help="sample each server with py-spy during each phase (into DIR); print where its time went",
        )
        parser.add_argument(
            "--py-spy", default="py-spy", help="the py-spy program (not a dependency of the site)"
        )
        parser.add_argument(
            "--fresh",
            action="store_true",
            help="then reconnect every page again, to servers just started (nothing of theirs in memory)",
        )
        parser.add_argument(
            "--auth",
            choices=["token", "session"],
            default="token",
            help="pages sign in by API token, or by session cookie as browsers do",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["games"] < 1 or options["servers"] < 1 or options["rounds"] < 1:
            raise CommandError("games, servers and rounds are at least 1")
        use_database(options["database_url"])
        cfg = config(ReconnectConfig, options, migrate=not options["no_migrate"])
        run_reconnect_bench(cfg, write=self.stdout.write)
