"""`manage.py bench_deploy`: a deploy under load, through nginx (bench/deploy.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from bench.deploy import DEFAULT_DATABASE_URL, DeployConfig, run_deploy_bench
from bench.kit.command import config, guarded
from bench.kit.stack import DEFAULT_REDIS_URL


class Command(BaseCommand):
    help = (
        "The browser mix of bench_live through nginx in front of the production shape (scripts/prod: "
        "N servers, a worker, beat): a steady window, then every server and the worker restarted one "
        "by one with SIGTERM (scripts/prod --restart), then with kill -9 (--restart --kill). Reports "
        "per phase the moves made, lost and duplicated, errors shown to a page, the pages' time back "
        "(p50/p99/max), the move latency beside the steady window's and the bots' lateness. Exits "
        "non-zero when a must fails: a lost or duplicated move, an error shown to a page, a page not "
        "back within 5 s at p99, a bot late beyond its bound."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        d = DeployConfig()
        parser.add_argument("--games", type=int, default=d.games, help="concurrent 4-seat games")
        parser.add_argument(
            "--servers",
            type=int,
            default=d.servers,
            help="server processes (a restart starts each one's successor beside it on its port)",
        )
        parser.add_argument(
            "--mean-gap", type=float, default=d.mean_gap, help="mean seconds between a game's decisions"
        )
        parser.add_argument("--steady", type=float, default=d.steady, help="seconds of the steady window")
        parser.add_argument("--warmup", type=float, default=d.warmup, help="seconds played before measuring")
        parser.add_argument(
            "--settle",
            type=float,
            default=d.settle,
            help="a restart window goes on this long after every page is back",
        )
        parser.add_argument(
            "--phases",
            default=",".join(d.phases),
            help="restarts after the steady window, in order: term (scripts/prod --restart: every server, "
            "then the worker and beat), kill (the same with --kill), term:K / kill:K (the Kth server only)",
        )
        parser.add_argument(
            "--bot-every",
            type=int,
            default=d.bot_every,
            help="a bot in the last seat of every Kth game (0: none)",
        )
        parser.add_argument("--spectator-every", type=int, default=d.spectator_every)
        parser.add_argument("--players-per-lobby-watcher", type=int, default=d.players_per_lobby_watcher)
        parser.add_argument(
            "--drain-seconds", type=float, default=d.drain_seconds, help="the servers' DRAIN_SECONDS"
        )
        parser.add_argument(
            "--close-rate",
            type=float,
            default=d.close_rate,
            help="the servers' DRAIN_CLOSE_RATE (a huge one closes every socket at once, as before)",
        )
        parser.add_argument(
            "--restart-spread",
            type=float,
            default=d.restart_spread,
            help="the pages' wait after a 1012 is 0.25 s plus up to this (the page's own; 3 before it was 1)",
        )
        parser.add_argument(
            "--database-url", default=DEFAULT_DATABASE_URL, help="PostgreSQL on 127.0.0.1; created if missing"
        )
        parser.add_argument("--redis-url", default=DEFAULT_REDIS_URL, help="its database is flushed at start")
        parser.add_argument(
            "--port", type=int, default=d.port, help="nginx's port; the servers take the next ones"
        )
        parser.add_argument("--run-dir", type=Path, default=d.run_dir, help="scripts/prod's RUN_DIR")
        parser.add_argument(
            "--app-role", default=d.app_role, help="the servers' PostgreSQL role (scripts/prod's APP_ROLE)"
        )
        parser.add_argument("--seed", type=int, default=d.seed)

    def handle(self, *args: Any, **options: Any) -> None:
        cfg = config(DeployConfig, options, phases=tuple(p for p in options["phases"].split(",") if p))
        result = guarded(lambda: run_deploy_bench(cfg, self.stdout.write), cfg.database_url, cfg.redis_url)
        if result.failures:
            raise CommandError(f"{len(result.failures)} must(s) failed: " + "; ".join(result.failures))
