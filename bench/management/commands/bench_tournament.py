"""A whole arena and Swiss event with bot-played entrants, through the real services and the beat
task: seating, games, results, standings updates, pushes, waits, and the refold."""

from __future__ import annotations

import os
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection

from bench.tournament import TournamentBenchConfig, report, run_tournament_bench


class Command(BaseCommand):
    help = (
        "Play an arena and a Swiss event of N bot-played entrants (default 200) through the services "
        "and the beat's task in this process; print seating times, games, results, standings update "
        "times, pushes per result, free-to-seated waits and whether rebuild_tournament agrees. Leaves "
        "its users, events and games in the database."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        d = TournamentBenchConfig()
        parser.add_argument("--players", type=int, default=d.players)
        parser.add_argument("--table-size", type=int, default=d.table_size)
        parser.add_argument("--arena-minutes", type=int, default=d.arena_minutes, help="the issue's goal: 10")
        parser.add_argument("--rounds", type=int, default=d.rounds, help="Swiss rounds (the issue's goal: 5)")
        parser.add_argument("--format", choices=["arena", "swiss", "both"], default="both")
        parser.add_argument("--threads", type=int, default=d.threads, help="threads playing the games")
        parser.add_argument("--beat", type=float, default=d.beat_seconds, help="the beat's period, seconds")
        parser.add_argument("--slice", type=int, default=d.slice_moves, help="decisions of a game per turn")
        parser.add_argument(
            "--level", default=d.level, help="the bots' choice the entrants play (easy, normal)"
        )
        parser.add_argument("--casual", action="store_true", help="unrated events (no rating per game)")
        parser.add_argument("--seed", type=int, default=d.seed)

    def handle(self, *args: Any, **options: Any) -> None:
        if connection.vendor != "postgresql":
            raise CommandError("run it on PostgreSQL (DATABASE_URL): the figures are the site's")
        if os.environ.get("REDIS_URL"):
            # Its moves would arm tasks a shared worker runs (bots, timers), playing beside the driver.
            raise CommandError("run it without REDIS_URL: the bench plays every seat itself")
        cfg = TournamentBenchConfig(
            players=options["players"],
            table_size=options["table_size"],
            arena_minutes=options["arena_minutes"],
            rounds=options["rounds"],
            formats=("arena", "swiss") if options["format"] == "both" else (options["format"],),
            threads=options["threads"],
            beat_seconds=options["beat"],
            slice_moves=options["slice"],
            level=options["level"],
            rated=not options["casual"],
            seed=options["seed"],
        )
        figures = run_tournament_bench(cfg, lambda line: self.stdout.write(line))
        for line in report(cfg, figures):
            self.stdout.write(line)
        if not all(f.rebuild_ok for f in figures):
            raise CommandError("rebuild_tournament differs from the stored standings")
