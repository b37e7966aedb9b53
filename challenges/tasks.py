"""The beat's challenge task: thin, it wakes the service."""

from __future__ import annotations

from celery import shared_task

from .services import challenges_expire as expire


@shared_task(name="challenges.tasks.challenges_expire", ignore_result=True)
def challenges_expire() -> int:
    return expire()
