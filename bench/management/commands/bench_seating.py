"""How long seating a tournament round takes (goal: 500 players in at most 200 ms)."""

from __future__ import annotations

from typing import Any

from bench.kit.command import BenchCommand
from bench.seating import arena_seating_ms, swiss_rounds


class Command(BenchCommand):
    help = "Seat simulated Swiss rounds and an arena of N players; print the time per round."
    options = (("--players", 500, None), ("--rounds", 7, None), ("--seed", 1, None))

    def handle(self, *args: Any, **options: Any) -> None:
        n, rounds = options["players"], options["rounds"]
        worst = 0.0
        for size in (3, 4, 5, 6):
            figures = swiss_rounds(n, size, rounds, options["seed"])
            worst = max(worst, *(f.ms for f in figures))
            line = ", ".join(f"r{f.round} {f.ms:.1f} ms/{f.conflicts} repeats" for f in figures)
            self.stdout.write(f"swiss {n} players, tables of {size}: {line}")
            arena = arena_seating_ms(n, size, options["seed"])
            worst = max(worst, arena)
            self.stdout.write(f"arena {n} players free at once, tables of {size}: {arena:.1f} ms")
        self.stdout.write(f"slowest seating of {n} players: {worst:.1f} ms (goal 200 ms)")
