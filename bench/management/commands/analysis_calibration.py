"""`manage.py analysis_calibration --games N [--compare-seeds K]`: whether the replay analysis's win
chance means what it says, and how much two seeds disagree. Bots play; no database is used."""

from __future__ import annotations

import sys
import time
from typing import Any

from django.core.management.base import CommandError

from bench.calibration import calibrate, compare_seeds
from bench.kit.command import BenchCommand
from bench.management.commands.simulate import progress_bar
from harehra.analysis import DEFAULT_PLAYOUTS
from harehra.bots import LEVELS


class Command(BenchCommand):
    help = (
        "Play bot games of mixed levels and print a reliability table of the analysis's public win "
        "chance (predicted decile against observed win rate, Brier score); with --compare-seeds, "
        "analyse games twice with two seeds and print how far the runs agree."
    )
    requires_system_checks: list[str] = []

    options = (
        ("--games", 100, "games to calibrate on (default 100; 0: none)"),
        ("--steps", 10, "decision tables sampled per game (default 10)"),
        ("--players", [4], "table sizes, cycled game by game (default 4)", {"type": int, "nargs": "+"}),
        (
            "--levels",
            list(LEVELS),
            "bot levels drawn for each seat (default: all)",
            {"nargs": "+", "choices": LEVELS},
        ),
        ("--playouts", DEFAULT_PLAYOUTS, "worlds per estimate"),
        ("--hard-playouts", 100, "the hard bot's playouts per decision (default 100)"),
        ("--compare-seeds", 0, "also analyse K games twice", {"metavar": "K"}),
        ("--seed", 0, "seed of the games and the samples"),
    )

    def handle(self, *args: Any, **options: Any) -> None:
        games, compare = options["games"], options["compare_seeds"]
        if games < 0 or compare < 0 or options["steps"] < 1 or options["playouts"] < 1:
            raise CommandError("--games and --compare-seeds are 0 or more, --steps and --playouts 1 or more")
        if any(not 2 <= n <= 6 for n in options["players"]):
            raise CommandError("--players are table sizes from 2 to 6")
        if games:
            began, cpu = time.perf_counter(), time.process_time()
            result = calibrate(
                games,
                players=options["players"],
                levels=options["levels"],
                steps_per_game=options["steps"],
                playouts=options["playouts"],
                hard_playouts=options["hard_playouts"],
                seed=options["seed"],
                progress=progress_bar(sys.stderr, games, min_total=1),
            )
            self.lines(result.lines())
            self.stdout.write(
                f"({time.perf_counter() - began:.0f} s, {time.process_time() - cpu:.0f} s CPU; "
                f"levels {' '.join(options['levels'])}, tables of {' '.join(map(str, options['players']))}, "
                f"{options['playouts']} playouts)"
            )
        if compare:
            # Games between easy and normal bots: the easy bot's moves give the labels work to do.
            agreement = compare_seeds(
                compare,
                players=options["players"][0],
                levels=[level for level in options["levels"] if level != "hard"] or ["easy", "normal"],
                playouts=options["playouts"],
                hard_playouts=options["hard_playouts"],
                seed=options["seed"],
                progress=progress_bar(sys.stderr, compare, min_total=1),
                clock=time.process_time,
            )
            self.lines(agreement.lines())
