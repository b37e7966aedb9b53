"""Refold a tournament's results from its games' event logs and compare with the stored ones."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.models import Tournament
from tournaments.services import tournament_differences, tournament_refold, tournament_write


class Command(BaseCommand):
    help = (
        "Refold a tournament's results from its games' event logs; report where the stored standings "
        "differ (exit status 1), or with --write store the refold."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("id", type=int)
        parser.add_argument("--write", action="store_true")

    def handle(self, *args: Any, **options: Any) -> None:
        t = Tournament.objects.filter(pk=options["id"]).first()
        if t is None:
            raise CommandError(f"no tournament {options['id']}")
        refold = tournament_refold(t)
        if options["write"]:
            tournament_write(t, refold)
            self.stdout.write(f"refolded {refold.games} games; {len(refold.tallies)} entries written")
            return
        lines = tournament_differences(t, refold)
        for line in lines:
            self.stdout.write(line)
        self.stdout.write(
            f"refolded {refold.games} games; {len(refold.tallies)} entries; {len(lines)} differences"
        )
        if lines:
            raise CommandError("the stored standings differ from the event logs")
