"""How fast a long game's replay opens (bench/replay.py): nothing is stored."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from bench.replay import run_replay_bench


class Command(BaseCommand):
    help = "Measure how fast a long replay opens (nothing is stored)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--events", type=int, default=1000)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--repeat", type=int, default=5)

    def handle(self, *args: Any, **opts: Any) -> None:
        run_replay_bench(opts["events"], opts["seed"], opts["repeat"], self.stdout.write)
