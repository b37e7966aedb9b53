"""Reads of games' analyses (docs/ANALYSIS.md): a game's stored analysis at today's version or how
far its request got, and a player's averages over their analysed rated games."""

from __future__ import annotations

import json
from typing import Any

from django.db.models import Value
from django.db.models.functions import StrIndex, Substr

from games.models import Game
from harehra.analysis import ANALYSIS_VERSION

from .models import AnalysisRequest, GameAnalysis, RequestStatus
from .pending import request_is_pending, request_is_stale

# The profile averages the latest analysed rated games, this many: each analysis is a text of
# 100 kB or so, and only two short lists of it are read.
PROFILE_GAMES = 100
LUCK_PARTS = ("decisions", "draws", "others")
# The body is canonical JSON (sorted keys, no spaces): "accuracy" is its first key, "luck" a
# short list near its end. Only these pieces are read from the database.
_ACCURACY_KEY, _LUCK_KEY = '"accuracy":', '"luck":'
_HEAD, _LUCK_LENGTH = 200, 1000


def _list_at(text: str, key: str) -> list[Any] | None:
    """The JSON list that follows `key` in `text` (a piece of a body), or None if not all there."""
    at = text.find(key)
    if at < 0:
        return None
    try:
        found, _ = json.JSONDecoder().raw_decode(text, at + len(key))
    except ValueError:
        return None
    return found if isinstance(found, list) else None


def user_analysis_averages(user: Any, limit: int = PROFILE_GAMES) -> dict[str, Any]:
    """The player's average accuracy and luck against skill over their latest `limit` rated games
    analysed at today's version: {games, accuracy, luck: {decisions, draws, others}}, luck in the
    analysis's own unit (a share of 1: win chance gained or lost per game); None with no game."""
    rows = (
        GameAnalysis.objects.filter(
            version=ANALYSIS_VERSION, game__placings__user_id=user.pk, game__placings__rated=True
        )
        .annotate(
            head=Substr("body", 1, _HEAD),
            luck_part=Substr("body", StrIndex("body", Value(_LUCK_KEY)), _LUCK_LENGTH),
        )
        .order_by("-game_id")
        .values_list("pk", "game__placings__seat", "head", "luck_part")[:limit]
    )
    accuracies: list[float] = []
    sums = dict.fromkeys(LUCK_PARTS, 0.0)
    games = 0
    for pk, seat, head, luck_part in rows:
        accuracy, luck = _list_at(head, _ACCURACY_KEY), _list_at(luck_part, _LUCK_KEY)
        if accuracy is None or luck is None:  # cut short by the pieces read: read it whole
            body = json.loads(GameAnalysis.objects.values_list("body", flat=True).get(pk=pk))
            accuracy, luck = body["accuracy"], body["luck"]
        if seat >= len(luck):
            continue
        games += 1
        if accuracy[seat] is not None:
            accuracies.append(accuracy[seat])
        for part in LUCK_PARTS:
            sums[part] += luck[seat][part]
    return {
        "games": games,
        "accuracy": round(sum(accuracies) / len(accuracies), 1) if accuracies else None,
        "luck": {part: round(total / games, 4) for part, total in sums.items()} if games else None,
    }


def analysis_status(game: Game | int, *, body: bool = True) -> dict[str, Any]:
    """{status: done, analysis, playouts, made_at} when the analysis at today's version exists;
    {status: queued | running, progress: {done, total}} while one is made; {status: failed, code}
    when the last try failed; {status: none} otherwise (a request given up counts as none).
    Without `body` a done analysis is said without its `analysis` (the socket's messages: the
    page fetches it once), and its body is not read."""
    game_id = game if isinstance(game, int) else game.pk
    fields = ("body", "playouts", "created_at") if body else ("playouts", "created_at")
    made = GameAnalysis.objects.filter(game_id=game_id, version=ANALYSIS_VERSION).values(*fields).first()
    base: dict[str, Any] = {"version": ANALYSIS_VERSION}
    if made is not None:
        done = {
            **base,
            "status": RequestStatus.DONE.value,
            "playouts": made["playouts"],
            "made_at": made["created_at"].isoformat(),
        }
        return {**done, "analysis": json.loads(made["body"])} if body else done
    row = AnalysisRequest.objects.filter(game_id=game_id, version=ANALYSIS_VERSION).first()
    if request_is_pending(row):
        assert row is not None
        return {**base, "status": row.status, "progress": {"done": row.done, "total": row.total}}
    if row is not None and row.status == RequestStatus.FAILED:
        return {**base, "status": RequestStatus.FAILED.value, "code": row.code}
    if row is not None and request_is_stale(row):
        return {**base, "status": "none", "code": "analysis_lost"}
    return {**base, "status": "none"}


def analysis_export(game_id: int) -> dict[str, Any]:
    """The replay export's `analysis` (replays.selectors.export_extras): the game's analysis at
    today's version as the API gives it under `analysis` (the stored body), or nothing."""
    body = (
        GameAnalysis.objects.filter(game_id=game_id, version=ANALYSIS_VERSION)
        .values_list("body", flat=True)
        .first()
    )
    return {"analysis": json.loads(body)} if body is not None else {}
