"""How fast a moment's picture is served (bench/preview.py): nothing is stored."""

from __future__ import annotations

from typing import Any

from bench.kit.command import BenchCommand
from bench.preview import run_preview_bench


class Command(BenchCommand):
    help = "Measure the link-preview picture: p50/p95 cold, warm and revalidated (nothing is stored)."
    options = (
        ("--events", 600, None),
        ("--seed", 1, None),
        ("--count", 40, "steps drawn (each cold, then warm)"),
    )

    def handle(self, *args: Any, **opts: Any) -> None:
        run_preview_bench(opts["events"], opts["seed"], opts["count"], self.stdout.write)
