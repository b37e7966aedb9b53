"""An arena and a Swiss event of bot-played entrants through the real services and the beat task."""

from __future__ import annotations

import os
from typing import Any

from django.core.management.base import CommandError
from django.db import connection

from bench.kit.command import BenchCommand, config
from bench.tournament import TournamentBenchConfig, report, run_tournament_bench

d = TournamentBenchConfig()


class Command(BenchCommand):
    help = (
        "Play an arena and a Swiss event of N bot-played entrants through the services and the "
        "beat's task in this process; print seating and standings times, games, results, pushes, "
        "waits and whether rebuild_tournament agrees. Leaves its data in the database."
    )
    options = (
        ("--players", d.players, None),
        ("--table-size", d.table_size, None),
        ("--arena-minutes", d.arena_minutes, "the issue's goal: 10"),
        ("--rounds", d.rounds, "Swiss rounds (the issue's goal: 5)"),
        ("--format", ("both", "arena", "swiss"), None),
        ("--threads", d.threads, "threads playing the games"),
        ("--beat", d.beat_seconds, "the beat's period, seconds"),
        ("--slice", d.slice_moves, "decisions of a game per turn"),
        ("--level", d.level, "the bots' choice the entrants play (easy, normal)"),
        ("--casual", False, "unrated events (no rating per game)"),
        ("--seed", d.seed, None),
    )

    def handle(self, *args: Any, **options: Any) -> None:
        if connection.vendor != "postgresql":
            raise CommandError("run it on PostgreSQL (DATABASE_URL): the figures are the site's")
        if os.environ.get("REDIS_URL"):
            # Its moves would arm tasks a shared worker runs (bots, timers), playing beside the driver.
            raise CommandError("run it without REDIS_URL: the bench plays every seat itself")
        formats = ("arena", "swiss") if options["format"] == "both" else (options["format"],)
        cfg = config(
            TournamentBenchConfig,
            options,
            formats=formats,
            beat_seconds=options["beat"],
            slice_moves=options["slice"],
            rated=not options["casual"],
        )
        figures = run_tournament_bench(cfg, self.stdout.write)
        self.lines(report(cfg, figures))
        if not all(f.rebuild_ok for f in figures):
            raise CommandError("rebuild_tournament differs from the stored standings")
