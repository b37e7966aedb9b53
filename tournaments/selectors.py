"""Reads: standings, an entrant's games."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from .models import Entry, EventSeat, Result, Status, Tournament
from .scoring import Line, Standing, standings


def tournament_standings(t: Tournament) -> list[Standing]:
    tables: dict[int, list[int]] = {}
    for table_id, entry_id in EventSeat.objects.filter(
        event_table__tournament=t, event_table__done=True, entry__isnull=False
    ).values_list("event_table_id", "entry_id"):
        tables.setdefault(table_id, []).append(entry_id)
    met: dict[int, list[list[int]]] = {}
    for members in tables.values():
        for e in members:
            met.setdefault(e, []).append([o for o in members if o != e])
    lines = [
        Line(e.pk, e.score, e.wins, e.games, met.get(e.pk, []))
        for e in Entry.objects.filter(tournament=t).only("id", "score", "wins", "games")
    ]
    return standings(lines, swiss=t.format == "swiss")


def tournament_standing_rows(t: Tournament) -> list[dict[str, Any]]:
    entries = {e.pk: e for e in Entry.objects.filter(tournament=t).select_related("user")}
    return [{"standing": s, "entry": entries[s.entry]} for s in tournament_standings(t)]


def tournament_lists() -> dict[str, QuerySet[Tournament]]:
    base = Tournament.objects.all()
    return {
        "upcoming": base.filter(status=Status.SCHEDULED).order_by("starts_at"),
        "running": base.filter(status=Status.RUNNING).order_by("starts_at"),
        "finished": base.filter(status=Status.FINISHED).order_by("-finished_at")[:20],
    }


def entry_results(entry: Entry) -> QuerySet[Result]:
    return Result.objects.filter(entry=entry).select_related("game").order_by("id")
