"""One client flooding the costly endpoints of a running site, and a seated player meanwhile
(bench/flood.py)."""

from __future__ import annotations

from typing import Any

from bench.flood import PHASES, FloodConfig, run_flood
from bench.kit.command import BenchCommand, config


class Command(BenchCommand):
    help = (
        "Flood the replay import, frames and analysis requests of a running site (e.g. scripts/prod "
        "through nginx) and measure a seated player's game reads meanwhile. Run with the site's "
        "DATABASE_URL (its owner's) and REDIS_URL."
    )
    options = (
        ("--base", "http://127.0.0.1:8080", "the site, e.g. nginx of scripts/prod"),
        ("--seconds", 60.0, "each phase's length"),
        ("--connections", 8, "the flooding client's connections"),
        ("--askers", 20, "accounts asking for analyses"),
        ("--events", 700, "the games' length, at least"),
        ("--phases", ",".join(PHASES), f"some of {','.join(PHASES)}"),
    )

    def handle(self, *args: Any, **opts: Any) -> None:
        phases = tuple(p for p in opts["phases"].split(",") if p)
        unknown = set(phases) - set(PHASES)
        if unknown:
            raise SystemExit(f"unknown phases: {sorted(unknown)}")
        run_flood(config(FloodConfig, opts, base=opts["base"].rstrip("/"), phases=phases), self.stdout.write)
