"""How fast a long game's replay opens (bench/replay.py): nothing is stored."""

from __future__ import annotations

from typing import Any

from bench.kit.command import BenchCommand
from bench.replay import run_replay_bench


class Command(BenchCommand):
    help = "Measure how fast a long replay opens (nothing is stored)."
    options = (("--events", 1000, None), ("--seed", 1, None), ("--repeat", 5, None))

    def handle(self, *args: Any, **opts: Any) -> None:
        run_replay_bench(opts["events"], opts["seed"], opts["repeat"], self.stdout.write)
