"""`manage.py bench_deploy`: a deploy under load, through nginx (bench/deploy.py)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandError

from bench.deploy import DEFAULT_DATABASE_URL, DeployConfig, run_deploy_bench
from bench.kit.command import BenchCommand, config, guarded
from bench.kit.stack import DEFAULT_REDIS_URL

d = DeployConfig()


class Command(BenchCommand):
    help = (
        "The browser mix of bench_live through nginx in front of scripts/prod's processes: a steady "
        "window, then every process restarted with SIGTERM, then with kill -9; per phase the moves "
        "made, lost and duplicated, errors shown and the pages' time back. Exits non-zero when a "
        "must fails (docs/BENCHMARKS.md)."
    )
    options = (
        ("--games", d.games, "concurrent 4-seat games"),
        ("--servers", d.servers, "server processes"),
        ("--mean-gap", d.mean_gap, "mean seconds between a game's decisions"),
        ("--steady", d.steady, "seconds of the steady window"),
        ("--warmup", d.warmup, "seconds played before measuring"),
        ("--settle", d.settle, "a restart window goes on this long after every page is back"),
        ("--phases", ",".join(d.phases), "restarts after the steady window: term, kill, term:K, kill:K"),
        ("--bot-every", d.bot_every, "a bot in the last seat of every Kth game (0: none)"),
        ("--spectator-every", d.spectator_every, None),
        ("--players-per-lobby-watcher", d.players_per_lobby_watcher, None),
        ("--drain-seconds", d.drain_seconds, "the servers' DRAIN_SECONDS"),
        ("--close-rate", d.close_rate, "the servers' DRAIN_CLOSE_RATE"),
        ("--restart-spread", d.restart_spread, "the pages' wait after a 1012 is 0.25 s plus up to this"),
        ("--database-url", DEFAULT_DATABASE_URL, "PostgreSQL on 127.0.0.1; created if missing"),
        ("--redis-url", DEFAULT_REDIS_URL, "its database is flushed at start"),
        ("--port", d.port, "nginx's port; the servers take the next ones"),
        ("--run-dir", d.run_dir, "scripts/prod's RUN_DIR"),
        ("--app-role", d.app_role, "the servers' PostgreSQL role (scripts/prod's APP_ROLE)"),
        ("--seed", d.seed, None),
    )

    def handle(self, *args: Any, **options: Any) -> None:
        cfg = config(DeployConfig, options, phases=tuple(p for p in options["phases"].split(",") if p))
        result = guarded(lambda: run_deploy_bench(cfg, self.stdout.write), cfg.database_url, cfg.redis_url)
        if result.failures:
            raise CommandError(f"{len(result.failures)} must(s) failed: " + "; ".join(result.failures))
