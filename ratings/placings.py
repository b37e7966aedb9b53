"""Placings and per-seat statistics, read from a finished game's event log. Pure: no Django.

The last player left is first; the others follow in reverse order of elimination; players
eliminated by the same move share a place; a turn-limit draw shares first place among the players
left. A person whose seat a bot was playing when the game ended, and who was still in the game when
the bot took the seat (they left, went away or ran out of time and never took it back), is placed
last, whatever the bot reached; several such seats share last place.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

# Events that record a player's decision: eliminations on either side of one belong to two moves.
_DECISIONS = frozenset(
    {"TurnStarted", "CardsPlayed", "ReactionPlayed", "ReactionDeclined", "CardsDiscarded", "CardBurned"}
)
SEAT_TAKEN_BY_BOT = "SeatTakenByBot"  # games/seat_events.py's names (a log's words do not change)
SEAT_RECLAIMED = "SeatReclaimed"


@dataclass
class SeatStats:
    cumi_given: int = 0  # Hare Cumi played at other players
    cumi_taken: int = 0  # damage taken from volleys
    volleys_evaded: int = 0  # volleys answered with Hare Taptap
    skips_forwarded: int = 0  # skips passed on with Strom


@dataclass
class Outcome:
    players: int
    result: str  # "win" or "draw"
    places: list[int]  # per seat, 1 = first; shared places repeat
    abandoned: frozenset[int]
    stats: list[SeatStats] = field(default_factory=list)


def outcome_from_log(events: Iterable[Mapping[str, Any]]) -> Outcome:
    """The placings of a finished game (not an aborted one: ValueError)."""
    players = 0
    move = 0  # counts decisions: eliminations with none between them came from one move
    eliminated: dict[int, int] = {}  # seat -> the move that eliminated it
    bot_holds: dict[int, bool] = {}  # seat -> a bot took it from its person while still in the game
    result = ""
    survivors: list[int] = []
    stats: list[SeatStats] = []
    for e in events:
        kind = e["type"]
        if kind == "GameStarted":
            players = int(e["players"])
            stats = [SeatStats() for _ in range(players)]
        elif kind in _DECISIONS:
            move += 1
        if kind == "PlayerEliminated":
            eliminated[e["seat"]] = move
        elif kind == "VolleyPending":
            stats[e["attacker"]].cumi_given += int(e["count"])
        elif kind == "DamageTaken":
            stats[e["seat"]].cumi_taken += int(e["amount"])
        elif kind == "ReactionPlayed":
            if e.get("kind") == "volley":
                stats[e["seat"]].volleys_evaded += 1
            elif e.get("kind") == "skip":
                stats[e["seat"]].skips_forwarded += 1
        elif kind == SEAT_TAKEN_BY_BOT:
            bot_holds[e["seat"]] = e["seat"] not in eliminated
        elif kind == SEAT_RECLAIMED:
            bot_holds[e["seat"]] = False
        elif kind == "GameEnded":
            result = e["result"]
            survivors = list(e.get("survivors") or ([e["winner"]] if e.get("winner") is not None else []))
        elif kind == "GameAborted":
            raise ValueError("an aborted game has no placings")
    if not result:
        raise ValueError("the game has not ended")
    abandoned = frozenset(s for s, held in bot_holds.items() if held)
    # A rank key per seat, smaller is better: survivors, then later eliminations, then the abandoned.
    last_move = move + 1
    key: dict[int, int] = {}
    for seat in range(players):
        if seat in abandoned:
            key[seat] = last_move + 1
        elif seat in survivors or seat not in eliminated:
            key[seat] = -1
        else:
            key[seat] = last_move - eliminated[seat]
    places = [1 + sum(1 for other in range(players) if key[other] < key[seat]) for seat in range(players)]
    return Outcome(players=players, result=result, places=places, abandoned=abandoned, stats=stats)
