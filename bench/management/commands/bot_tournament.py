"""`manage.py bot_tournament --bots hard normal --games N`: bots against bots, no database."""

from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from bench.management.commands.simulate import progress_bar
from harehra.bots import LEVELS
from harehra.bots.tournament import play


class Command(BaseCommand):
    help = (
        "Play seat-rotated games between bot levels through the engine and print each level's win "
        "rate (Wilson 95% interval), by seat, and its time per decision."
    )
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--bots", nargs="+", required=True, choices=LEVELS, help="one level per seat, 2 to 4"
        )
        parser.add_argument("--games", type=int, default=200, help="games to play (default 200)")
        parser.add_argument("--seed", type=int, default=0, help="seed of the deals and reshuffles")
        parser.add_argument(
            "--playouts",
            type=int,
            default=None,
            help="the hard bot's playouts per decision (default: its own)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        bots, games = options["bots"], options["games"]
        if not 2 <= len(bots) <= 4:
            raise CommandError("--bots names 2 to 4 levels, one per seat")
        if games < 1:
            raise CommandError("--games must be at least 1")
        bar = progress_bar(sys.stderr, games, min_total=1)
        if options["playouts"] is not None and options["playouts"] < 1:
            raise CommandError("--playouts must be at least 1")
        result = play(bots, games, seed=options["seed"], progress=bar, playouts=options["playouts"])
        for line in result.lines():
            self.stdout.write(line)
