"""`manage.py bench_live`: many live games over real websockets against real servers (issue 4)."""

from __future__ import annotations

import signal
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.benchmarks.live import DEFAULT_DATABASE_URL, DEFAULT_REDIS_URL, LiveConfig, run_live_bench


def use_database(url: str) -> None:
    """Point Django's default connection at `url` (the servers' database) for the setup."""
    import dj_database_url
    from django.db import connections

    connections["default"].close()
    parsed = dj_database_url.parse(url)
    parsed["OPTIONS"] = parsed.get("OPTIONS") or {}  # not the SQLite options of the default
    connections.settings["default"] = {**connections.settings["default"], **parsed}
    del connections["default"]  # made afresh, with the right backend, on next use


class Command(BaseCommand):
    help = (
        "Drive N concurrent 4-seat games of scripted websocket clients against real server processes "
        "(PostgreSQL and Redis on 127.0.0.1), open loop at R moves/s per game; report moves/s, "
        "latency from a move's send to its first event at the last of the table's clients "
        "(p50/p99/p99.9/max) and errors. Leaves its bench* users and games in the database."
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
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--log-dir", type=Path, default=None, help="server and worker logs")

    def handle(self, *args: Any, **options: Any) -> None:
        url = options["database_url"]
        if not url.startswith(("postgres://", "postgresql://")):
            raise CommandError("the bench needs PostgreSQL: --database-url postgres://...@127.0.0.1/...")
        extra = {"log_dir": options["log_dir"]} if options["log_dir"] else {}
        pairs = [item.partition("=") for item in options["server_env"]]
        if any(not key or not eq for key, eq, _ in pairs):
            raise CommandError("--server-env takes KEY=VALUE")
        cfg = LiveConfig(
            games=options["games"],
            servers=options["servers"],
            rate=options["rate"],
            duration=options["duration"],
            warmup=options["warmup"],
            database_url=url,
            redis_url=options["redis_url"],
            worker=not options["no_worker"],
            seed=options["seed"],
            route=options["route"],
            server_env=tuple((key, value) for key, _, value in pairs),
            **extra,
        )

        def stop(signum: int, frame: Any) -> None:
            raise KeyboardInterrupt  # unwinds through live_stack, which stops the servers

        signal.signal(signal.SIGTERM, stop)
        try:
            from games.benchmarks.live import check_loopback, ensure_database

            check_loopback(url)
            check_loopback(cfg.redis_url)
            ensure_database(url)
            use_database(url)
            run_live_bench(cfg, self.stdout.write)
        except (ValueError, RuntimeError) as e:
            raise CommandError(str(e)) from e
