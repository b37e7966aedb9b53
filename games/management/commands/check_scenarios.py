"""`manage.py check_scenarios PATH...`: run rules scenarios (files or folders) and report PASS/FAIL."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from harehra.scenarios import ScenarioError, run_file, scenario_files


class Command(BaseCommand):
    help = "Run rules scenarios (JSON files, or folders searched for *.json); fails if any scenario fails."
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("paths", nargs="+", help="scenario files or folders")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            files = scenario_files(options["paths"])
        except ScenarioError as exc:
            raise CommandError(str(exc)) from exc
        if not files:
            raise CommandError("no scenario files found")
        failed = 0
        for path in files:
            result = run_file(path)
            if result.passed:
                self.stdout.write(f"PASS {path}  {result.title}")
            else:
                failed += 1
                self.stdout.write(f"FAIL {path}  {result.title}: {result.describe()}")
        if failed:
            raise CommandError(f"{failed} of {len(files)} scenarios failed")
        self.stdout.write(f"{len(files)} scenarios passed")
