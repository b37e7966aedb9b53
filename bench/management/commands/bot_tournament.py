"""`manage.py bot_tournament --bots hard normal --games N`: bots against bots, no database."""

from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import CommandError

from bench.kit.command import BenchCommand
from bench.management.commands.simulate import progress_bar
from harehra.bots import LEVELS
from harehra.bots.tournament import play


class Command(BenchCommand):
    help = (
        "Play seat-rotated games between bot levels through the engine and print each level's win "
        "rate (Wilson 95% interval), by seat, and its time per decision."
    )
    requires_system_checks: list[str] = []
    options = (
        ("--bots", None, "one level per seat, 2 to 4", {"nargs": "+", "required": True, "choices": LEVELS}),
        ("--games", 200, "games to play (default 200)"),
        ("--seed", 0, "seed of the deals and reshuffles"),
        ("--playouts", None, "the hard bot's playouts per decision (default: its own)", {"type": int}),
    )

    def handle(self, *args: Any, **options: Any) -> None:
        bots, games, playouts = options["bots"], options["games"], options["playouts"]
        if not 2 <= len(bots) <= 4:
            raise CommandError("--bots names 2 to 4 levels, one per seat")
        if games < 1:
            raise CommandError("--games must be at least 1")
        if playouts is not None and playouts < 1:
            raise CommandError("--playouts must be at least 1")
        bar = progress_bar(sys.stderr, games, min_total=1)
        self.lines(play(bots, games, seed=options["seed"], progress=bar, playouts=playouts).lines())
