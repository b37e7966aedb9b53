"""What one request costs, per endpoint (bench/endpoint_costs.py): nothing is stored."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from bench.endpoint_costs import run_endpoint_costs


class Command(BaseCommand):
    help = "Measure each endpoint whose cost grows with a game's length: p50/p95 and CPU per request."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--events", type=int, default=700, help="the game's length, at least")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--count", type=int, default=20, help="requests per endpoint")

    def handle(self, *args: Any, **opts: Any) -> None:
        run_endpoint_costs(opts["events"], opts["seed"], opts["count"], self.stdout.write)
