"""Reads: standings, an entrant's games."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any

from django.db.models import Count, F, QuerySet
from django.utils import timezone

from accounts.access import AnyUser
from plumbing.replica import primary_needed

from .models import Entry, EventSeat, EventTable, Format, Result, Status, Tournament
from .scoring import POINTS, Line, Standing, standings

log = logging.getLogger(__name__)


def tournament_to_show(pk: int) -> Tournament | None:
    """The event for its page. Read on a replica (plumbing/replica.py), only one that is over is
    kept: its standings change no more; one still running, or not there yet, is the primary's."""
    t = Tournament.objects.filter(pk=pk).first()
    if t is None or t.status not in (Status.FINISHED, Status.CANCELLED):
        primary_needed()
    return t


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
        Line(e.pk, e.score, e.wins, e.games, met.get(e.pk, []), removed=e.removed_at is not None)
        for e in Entry.objects.filter(tournament=t).only("id", "score", "wins", "games", "removed_at")
    ]
    return standings(lines, swiss=t.format == "swiss")


def tournament_standing_rows(t: Tournament) -> list[dict[str, Any]]:
    entries = {e.pk: e for e in Entry.objects.filter(tournament=t).select_related("user")}
    return [{"standing": s, "entry": entries[s.entry]} for s in tournament_standings(t)]


def tournament_lists() -> dict[str, QuerySet[Tournament]]:
    base = Tournament.objects.select_related("created_by")
    return {
        "upcoming": base.filter(status=Status.SCHEDULED).order_by("starts_at"),
        "running": base.filter(status=Status.RUNNING).order_by("starts_at"),
        # Ended: finished or cancelled (a cancelled event says so), the latest first.
        "finished": base.filter(status__in=(Status.FINISHED, Status.CANCELLED)).order_by(
            F("finished_at").desc(nulls_last=True), "-starts_at"
        )[:20],
    }


def entry_results(entry: Entry) -> QuerySet[Result]:
    return Result.objects.filter(entry=entry).select_related("game").order_by("id")


# --- what the pages and the API show ------------------------------------------------------------


def arena_end(t: Tournament) -> datetime | None:
    """An arena's end; None for Swiss, and for an arena whose end is past the last date there is
    (the services refuse such dates now; a row stored before must not break a page)."""
    if t.format != Format.ARENA:
        return None
    try:
        return (t.started_at or t.starts_at) + timedelta(minutes=t.duration_minutes)
    except OverflowError:
        return None


def tournament_entry_open(t: Tournament, now: datetime | None = None) -> bool:
    """Whether a new player may enter now (the rule tournament_join applies)."""
    now = now or timezone.now()
    if now < t.entry_opens_at:
        return False
    if t.status == Status.SCHEDULED:
        return True
    end = arena_end(t)
    return t.status == Status.RUNNING and end is not None and now < end


def tournament_rows(t: Tournament) -> list[dict[str, Any]]:
    """The standings as shown: rank, player, points, games, sole wins, tie-breaks, state."""
    rows = []
    for row in tournament_standing_rows(t):
        s, e = row["standing"], row["entry"]
        rows.append(
            {
                "rank": s.rank,
                "player": e.user.get_username(),
                "points": s.score,
                "games": s.games,
                "wins": s.wins,
                "opposition": s.opposition,
                "byes": e.byes,
                "streak": e.streak,
                "paused": e.paused,
                "withdrawn": e.withdrawn,
                "removed": e.removed_at is not None,
                "entry": e.pk,
            }
        )
    return rows


