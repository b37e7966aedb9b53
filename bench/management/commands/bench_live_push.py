"""`manage.py bench_live_push`: the live bench with every player subscribed to web push against
the same without, in one run (bench/push_live.py)."""

from __future__ import annotations

from typing import Any

from bench.browser import BrowserConfig
from bench.kit.command import DATABASE, LOG_DIR, REDIS, BenchCommand, config, guarded
from bench.push_live import run_live_push_compare


class Command(BenchCommand):
    help = (
        "Drive N live games (bench_live's pages) without push subscriptions, then with every "
        "player subscribed at a push service on loopback, ROUNDS times; notifications kept for the "
        "players at --notify-rate in both; report each arm's move p99 and the servers' CPU per move."
    )
    options = (
        ("--games", 40, "concurrent 4-seat games"),
        ("--servers", 1, "ASGI server processes"),
        ("--mean-gap", 1.0, "mean seconds between a game's decisions"),
        ("--duration", 30.0, "measured seconds"),
        ("--warmup", 5.0, "seconds driven before measuring"),
        ("--rounds", 2, "without/with pairs"),
        ("--notify-rate", 5.0, "notifications a second for the players, in both arms"),
        DATABASE,
        REDIS,
        ("--seed", 1, None),
        LOG_DIR,
    )

    def handle(self, *args: Any, **options: Any) -> None:
        cfg = config(BrowserConfig, options, worker=True)
        guarded(
            lambda: run_live_push_compare(cfg, options["rounds"], options["notify_rate"], self.stdout.write),
            options["database_url"],
            cfg.redis_url,
        )
