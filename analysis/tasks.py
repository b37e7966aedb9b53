"""Analyses run on their own queue ("analysis", settings.CELERY_TASK_ROUTES), never beside moves."""

from __future__ import annotations

import logging

from celery import shared_task

from .services import AnalysisRefused, analysis_work

log = logging.getLogger(__name__)


@shared_task(ignore_result=True)
def analyse_game(game_id: int, rebuild: bool = False) -> None:
    """Make the game's analysis, writing its progress to the game's AnalysisRequest as it goes."""
    try:
        analysis_work(game_id, rebuild=rebuild)
    except AnalysisRefused as refused:
        log.info("analysis of game %s refused: %s", game_id, refused.code)
