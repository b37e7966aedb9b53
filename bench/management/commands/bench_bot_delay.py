"""`manage.py bench_bot_delay`: how late bots move against BOT_DELAY_SECONDS, at the page."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bench.bot_delay import DEFAULT_DATABASE_URL, BotDelayConfig, Mode, run_bot_delay, run_compare
from bench.kit.command import COMPARE_REF, LOG_DIR, REDIS, SERVER_ENV, BenchCommand, config, guarded


class Command(BenchCommand):
    help = (
        "Start real servers (embedded or on Redis), play tables of one person and three bots and "
        "report how late each bot's move reached the page after the push that made it due, less "
        "BOT_DELAY_SECONDS, with the servers' own figures (docs/BENCHMARKS.md)."
    )
    options = (
        ("--mode", ("both", "embedded", "redis"), None),
        ("--games", 2, "tables played at once"),
        ("--moves", 200, "bot moves to measure per mode (0: --duration)"),
        ("--duration", 0.0, "seconds to measure at most"),
        ("--delay", 0.8, "BOT_DELAY_SECONDS of the servers"),
        ("--bot-level", "normal", "the bots' level (easy, normal, hard)"),
        ("--warmup-moves", 3, "each table's first bot moves, not measured"),
        ("--embedded-db", ("sqlite", "postgres"), "embedded mode: a scratch SQLite file, or --database-url"),
        ("--database-url", DEFAULT_DATABASE_URL, "PostgreSQL on 127.0.0.1; created if missing and migrated"),
        REDIS,
        SERVER_ENV,
        COMPARE_REF,
        ("--rounds", 1, "with --compare-ref: old/new pairs"),
        LOG_DIR,
        ("--timeout", 900.0, "seconds per run, at most"),
        ("--seed", 1, None),
        ("--analyses", 0, "keep N analyses pending in alternate phases", {"metavar": "N"}),
        ("--phase", 60.0, "with --analyses: seconds of each phase"),
        ("--analysis-games", 6, "with --analyses: finished games to analyse"),
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
