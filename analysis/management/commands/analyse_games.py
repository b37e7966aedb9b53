"""`manage.py analyse_games`: make (or remake) finished games' analyses, with a progress bar."""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import date, datetime
from datetime import time as day_start
from typing import Any, TextIO

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from analysis.services import AnalysisRefused, analysis_run
from games.selectors import finished_game_ids


def progress_bar(stream: TextIO, total: int) -> Callable[[int], None]:
    """A text bar on `stream`: redrawn in place on a terminal, a line per 10% otherwise."""
    tty = stream.isatty()
    every = max(1, total // (100 if tty else 10))

    def show(done: int) -> None:
        if done % every and done != total:
            return
        filled = 30 * done // max(1, total)
        bar = f"[{'#' * filled}{'.' * (30 - filled)}] {done}/{total} games"
        stream.write(("\r" + bar + ("\n" if done == total else "")) if tty else bar + "\n")
        stream.flush()

    return show


class Command(BaseCommand):
    help = (
        "Analyse every finished game (or one, or those finished since a date) that has no analysis "
        "at today's version; --rebuild remakes existing ones."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--game", type=int, help="only this game")
        parser.add_argument("--since", type=date.fromisoformat, help="games finished on or after YYYY-MM-DD")
        parser.add_argument("--rebuild", action="store_true", help="remake analyses that exist")
        parser.add_argument("--playouts", type=int, help="worlds per step and option (default: settings)")

    def handle(self, *args: Any, **options: Any) -> None:
        since = options["since"]
        start = timezone.make_aware(datetime.combine(since, day_start.min)) if since else None
        ids = finished_game_ids(since=start, game_id=options["game"])
        if options["game"] is not None and not ids:
            raise CommandError(f"game {options['game']} is not a finished game")
        bar = progress_bar(self.stderr._out, len(ids))
        began = time.perf_counter()
        cpu = 0.0
        for n, game_id in enumerate(ids, 1):
            try:
                made = analysis_run(game_id, rebuild=options["rebuild"], playouts=options["playouts"])
                cpu += made.seconds
            except AnalysisRefused as refused:
                self.stderr.write(f"game {game_id}: {refused.detail}")
            bar(n)
        self.stdout.write(
            f"{len(ids)} games analysed in {time.perf_counter() - began:.1f} s "
            f"({cpu:.1f} s of analysis CPU stored)"
        )
