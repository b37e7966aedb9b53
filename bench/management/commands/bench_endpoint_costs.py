"""What one request costs, per endpoint (bench/endpoint_costs.py): nothing is stored."""

from __future__ import annotations

from typing import Any

from bench.endpoint_costs import run_endpoint_costs
from bench.kit.command import BenchCommand


class Command(BenchCommand):
    help = "Measure each endpoint whose cost grows with a game's length: p50/p95 and CPU per request."
    options = (
        ("--events", 700, "the game's length, at least"),
        ("--seed", 1, None),
        ("--count", 20, "requests per endpoint"),
    )

    def handle(self, *args: Any, **opts: Any) -> None:
        run_endpoint_costs(opts["events"], opts["seed"], opts["count"], self.stdout.write)
