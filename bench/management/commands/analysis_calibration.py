"""`manage.py analysis_calibration --games N [--compare-seeds K]`: whether the replay analysis's win
chance means what it says, and how much two seeds disagree. Bots play; no database is used."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

from django.core.management.base import CommandError

from bench.calibration import (
    REFERENCE_FACTOR,
    Calibration,
    calibrate,
    compare_reference,
    compare_seeds,
    fit_map,
    remapped,
)
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
        ("--save", None, "write the calibration's samples to FILE (JSON), to pool runs", {"metavar": "FILE"}),
        (
            "--pool",
            None,
            "print the calibration table of the samples saved by several runs (--save), and stop",
            {"nargs": "+", "metavar": "FILE"},
        ),
        (
            "--fit",
            None,
            "fit the calibration map to the raw shares saved by several runs (--save), print its "
            "parameters and their table, and stop",
            {"nargs": "+", "metavar": "FILE"},
        ),
        (
            "--reference",
            0,
            f"also judge every decision of K games at the budget (two seeds) and at {REFERENCE_FACTOR} "
            "times it (the reference), and compare the labels",
            {"metavar": "K"},
        ),
        ("--first", 0, "the first game of --reference (to run a set in parts)"),
        ("--seed", 0, "seed of the games and the samples"),
    )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["pool"]:
            runs = [json.loads(Path(name).read_text()) for name in options["pool"]]
            self.lines(Calibration.pooled(runs).lines())
            return
        if options["fit"]:
            runs = [json.loads(Path(name).read_text()) for name in options["fit"]]
            samples = Calibration.pooled(runs)
            if len(samples.raw) != len(samples.predicted) or len(samples.table) != len(samples.raw):
                raise CommandError("--fit needs runs saved with their raw shares and steps")
            power, lead, brier = fit_map(samples)
            self.stdout.write(f"fitted: power {power:.2f}, lead {lead:.2f}, Brier {brier:.4f}")
            self.stdout.write("the raw shares:")
            self.lines(remapped(samples, 1.0, 0.0).lines())
            self.stdout.write("mapped by the fitted map:")
            self.lines(remapped(samples, power, lead).lines())
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
            self.lines(result.lines())
            if options["save"]:
                Path(options["save"]).write_text(json.dumps(result.samples()))
            self.stdout.write(
                f"({time.perf_counter() - began:.0f} s, {time.process_time() - cpu:.0f} s CPU; "
                f"levels {' '.join(options['levels'])}, tables of {' '.join(map(str, options['players']))}, "
                f"{options['playouts']} playouts)"
            )
        # The games of --compare-seeds and --reference: between easy and normal bots, whose moves
        # give the labels work to do.
        pairs = {
            "players": options["players"][0],
            "levels": [level for level in options["levels"] if level != "hard"] or ["easy", "normal"],
            "playouts": options["playouts"],
            "hard_playouts": options["hard_playouts"],
            "seed": options["seed"],
            "clock": time.process_time,
        }
        if compare:
            self.lines(
                compare_seeds(
                    compare, **pairs, progress=progress_bar(sys.stderr, compare, min_total=1)
                ).lines()
            )
        if reference:
            progress = progress_bar(sys.stderr, reference, min_total=1)
            self.lines(
                compare_reference(reference, **pairs, first=options["first"], progress=progress).lines()
            )
