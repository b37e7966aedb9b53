"""`manage.py bench_game_length`: a game's decisions and minutes at each table size."""

from __future__ import annotations

from typing import Any

from bench.game_length import PACE, game_lengths
from bench.kit.command import BenchCommand


class Command(BenchCommand):
    help = (
        "Play games of normal bots through the engine at tables of 2 to 6 and print each size's "
        "decisions per game and minutes at a person's pace (bench/game_length.py says which)."
    )
    requires_system_checks: list[str] = []
    options = (("--games", 300, None), ("--seed", 1, None))

    def handle(self, *args: Any, **options: Any) -> None:
        pace = ", ".join(f"{k.value} {v:.0f} s" for k, v in PACE.items())
        self.stdout.write(f"pace per decision: {pace}")
        for seats in range(2, 7):
            self.stdout.write(game_lengths(seats, options["games"], options["seed"]).line())
