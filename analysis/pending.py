"""Whether a game's analysis request is still under way, or was given up: read by the services
(one pending request per person), the selectors (the status) and the socket (its read again after
a silence)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.utils import timezone

from .models import AnalysisRequest, RequestStatus

# A request nobody has worked on this long is given up (its worker died, or the queue lost it), so
# the game may be asked for again and its asker is free: a running analysis writes its progress
# every 2% of the game (services.PROGRESS_STEP: seconds apart); a queued one may wait behind others a while.
RUNNING_STALE = timedelta(minutes=3)
QUEUED_STALE = timedelta(hours=1)


def request_is_stale(row: AnalysisRequest, now: Any = None) -> bool:
    now = now or timezone.now()
    if row.status == RequestStatus.RUNNING:
        return now - row.updated_at > RUNNING_STALE
    if row.status == RequestStatus.QUEUED:
        return now - row.asked_at > QUEUED_STALE
    return False


def request_is_pending(row: AnalysisRequest | None) -> bool:
    return (
        row is not None
        and row.status in (RequestStatus.QUEUED, RequestStatus.RUNNING)
        and not request_is_stale(row)
    )
