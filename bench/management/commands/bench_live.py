"""`manage.py bench_live`: many live games over real websockets against real servers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from bench.browser import BrowserConfig, run_browser_bench, run_browser_compare
from bench.kit.command import config, guarded
from bench.kit.stack import DEFAULT_DATABASE_URL, DEFAULT_REDIS_URL
from bench.live import LiveConfig, run_live_bench


class Command(BaseCommand):
    help = (
        "Drive N concurrent 4-seat games of scripted websocket clients against real server processes "
        "(PostgreSQL and Redis on 127.0.0.1), open loop at R moves/s per game; report moves/s, "
        "latency from a move's send to its first event at the last of the table's clients "
        "(p50/p99/p99.9/max) and errors. Leaves its bench* users and games in the database. "
        "--mix browser: clients that do what the site's pages do (game, watch and lobby pages), a "
        "decision per game every --mean-gap s on average; --compare-ref REF alternates REF's code "
        "with this checkout's under the same pages."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--games", type=int, required=True, help="concurrent 4-seat games")
        parser.add_argument("--servers", type=int, default=1, help="ASGI server processes")
        parser.add_argument("--rate", type=float, default=1.0, help="moves per second per game")
        parser.add_argument("--duration", type=float, default=30.0, help="measured seconds")
        parser.add_argument("--warmup", type=float, default=5.0, help="seconds driven before measuring")
        parser.add_argument(
            "--database-url",
            default=DEFAULT_DATABASE_URL,
            help="PostgreSQL on 127.0.0.1; created if missing and migrated",
        )
        parser.add_argument("--redis-url", default=DEFAULT_REDIS_URL, help="flushed at start")
        parser.add_argument("--no-worker", action="store_true", help="don't start the Celery worker")
        parser.add_argument(
            "--server-env",
            action="append",
            default=[],
            metavar="KEY=VALUE",
            help="extra environment for the servers and worker (e.g. CONN_MAX_AGE=60); repeatable",
        )
        parser.add_argument(
            "--route",
            choices=["seat", "game"],
            default="seat",
            help="seat: a game's seats spread over the servers; game: a game's sockets on one server "
            "(as a load balancer hashing the socket path routes them)",
        )
        parser.add_argument(
            "--mix",
            choices=["scripted", "browser"],
            default="scripted",
            help="scripted: one socket per seat folding events, --rate moves/s per game; browser: what "
            "the pages do (4 game pages, a watch page on every 4th game, a lobby page per 10 players)",
        )
        parser.add_argument(
            "--client",
            choices=["new"],
            default="new",
            help="browser mix: the pages as they are (pushed views, watch frames and the lobby socket)",
        )
        parser.add_argument(
            "--mean-gap", type=float, default=4.0, help="browser mix: mean seconds between a game's decisions"
        )
        parser.add_argument(
            "--compare-ref",
            default=None,
            metavar="REF",
            help="browser mix: alternate REF's code and this checkout's, under the same pages",
        )
        parser.add_argument("--rounds", type=int, default=2, help="with --compare-ref: old/new pairs")
        parser.add_argument(
            "--ref-client",
            choices=["new"],
            default="new",
            help="with --compare-ref: the pages REF's code is driven with (the pages as they are)",
        )
        parser.add_argument(
            "--spectator-every",
            type=int,
            default=4,
            help="browser mix: a watch page on every Nth game (0: none)",
        )
        parser.add_argument(
            "--players-per-lobby-watcher",
            type=int,
            default=10,
            help="browser mix: one lobby page per N players (0: none)",
        )
        parser.add_argument(
            "--http-db",
            choices=["close", "persistent"],
            default="close",
            help="browser mix: close = the servers' HTTP requests close their database connection "
            "(a settings shim: with persistent connections Django's ASGI leaves one open per request "
            "and PostgreSQL runs out of connections); persistent = the servers as configured",
        )
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--log-dir", type=Path, default=None, help="server and worker logs")

    def handle(self, *args: Any, **options: Any) -> None:
        worker = not options["no_worker"]
        url, write = options["database_url"], self.stdout.write
        if options["mix"] == "browser":
            cfg = config(BrowserConfig, options, worker=worker)
            ref = options["compare_ref"]
            if ref:
                rounds, ref_client = options["rounds"], options["ref_client"]
                guarded(lambda: run_browser_compare(cfg, ref, rounds, write, ref_client), url, cfg.redis_url)
            else:
                guarded(lambda: run_browser_bench(cfg, write), url, cfg.redis_url)
            return
        if options["compare_ref"]:
            raise CommandError("--compare-ref needs --mix browser")
        live = config(LiveConfig, options, worker=worker)
        guarded(lambda: run_live_bench(live, write), url, live.redis_url)
