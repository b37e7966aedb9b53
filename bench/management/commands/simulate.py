"""`manage.py simulate`: random-legal games through the engine; speed, game lengths, wins by seat."""

from __future__ import annotations

import sys
from typing import Any, TextIO

from django.core.management.base import CommandError

from bench.kit.command import BenchCommand
from harehra import EngineError
from harehra.simulation import Progress, simulate


def progress_bar(stream: TextIO, total: int, min_total: int = 1000) -> Progress | None:
    """A text bar on `stream`: redrawn in place on a terminal, a line per 10% otherwise."""
    tty = stream.isatty()
    if not tty and total < min_total:
        return None
    step = max(1, total // (100 if tty else 10))

    def show(done: int, total: int) -> None:
        if done % step and done != total:
            return
        filled = 30 * done // total
        bar = f"[{'#' * filled}{'.' * (30 - filled)}] {done}/{total} games"
        stream.write(("\r" + bar + ("\n" if done == total else "")) if tty else bar + "\n")
        stream.flush()

    return show


class Command(BenchCommand):
    help = "Play random-legal games through the rules engine and report speed and game statistics."
    requires_system_checks: list[str] = []
    options = (
        ("--games", 1000, "games to play (default 1000)"),
        ("--players", 4, "players per game (default 4)"),
        ("--packs", [], "bonus packs, e.g. big-warren", {"nargs": "*"}),
        ("--mini", 0, "Hare Mini cards added to the deck"),
        ("--seed", 0, "seed of the simulator's RNG"),
        ("--check", False, "assert the invariants after every event (slower)"),
        ("--compare", None, "A/B: the same games with the engine of git revision REF", {"metavar": "REF"}),
        ("--rounds", 3, "rounds of --compare (default 3)"),
        ("--no-events", False, "play as search playouts do: no events made"),
    )

    def handle(self, *args: Any, **options: Any) -> None:
        games = options["games"]
        if games < 1:
            raise CommandError("--games must be at least 1")
        if options["compare"]:
            from bench.engine import compare

            self.lines(
                compare(options["compare"], games, options["players"], options["seed"], options["rounds"])
            )
            return
        try:
            report = simulate(
                games,
                options["players"],
                packs=options["packs"],
                mini=options["mini"],
                seed=options["seed"],
                check=options["check"],
                record=not options["no_events"],
                progress=progress_bar(sys.stderr, games),
            )
        except EngineError as exc:
            raise CommandError(exc.detail) from exc
        self.lines(report.lines())
        if report.violations:
            raise CommandError(f"{report.violations} invariant violations")
