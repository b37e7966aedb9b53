"""`manage.py bench_bot_delay`: how late bots move against BOT_DELAY_SECONDS, at the page (issue 27)."""

from __future__ import annotations

import signal
from dataclasses import replace
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from bench.bot_delay import DEFAULT_DATABASE_URL, BotDelayConfig, Mode, run_bot_delay, run_compare
from bench.kit.stack import DEFAULT_REDIS_URL


class Command(BaseCommand):
    help = (
        "Start real servers (embedded: serve with its in-process worker on the memory broker, on a "
        "scratch SQLite file or PostgreSQL; redis: serve and a celery worker on Redis and PostgreSQL), "
        "play tables of one person and three bots, the person acting at once on every view, and "
        "report for each bot decision how late its move reached the page after the push that made it "
        "due, less BOT_DELAY_SECONDS (p50/p95/max), with the servers' own figures (the log's times, "
        "the bot tasks' lateness). --compare-ref REF runs REF's code first, then this checkout's. "
        "--analyses N keeps N analyses pending in alternate phases and sets bot moves with and "
        "without them side by side."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--mode", choices=["embedded", "redis", "both"], default="both")
        parser.add_argument("--games", type=int, default=2, help="tables played at once")
        parser.add_argument(
            "--moves", type=int, default=200, help="bot moves to measure per mode (0: --duration)"
        )
        parser.add_argument("--duration", type=float, default=0.0, help="seconds to measure at most")
        parser.add_argument("--delay", type=float, default=0.8, help="BOT_DELAY_SECONDS of the servers")
        parser.add_argument("--bot-level", default="normal", help="the bots' level (easy, normal, hard)")
        parser.add_argument(
            "--warmup-moves", type=int, default=3, help="each table's first bot moves, not measured"
        )
        parser.add_argument(
            "--embedded-db",
            choices=["sqlite", "postgres"],
            default="sqlite",
            help="embedded mode: a scratch SQLite file, or --database-url",
        )
        parser.add_argument(
            "--database-url",
            default=DEFAULT_DATABASE_URL,
            help="PostgreSQL on 127.0.0.1; created if missing and migrated",
        )
        parser.add_argument("--redis-url", default=DEFAULT_REDIS_URL, help="redis mode; flushed at start")
        parser.add_argument(
            "--server-env",
            action="append",
            default=[],
            metavar="KEY=VALUE",
            help="extra environment for the servers and worker; repeatable",
        )
        parser.add_argument(
            "--loop-stacks",
            action="store_true",
            help="LOOP_STACKS=1: the servers log the event loop's stack while it is held",
        )
        parser.add_argument(
            "--compare-ref", default=None, metavar="REF", help="run REF's code first, then this checkout's"
        )
        parser.add_argument("--rounds", type=int, default=1, help="with --compare-ref: old/new pairs")
        parser.add_argument("--log-dir", type=Path, default=None, help="server and worker logs")
        parser.add_argument("--timeout", type=float, default=900.0, help="seconds per run, at most")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument(
            "--analyses",
            type=int,
            default=0,
            metavar="N",
            help="keep N analyses pending on the analysis queue in alternate phases of the window "
            "(asked for through the replay's API), and report bot moves with and without them",
        )
        parser.add_argument(
            "--phase", type=float, default=60.0, help="with --analyses: seconds of each phase"
        )
        parser.add_argument(
            "--analysis-games", type=int, default=6, help="with --analyses: finished games to analyse"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        pairs = [item.partition("=") for item in options["server_env"]]
        if any(not key or not eq for key, eq, _ in pairs):
            raise CommandError("--server-env takes KEY=VALUE")
        extra = {"log_dir": options["log_dir"]} if options["log_dir"] else {}
        cfg = BotDelayConfig(
            games=options["games"],
            moves=options["moves"],
            duration=options["duration"],
            delay=options["delay"],
            bot_level=options["bot_level"],
            warmup_moves=options["warmup_moves"],
            database_url=options["database_url"],
            sqlite=options["embedded_db"] == "sqlite",
            redis_url=options["redis_url"],
            server_env=tuple((key, value) for key, _, value in pairs),
            loop_stacks=options["loop_stacks"],
            timeout=options["timeout"],
            seed=options["seed"],
            analyses=options["analyses"],
            phase=options["phase"],
            analysis_games=options["analysis_games"],
            **extra,
        )
        modes: list[Mode] = ["embedded", "redis"] if options["mode"] == "both" else [options["mode"]]

        def stop(signum: int, frame: Any) -> None:
            raise KeyboardInterrupt  # unwinds through live_stack, which stops the servers

        signal.signal(signal.SIGTERM, stop)
        try:
            if options["compare_ref"]:
                run_compare(cfg, options["compare_ref"], modes, self.stdout.write, options["rounds"])
                return
            for mode in modes:
                run_bot_delay(replace(cfg, mode=mode, log_dir=cfg.log_dir / mode), self.stdout.write)
        except (ValueError, RuntimeError) as e:
            raise CommandError(str(e)) from e
