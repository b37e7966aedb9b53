"""`manage.py analysis_calibration --games N [--compare-seeds K]`: whether the replay analysis's win
chance means what it says, and how much two seeds disagree. Bots play; no database is used."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from bench.calibration import REFERENCE_FACTOR, Calibration, calibrate, compare_reference, compare_seeds
from bench.management.commands.simulate import progress_bar
from harehra.analysis import DEFAULT_PLAYOUTS
from harehra.bots import LEVELS


class Command(BaseCommand):
    help = (
        "Play bot games of mixed levels and print a reliability table of the analysis's public win "
        "chance (predicted decile against observed win rate, Brier score); with --compare-seeds, "
        "analyse games twice with two seeds and print how far the runs agree."
    )
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--games", type=int, default=100, help="games to calibrate on (default 100; 0: none)"
        )
        parser.add_argument(
            "--steps", type=int, default=10, help="decision tables sampled per game (default 10)"
        )
        parser.add_argument(
            "--players", type=int, nargs="+", default=[4], help="table sizes, cycled game by game (default 4)"
        )
        parser.add_argument(
            "--levels",
            nargs="+",
            choices=LEVELS,
            default=list(LEVELS),
            help="bot levels drawn for each seat (default: all)",
        )
        parser.add_argument("--playouts", type=int, default=DEFAULT_PLAYOUTS, help="worlds per estimate")
        parser.add_argument(
            "--hard-playouts",
            type=int,
            default=100,
            help="the hard bot's playouts per decision (default 100)",
        )
        parser.add_argument(
            "--compare-seeds", type=int, default=0, metavar="K", help="also analyse K games twice"
        )
        parser.add_argument(
            "--save", metavar="FILE", help="write the calibration's samples to FILE (JSON), to pool runs"
        )
        parser.add_argument(
            "--pool",
            nargs="+",
            metavar="FILE",
            help="print the calibration table of the samples saved by several runs (--save), and stop",
        )
        parser.add_argument(
            "--reference",
            type=int,
            default=0,
            metavar="K",
            help=f"also judge every decision of K games at the budget (two seeds) and at {REFERENCE_FACTOR} "
            "times it (the reference), and compare the labels",
        )
        parser.add_argument(
            "--first", type=int, default=0, help="the first game of --reference (to run a set in parts)"
        )
        parser.add_argument("--seed", type=int, default=0, help="seed of the games and the samples")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["pool"]:
            runs = [json.loads(Path(name).read_text()) for name in options["pool"]]
            for line in Calibration.pooled(runs).lines():
                self.stdout.write(line)
            return
        games, compare, reference = options["games"], options["compare_seeds"], options["reference"]
        if (
            min(games, compare, reference, options["first"]) < 0
            or options["steps"] < 1
            or options["playouts"] < 1
        ):
            raise CommandError(
                "--games, --compare-seeds, --reference and --first are 0 or more; "
                "--steps and --playouts 1 or more"
            )
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
            for line in result.lines():
                self.stdout.write(line)
            if options["save"]:
                Path(options["save"]).write_text(json.dumps(result.samples()))
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
            for line in agreement.lines():
                self.stdout.write(line)
        if reference:
            # The games of --compare-seeds: between easy and normal bots, whose labels have work to do.
            against = compare_reference(
                reference,
                players=options["players"][0],
                levels=[level for level in options["levels"] if level != "hard"] or ["easy", "normal"],
                playouts=options["playouts"],
                hard_playouts=options["hard_playouts"],
                seed=options["seed"],
                first=options["first"],
                progress=progress_bar(sys.stderr, reference, min_total=1),
                clock=time.process_time,
            )
            for line in against.lines():
                self.stdout.write(line)
