"""One client flooding the costly endpoints of a running site, and a seated player meanwhile
(bench/flood.py)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from bench.flood import PHASES, FloodConfig, run_flood


class Command(BaseCommand):
    help = (
        "Flood /api/replays/import/, /frames/ and analysis requests of a running site (e.g. scripts/prod "
        "through nginx) and measure a seated player's GET /api/games/<id>/ meanwhile. Run with the site's "
        "DATABASE_URL (its owner's) and REDIS_URL."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--base", default="http://127.0.0.1:8080", help="the site, e.g. nginx of scripts/prod"
        )
        parser.add_argument("--seconds", type=float, default=60.0, help="each phase's length")
        parser.add_argument("--connections", type=int, default=8, help="the flooding client's connections")
        parser.add_argument("--askers", type=int, default=20, help="accounts asking for analyses")
        parser.add_argument("--events", type=int, default=700, help="the games' length, at least")
        parser.add_argument("--phases", default=",".join(PHASES), help=f"some of {','.join(PHASES)}")

    def handle(self, *args: Any, **opts: Any) -> None:
        phases = tuple(p for p in opts["phases"].split(",") if p)
        unknown = set(phases) - set(PHASES)
        if unknown:
            raise SystemExit(f"unknown phases: {sorted(unknown)}")
        cfg = FloodConfig(
            base=opts["base"].rstrip("/"),
            seconds=opts["seconds"],
            connections=opts["connections"],
            askers=opts["askers"],
            events=opts["events"],
            phases=phases,
        )
        run_flood(cfg, self.stdout.write)
