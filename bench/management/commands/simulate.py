"""`manage.py simulate`: random-legal games through the engine; speed, game lengths, wins by seat."""

from __future__ import annotations

import sys
from typing import Any, TextIO

from django.core.management.base import BaseCommand, CommandError, CommandParser

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
        if tty:
            stream.write("\r" + bar + ("\n" if done == total else ""))
        else:
            stream.write(bar + "\n")
        stream.flush()

    return show


class Command(BaseCommand):
    help = "Play random-legal games through the rules engine and report speed and game statistics."
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--games", type=int, default=1000, help="games to play (default 1000)")
        parser.add_argument("--players", type=int, default=4, help="players per game (default 4)")
        parser.add_argument("--packs", nargs="*", default=[], help="bonus packs, e.g. big-warren")
        parser.add_argument("--mini", type=int, default=0, help="Hare Mini cards added to the deck")
        parser.add_argument("--seed", type=int, default=0, help="seed of the simulator's RNG")
        parser.add_argument(
            "--check", action="store_true", help="assert the invariants after every event (slower)"
        )
        parser.add_argument(
            "--compare",
            metavar="REF",
            help="A/B: play the same games with the engine of git revision REF and with this one, "
            "in alternating rounds (--rounds), the reference loop timed before each",
        )
        parser.add_argument("--rounds", type=int, default=3, help="rounds of --compare (default 3)")
        parser.add_argument(
            "--no-events",
            action="store_true",
            help="play as search playouts do: the same rules folded in place, no events made",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        games = options["games"]
        if games < 1:
            raise CommandError("--games must be at least 1")
        if options["compare"]:
            from bench.engine import compare

            for line in compare(
                options["compare"], games, options["players"], options["seed"], options["rounds"]
            ):
                self.stdout.write(line)
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
        for line in report.lines():
            self.stdout.write(line)
        if report.violations:
            raise CommandError(f"{report.violations} invariant violations")
