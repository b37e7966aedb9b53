"""Reads for replays: frames (the table as it was after each event, for one perspective), lists, export.

A frame is {step, seq, turn_number, event, text, state, capacity}: `step` counts from 0 (the deal),
`event` is the event as the perspective may see it, `text` the same in words, `state` the table
then (for "all": view_for's spectator view plus every hand; for "seat:N": view_for(state, N); for
"spectator": view_for(state, None)) and `capacity` each seat's 5 − damage (max_damage − damage).
The draw pile's order never leaves here, except in the export document of a finished game.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.db.models import Exists, F, OuterRef, QuerySet
from django.utils.translation import gettext as _

from games.frames import SeqEvent
from games.labels import seat_name
from games.models import Game, GameEvent, GameSeat, GameStatus, ReplayAccess
from games.selectors import seat_labels
from harehra import make_ruleset
from plumbing.errors import ServiceError
from plumbing.hooks import Hook

from .access import ALL, SPECTATOR, ReplayGrant

EXPORT_FORMAT = "harehra-replay"
EXPORT_VERSION = 1

# What a finished game's export carries besides its log, from apps above replays (the game's
# analysis: analysis/apps.py): each subscriber, given the game's id, returns keys to add (or none).
export_extras = Hook("what a replay's export carries besides its log")


def parse_perspective(value: str | None, grant: ReplayGrant | None, players: int) -> int | str | None:
    """ "all" -> ALL, "spectator" -> None, "seat:N" -> N; refused unless the grant allows it."""
    value = value or (grant.default_perspective if grant else ALL)
    allowed = grant.perspectives() if grant else [ALL, SPECTATOR, *[f"seat:{n}" for n in range(players)]]
    if value not in allowed:
        if grant is not None and grant.live:
            raise ServiceError("bad_perspective", "a running game is watched as a spectator only")
        raise ServiceError(
            "bad_perspective", "perspective is all, spectator or seat:N for a seat of the game"
        )
    if value == ALL:
        return ALL
    if value == SPECTATOR:
        return None
    return int(value.split(":", 1)[1])


def game_events(game: Game) -> list[SeqEvent]:
    """The log up to where the game's row says it ends (a row written past it is nobody's move)."""
    rows = (
        GameEvent.objects.filter(game=game, seq__lte=game.last_seq)
        .order_by("seq")
        .values_list("seq", "type", "version", "payload")
    )
    return [(seq, {**payload, "type": kind, "version": version}) for seq, kind, version, payload in rows]


def seat_names(game: Game) -> list[str]:
    return [s["name"] for s in seat_labels(game)]


# --- metadata and lists ----------------------------------------------------------------------


def replay_players(game: Game) -> list[dict[str, Any]]:
    return [{"seat": s["seat"], "name": s["name"], "is_bot": s["is_bot"]} for s in seat_labels(game)]


def share_path(grant: ReplayGrant, opened_with_key: bool) -> str:
    """The link to share: by id when that opens it for others, else by the unguessable key."""
    game = grant.game
    if game.table.replay_access == ReplayAccess.LINK and (
        opened_with_key or grant.seat is not None or grant.staff
    ):
        return f"/replays/{game.replay_key}/"
    return f"/replays/{game.pk}/"


def replay_meta(grant: ReplayGrant, opened_with_key: bool = False) -> dict[str, Any]:
    game = grant.game
    players = replay_players(game)
    names = [p["name"] for p in players]
    winner = (
        names[game.winner_seat] if game.winner_seat is not None and game.winner_seat < len(names) else None
    )
    return {
        "id": game.pk,
        "table": game.table_id,
        "number": game.number,
        "status": game.status,
        "live": grant.live,
        "result": game.result,
        "winner_seat": game.winner_seat,
        "winner": winner,
        "players": players,
        "hand_limit": make_ruleset(game.table.packs, game.table.mini).hand_size,
        "events": game.last_seq,
        "replay_access": game.table.replay_access,
        "hidden": game.replay_hidden,
        "created_at": game.created_at.isoformat(),
        "finished_at": game.finished_at.isoformat() if game.finished_at else None,
        "perspectives": grant.perspectives(),
        "default_perspective": grant.default_perspective,
        "your_seat": grant.seat,
        "url": share_path(grant, opened_with_key),
    }


def summary_text(meta: Mapping[str, Any]) -> str:
    """A finished game in a sentence or two, for link previews: who won against whom (the winner
    is not among those beaten), or who played."""
    names = ", ".join(p["name"] for p in meta["players"])
    if meta.get("winner"):
        beaten = [p["name"] for p in meta["players"] if p["seat"] != meta.get("winner_seat")]
        return _("%(winner)s won against %(names)s. Step through all %(n)s events of the game.") % {
            "winner": meta["winner"],
            "names": ", ".join(beaten),
            "n": meta["events"],
        }
    return _("A game of Harehra between %(names)s: step through all %(n)s events.") % {
        "names": names,
        "n": meta["events"],
    }


def replay_list_public(player: str | None = None) -> QuerySet[Game]:
    """Finished or aborted games whose table lists its replays publicly, newest first."""
    games = Game.objects.filter(
        status__in=[GameStatus.FINISHED, GameStatus.ABORTED],
        table__replay_access=ReplayAccess.PUBLIC,
        replay_hidden=False,
    )
    if player:
        games = games.filter(
            Exists(GameSeat.objects.filter(game=OuterRef("pk"), user__username__iexact=player))
        )
    return games.select_related("table").order_by(F("finished_at").desc(nulls_last=True), "-pk")


def replay_list_rows(games: Iterable[Game]) -> list[dict[str, Any]]:
    games = list(games)
    seats = GameSeat.objects.filter(game__in=games).select_related("user").order_by("game_id", "seat")
    by_game: dict[int, list[dict[str, Any]]] = {}
    for r in seats:
        by_game.setdefault(r.game_id, []).append({"seat": r.seat, "name": seat_name(r), "is_bot": r.is_bot})
    out = []
    for g in games:
        players = by_game.get(g.pk, [])
        winner = next((p["name"] for p in players if p["seat"] == g.winner_seat), None)
        out.append(
            {
                "id": g.pk,
                "table": g.table_id,
                "number": g.number,
                "status": g.status,
                "result": g.result,
                "winner": winner,
                "players": players,
                "events": g.last_seq,
                "finished_at": g.finished_at.isoformat() if g.finished_at else None,
                "url": f"/replays/{g.pk}/",
            }
        )
    return out


# --- export ------------------------------------------------------------------------------------


def replay_export(grant: ReplayGrant) -> dict[str, Any]:
    """The whole log as a JSON document (the draw pile's order included: the game is over), with
    what other apps add to it (`export_extras`: the game's analysis at today's version, key
    `analysis`, when one exists). An importer never trusts those keys (replays/importing.py)."""
    if grant.live:
        raise ServiceError("game_running", "a game is exported once it is over", 409)
    document = export_document(grant.game)
    for extra in export_extras.send(grant.game.pk):
        document.update({k: v for k, v in (extra or {}).items() if k not in document})
    return document


def export_document(game: Game) -> dict[str, Any]:
    """A game's whole log as an export document (no access check: for replay_export and
    verify_games)."""
    events = [{"seq": seq, **e} for seq, e in game_events(game)]
    return {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "game": {
            "id": game.pk,
            "table": game.table_id,
            "number": game.number,
            "status": game.status,
            "result": game.result,
            "winner_seat": game.winner_seat,
            "players": replay_players(game),
            "created_at": game.created_at.isoformat(),
            "finished_at": game.finished_at.isoformat() if game.finished_at else None,
        },
        "events": events,
    }
