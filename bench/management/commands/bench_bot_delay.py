"""`manage.py bench_bot_delay`: how late bots move against BOT_DELAY_SECONDS, at the page."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from bench.bot_delay import DEFAULT_DATABASE_URL, BotDelayConfig, Mode, run_bot_delay, run_compare
from bench.kit.command import config, guarded
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
        modes: list[Mode] = ["embedded", "redis"] if options["mode"] == "both" else [options["mode"]]
        cfg = config(BotDelayConfig, options, mode=modes[0], sqlite=options["embedded_db"] == "sqlite")
        if options["compare_ref"]:
            ref, rounds = options["compare_ref"], options["rounds"]
            guarded(lambda: run_compare(cfg, ref, modes, self.stdout.write, rounds))
            return
        runs = [replace(cfg, mode=mode, log_dir=cfg.log_dir / mode) for mode in modes]
        guarded(lambda: [run_bot_delay(run, self.stdout.write) for run in runs])
