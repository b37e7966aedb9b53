"""Making and keeping games' analyses. The one write path of GameAnalysis."""

from __future__ import annotations

import time
from collections.abc import Callable

from celery import current_app as app
from django.conf import settings
from django.db import transaction

from games.selectors import game_finished_log
from harehra.analysis import ANALYSIS_VERSION, DEFAULT_PLAYOUTS, analyse, analysis_json

from .models import GameAnalysis

Progress = Callable[[int, int], None]


class AnalysisRefused(Exception):
    """A game that cannot be analysed: {code, detail} as the API answers it."""

    def __init__(self, code: str, detail: str) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail

    def as_dict(self) -> dict[str, str]:
        return {"code": self.code, "detail": self.detail}


def analysis_run(
    game_id: int,
    *,
    rebuild: bool = False,
    playouts: int | None = None,
    progress: Progress | None = None,
) -> GameAnalysis:
    """The game's analysis at today's version, made now unless one exists (or `rebuild`).
    Only a game that ended by the rules is analysed: a running or aborted one is refused."""
    if not rebuild:
        found = GameAnalysis.objects.filter(game_id=game_id, version=ANALYSIS_VERSION).first()
        if found is not None:
            return found
    events = game_finished_log(game_id)
    if events is None:
        raise AnalysisRefused("game_not_finished", "only a game that ended with a win or a draw is analysed")
    budget = playouts or getattr(settings, "ANALYSIS_PLAYOUTS", DEFAULT_PLAYOUTS)
    start = time.process_time()
    body = analysis_json(analyse(events, playouts=budget, salt=f"game {game_id}", progress=progress))
    seconds = time.process_time() - start
    with transaction.atomic():
        analysis, _ = GameAnalysis.objects.update_or_create(
            game_id=game_id,
            version=ANALYSIS_VERSION,
            defaults={"playouts": budget, "body": body, "seconds": seconds},
        )
        # An older version is replaced by the newer one once that is made.
        GameAnalysis.objects.filter(game_id=game_id, version__lt=ANALYSIS_VERSION).delete()
    return analysis


def analysis_game_ended(game_id: int) -> None:
    """ "A game ended" (games/ended.py): with ANALYSIS_AUTOMATIC set, its analysis is queued once
    the game's end commits, on the analysis queue (never in the move's transaction)."""
    if not getattr(settings, "ANALYSIS_AUTOMATIC", False):
        return
    # Sent by name, so services never import the tasks (they import the services).
    transaction.on_commit(lambda: app.send_task("analysis.tasks.analyse_game", args=[game_id]))
