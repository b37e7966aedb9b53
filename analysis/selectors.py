"""Reads of a game's analysis: the stored one at today's version, or how far its request got."""

from __future__ import annotations

import json
from typing import Any

from games.models import Game
from harehra.analysis import ANALYSIS_VERSION

from .models import AnalysisRequest, GameAnalysis, RequestStatus
from .services import request_is_pending, request_is_stale


def analysis_status(game: Game) -> dict[str, Any]:
    """{status: done, analysis, playouts, made_at} when the analysis at today's version exists;
    {status: queued | running, progress: {done, total}} while one is made; {status: failed, code}
    when the last try failed; {status: none} otherwise (a request given up counts as none)."""
    made = (
        GameAnalysis.objects.filter(game=game, version=ANALYSIS_VERSION)
        .values("body", "playouts", "created_at")
        .first()
    )
    base: dict[str, Any] = {"version": ANALYSIS_VERSION}
    if made is not None:
        return {
            **base,
            "status": RequestStatus.DONE.value,
            "playouts": made["playouts"],
            "made_at": made["created_at"].isoformat(),
            "analysis": json.loads(made["body"]),
        }
    row = AnalysisRequest.objects.filter(game=game, version=ANALYSIS_VERSION).first()
    if request_is_pending(row):
        assert row is not None
        return {**base, "status": row.status, "progress": {"done": row.done, "total": row.total}}
    if row is not None and row.status == RequestStatus.FAILED:
        return {**base, "status": RequestStatus.FAILED.value, "code": row.code}
    if row is not None and request_is_stale(row):
        return {**base, "status": "none", "code": "analysis_lost"}
    return {**base, "status": "none"}