def tournament_podium(t: Tournament, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Once finished: the players ranked 1 to 3 (a shared rank shares the step)."""
    if t.status != Status.FINISHED:
        return []
    return [r for r in rows if r["rank"] <= 3 and r["games"] + r["byes"] > 0 and not r["removed"]]


def _result_row(r: Result) -> dict[str, Any]:
    game = r.game
    return {
        "game": r.game_id,
        "round": None if r.round_id is None else r.round.number,
        "bye": r.game_id is None,
        "place": r.place,
        "players": r.players,
        "points": r.points,
        "won": r.won,
        "bot_played": r.bot_played,
        "replay": f"/replays/{r.game_id}/" if game is not None and not game.replay_hidden else None,
    }


def tournament_results_by_entry(
    t: Tournament, entries: Iterable[int] | None = None
) -> dict[int, list[dict[str, Any]]]:
    """Every entrant's results (games and byes), in the order they came, in one read; only those
    of `entries` when given."""
    out: dict[int, list[dict[str, Any]]] = {}
    results = Result.objects.filter(tournament=t)
    if entries is not None:
        results = results.filter(entry_id__in=list(entries))
    for r in (
        results.select_related("game", "round")
        .only("entry_id", "game_id", "game__replay_hidden", "round__number", "place", "players",
              "points", "won", "bot_played")
        .order_by("id")
    ):  # fmt: skip
        out.setdefault(r.entry_id, []).append(_result_row(r))
    return out


def entry_result_rows(entry: Entry) -> list[dict[str, Any]]:
    return [_result_row(r) for r in entry_results(entry).select_related("round")]


def _seats_now(t: Tournament, user_ids: list[int]) -> dict[int, tuple[int, int | None]]:
    """Per user: the games table and game they play at in this event now (a table not yet done:
    its game runs, or runs on after the event was cancelled)."""
    return {
        user_id: (table_id, game_id)
        for user_id, table_id, game_id in EventSeat.objects.filter(
            event_table__tournament=t, event_table__done=False, entry__user_id__in=user_ids
        ).values_list("entry__user_id", "event_table__table_id", "event_table__game_id")
    }


def _me(entry: Entry | None, seat: tuple[int, int | None] | None) -> dict[str, Any]:
    table, game = seat or (None, None)
    return {
        "entered": entry is not None,
        "paused": bool(entry and entry.paused),
        "withdrawn": bool(entry and entry.withdrawn),
        "removed": bool(entry and entry.removed_at),
        "pauses": entry.pauses if entry else 0,
        "table": table,
        "game": game,
    }


def tournament_me_many(t: Tournament, user_ids: list[int]) -> dict[int, dict[str, Any]]:
    """What each of these users' own pages show of their entry (`me`), in two reads: their
    entry's state and the table and game they play at now. Only ever sent to that user."""
    entries = {e.user_id: e for e in Entry.objects.filter(tournament=t, user_id__in=user_ids)}
    seats = _seats_now(t, user_ids)
    return {u: _me(entries.get(u), seats.get(u)) for u in user_ids}


def tournament_of_game(game_id: int) -> dict[str, Any]:
    """games' "what a game is part of" (tournaments/apps.py): the event that seated this game, for
    the game page's end screen to go back to, or {} for another table's game."""
    et = EventTable.objects.filter(game_id=game_id).select_related("tournament").first()
    if et is None:
        return {}
    t = et.tournament
    return {
        "event": {
            "id": t.pk,
            "name": t.name,
            "format": t.format,
            "status": t.status,
            "url": f"/tournaments/{t.pk}/",
        }
    }


def entry_state(status: str, me: dict[str, Any] | None) -> str:
    """Which sentence the event page's entry panel shows (static/js/tournament/follow.js says the
    same as the socket's messages change it): "" for someone not in the event."""
    if not me or not me["entered"]:
        return ""
    if me["removed"]:
        return "removed"
    if me["withdrawn"]:
        return "withdrawn"
    if me["game"]:
        return "playing"  # a cancelled event's game in progress too: it is played to its end
    if status == Status.CANCELLED:
        return "cancelled"
    if me["paused"] and status in (Status.SCHEDULED, Status.RUNNING):
        return "paused"
    return {Status.SCHEDULED: "entered", Status.RUNNING: "waiting"}.get(status, "played")


def tournament_games(t: Tournament, entries: Iterable[int]) -> dict[str, list[dict[str, Any]]]:
    """The whole list of games (and byes) of each of these entrants of `t`, keyed by the entry's
    id as JSON keys are (an entrant with none: an empty list; another event's entry: left out)."""
    wanted = set(Entry.objects.filter(tournament=t, pk__in=list(entries)).values_list("pk", flat=True))
    if not wanted:
        return {}
    results = tournament_results_by_entry(t, wanted)
    return {str(e): results.get(e, []) for e in sorted(wanted)}


def tournament_live(t: Tournament, games_of: Iterable[int] = ()) -> dict[str, Any]:
    """The event's state and standings as its pages show them, the same for every viewer (nothing
    of anyone's own): the socket's `standings` message (docs/PROTOCOL.md). `games` holds the
    whole game lists of the entrants `games_of` (those the change gave a result), so the pages'
    lists of each player's games follow without a read of their own."""
    rows = tournament_rows(t)
    games_of = list(games_of)
    return {
        "type": "standings",
        "tournament": t.pk,
        "format": t.format,
        "status": t.status,
        "current_round": t.current_round,
        "rounds": None if t.format == Format.ARENA else t.rounds,
        "ends_at": arena_end(t),
        "finished_at": t.finished_at,
        "entrants": len(rows),
        "standings": rows,
        "podium": tournament_podium(t, rows),
        "games": tournament_games(t, games_of) if games_of else {},
    }


def tournament_counts(ids: list[int]) -> dict[int, int]:
    """Entrants per event, for lists."""
    return dict(
        Entry.objects.filter(tournament_id__in=ids)
        .order_by()
        .values("tournament_id")
        .annotate(n=Count("id"))
        .values_list("tournament_id", "n")
    )


def user_tournament_results(user: AnyUser, limit: int = 10) -> list[dict[str, Any]]:
    """A player's latest finished or running events: their rank among how many, points, games."""
    entries = list(
        Entry.objects.filter(user_id=user.pk, tournament__status__in=(Status.FINISHED, Status.RUNNING))
        .select_related("tournament")
        .order_by("-tournament__starts_at")[:limit]
    )
    out = []
    for e in entries:
        t = e.tournament
        standings = tournament_standings(t)
        mine = next((s for s in standings if s.entry == e.pk), None)
        out.append(
            {
                "tournament": t,
                "rank": mine.rank if mine else None,
                "of": len(standings),
                "points": e.score,
                "games": e.games,
                "wins": e.wins,
                "withdrawn": e.withdrawn,
            }
        )
    return out


def tournament_summary(t: Tournament, entrants: int, now: datetime | None = None) -> dict[str, Any]:
    arena = t.format == Format.ARENA
    return {
        "id": t.pk,
        "name": t.name,
        "format": t.format,
        "status": t.status,
        "table_size": t.table_size,
        "min_table_size": t.min_table_size,
        "bots_fill": t.bots_fill,
        "rated": t.rated,
        "entry_opens_at": t.entry_opens_at,
        "starts_at": t.starts_at,
        "ends_at": arena_end(t),
        "rounds": None if arena else t.rounds,
        "current_round": t.current_round,
        "duration_minutes": t.duration_minutes if arena else None,
        "entrants": entrants,
        "entry_open": tournament_entry_open(t, now),
        "featured": t.featured,
        "host": t.created_by.get_username(),
        "url": f"/tournaments/{t.pk}/",
    }


def _summaries(ts: list[Tournament], counts: dict[int, int], now: datetime) -> list[dict[str, Any]]:
    """The rows of a list; a row that cannot be made is logged and left out, so one bad event
    never takes the whole list (the lobby, /tournaments/, the API) down for everyone."""
    rows = []
    for t in ts:
        try:
            rows.append(tournament_summary(t, counts.get(t.pk, 0), now))
        except Exception:
            log.exception("tournament %s: left out of the lists: its row cannot be shown", t.pk)
    return rows


def tournament_list_rows(featured_only: bool = False) -> dict[str, list[dict[str, Any]]]:
    """Featured (staff's) events first in each list; only those with `featured_only` (the lobby)."""
    lists = {name: list(qs) for name, qs in tournament_lists().items()}
    if featured_only:
        lists = {name: [t for t in ts if t.featured] for name, ts in lists.items()}
    lists = {name: sorted(ts, key=lambda t: not t.featured) for name, ts in lists.items()}  # stable
    counts = tournament_counts([t.pk for ts in lists.values() for t in ts])
    now = timezone.now()
    return {name: _summaries(ts, counts, now) for name, ts in lists.items()}


def points_by_place(t: Tournament) -> dict[str, list[int]]:
    """The points of each place at every table size the event may seat (bots make up a short table
    to min_table_size, so that is the smallest)."""
    return {str(n): list(POINTS[n]) for n in range(t.min_table_size, t.table_size + 1)}


def tournament_detail(t: Tournament, viewer: AnyUser) -> dict[str, Any]:
    rows = tournament_rows(t)
    me = tournament_me_many(t, [viewer.pk])[viewer.pk] if viewer.is_authenticated else None
    return {
        **tournament_summary(t, len(rows)),
        "packs": list(t.packs),
        "mini": t.mini,
        "turn_timer": t.turn_timer,
        "reaction_timer": t.reaction_timer,
        "discard_timer": t.discard_timer,
        "pace": t.pace,
        "decision_seconds": t.decision_seconds,
        "bot_level": t.bot_level,
        "bots_after_seconds": t.bots_after_seconds,
        "started_at": t.started_at,
        "finished_at": t.finished_at,
        "points_by_place": points_by_place(t),
        "standings": rows,
        "podium": tournament_podium(t, rows),
        "me": me,
    }
