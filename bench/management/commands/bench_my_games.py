"""What My games costs a server for a person with many slow games (bench/my_games.py): nothing is
stored."""

from __future__ import annotations

from typing import Any

from bench.kit.command import BenchCommand
from bench.my_games import run_my_games


class Command(BenchCommand):
    help = "Measure My games (page and API) for a person with 1 and with N slow games: p50/p95, CPU, DB time."
    options = (
        ("--games", 50, "the person's slow games"),
        ("--history", 500, "finished games of theirs before"),
        ("--count", 30, "requests per endpoint"),
    )

    def handle(self, *args: Any, **opts: Any) -> None:
        run_my_games(opts["games"], opts["history"], opts["count"], self.stdout.write)
