"""`manage.py bench_live`: many live games over real websockets against real servers."""

from __future__ import annotations

from typing import Any

from bench.browser import BrowserConfig, run_browser_bench, run_browser_compare
from bench.kit.command import COMPARE_REF, DATABASE, LOG_DIR, REDIS, SERVER_ENV, BenchCommand, config, guarded


class Command(BenchCommand):
    help = (
        "Drive N concurrent 4-seat games of pages that do what the site's pages do against real "
        "server processes and report moves/s, each move's latency until every page of its table "
        "holds it, CPU and errors (docs/BENCHMARKS.md); --compare-ref REF alternates REF's code "
        "with this checkout's under the same pages."
    )
    options = (
        ("--games", None, "concurrent 4-seat games", {"type": int, "required": True}),
        ("--servers", 1, "ASGI server processes"),
        ("--duration", 30.0, "measured seconds"),
        ("--warmup", 5.0, "seconds driven before measuring"),
        DATABASE,
        REDIS,
        ("--no-worker", False, "don't start the Celery worker"),
        SERVER_ENV,
        ("--route", ("seat", "game"), "seat: a game's seats spread over the servers; game: on one server"),
        ("--mix", ("browser",), "the pages' mix (the one left)"),
        ("--mean-gap", 4.0, "mean seconds between a game's decisions"),
        COMPARE_REF,
        ("--rounds", 2, "with --compare-ref: old/new pairs; with --slow-games: none/some pairs"),
        (
            "--slow-games",
            0,
            "phases without slow games, then with N slow games' rows in the database "
            "(deadlines over 3 days, some due while it runs), alternately (bench/slow_live.py)",
        ),
        ("--spectator-every", 4, "a watch page on every Nth game (0: none)"),
        ("--players-per-lobby-watcher", 10, "one lobby page per N players (0: none)"),
        ("--http-db", ("close", "persistent"), "close = HTTP requests close their connection"),
        ("--seed", 1, None),
        LOG_DIR,
    )

    def handle(self, *args: Any, **options: Any) -> None:
        url, write, ref = options["database_url"], self.stdout.write, options["compare_ref"]
        cfg = config(BrowserConfig, options, worker=not options["no_worker"])
        if options["slow_games"]:
            from bench.slow_live import run_slow_compare

            n, rounds = options["slow_games"], options["rounds"]
            guarded(lambda: run_slow_compare(cfg, n, rounds, write), url, cfg.redis_url)
            return
        if ref:
            rounds = options["rounds"]
            guarded(lambda: run_browser_compare(cfg, ref, rounds, write), url, cfg.redis_url)
        else:
            guarded(lambda: run_browser_bench(cfg, write), url, cfg.redis_url)
