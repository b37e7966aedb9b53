"""How fast a moment's picture is served (bench/preview.py): nothing is stored."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from bench.preview import run_preview_bench


class Command(BaseCommand):
    help = "Measure the link-preview picture: p50/p95 cold, warm and revalidated (nothing is stored)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--events", type=int, default=600)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--count", type=int, default=40, help="steps drawn (each cold, then warm)")

    def handle(self, *args: Any, **opts: Any) -> None:
        run_preview_bench(opts["events"], opts["seed"], opts["count"], self.stdout.write)
