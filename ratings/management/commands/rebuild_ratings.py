"""Refold every rated finished game from its event log, by today's rules, and compare with the stored
ratings and placings."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from ratings.services import ratings_differences, ratings_refold, ratings_write


class Command(BaseCommand):
    help = (
        "Refold every rated finished game, in the order they were rated, from its event log; report "
        "where the stored ratings or placings differ, games rated that the rules no longer rate "
        "included (exit status 1), or with --write store the refold."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--write", action="store_true", help="replace the stored ratings by the refold")

    def handle(self, *args: Any, **options: Any) -> None:
        refold = ratings_refold()
        if options["write"]:
            ratings_write(refold)
            self.stdout.write(
                f"refolded {len(refold.order)} rated games; {len(refold.skills)} ratings written; "
                f"{len(refold.dropped)} games no longer rated"
            )
            return
        lines = ratings_differences(refold)
        for line in lines:
            self.stdout.write(line)
        self.stdout.write(
            f"refolded {len(refold.order)} rated games; {len(refold.skills)} ratings; "
            f"{len(lines)} differences"
        )
        if lines:
            raise CommandError("the stored ratings differ from the event logs")
