"""Placings and per-seat statistics, read from a finished game's event log. Pure: no Django.

The site's rule (docs/RULES.md, "Placings and ratings"), not the engine's; it lives in the pure
game so the game page's end screen (games) and the ratings follow one rule.

The last player left is first; the others follow in reverse order of elimination; players
eliminated by the same move share a place; a turn-limit draw shares first place among the players
left. A person whose seat a bot was playing when the game ended, and who was still in the game when
the bot took the seat (they left, went away or ran out of time and never took it back), is placed
last, whatever the bot reached: below every other seat, bots included. Several such seats share
last place, which is place `players` (not the place after the others), so two people who both
leave a two-seat table are both second, never both first.

Whether a game may be rated depends on who decided: `outcome_from_log` is told which seats a
person's own command made a decision for (the log's actor, which the caller reads) and
`Outcome.contested_by` answers whether any person played their seat to the end themselves.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from harehra import EventType
from harehra.events import DECISION_EVENTS

# The events a command writes for the seat that decided (each carries that `seat`): one written by a
# person's own command, not the timer's autopilot or a bot, is that person's decision.
COMMAND_DECISIONS = DECISION_EVENTS
# Where one move ends and the next begins: eliminations on either side of one belong to two moves.
_MOVE_STARTS = DECISION_EVENTS | {EventType.TURN_STARTED.value}


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
    decided: frozenset[int] = frozenset()  # seats whose own person made a decision by command

    def contested_by(self, people: Collection[int]) -> bool:
        """Whether a person (of the seats `people`) made a decision of their own and still held
        their seat at the end (or was eliminated holding it): only such a game measures anyone.
        Without one, nobody played (the timer's autopilot and bots moved for everyone) or every
        person left, and placing the leavers against each other would hand out free results."""
        return any(s in self.decided and s not in self.abandoned for s in people)


def outcome_from_log(events: Iterable[Mapping[str, Any]], decided: Collection[int] = ()) -> Outcome:
    """The placings of a finished game (not an aborted one: ValueError). `decided`: the seats a
    person made a decision for by their own command (the log's events carry no actor)."""
    players = 0
    move = 0  # counts decisions: eliminations with none between them came from one move
    eliminated: dict[int, int] = {}  # seat -> the move that eliminated it
    bot_holds: dict[int, bool] = {}  # seat -> a bot took it from its person while still in the game
    result = ""
    survivors: list[int] = []
    stats: list[SeatStats] = []
    for e in events:
        kind = e["type"]
        if kind == EventType.GAME_STARTED:
            players = int(e["players"])
            stats = [SeatStats() for _ in range(players)]
        elif kind in _MOVE_STARTS:
            move += 1
        if kind == EventType.PLAYER_ELIMINATED:
            eliminated[e["seat"]] = move
        elif kind == EventType.VOLLEY_PENDING:
            stats[e["attacker"]].cumi_given += int(e["count"])
        elif kind == EventType.DAMAGE_TAKEN:
            stats[e["seat"]].cumi_taken += int(e["amount"])
        elif kind == EventType.REACTION_PLAYED:
            if e.get("kind") == "volley":
                stats[e["seat"]].volleys_evaded += 1
            elif e.get("kind") == "skip":
                stats[e["seat"]].skips_forwarded += 1
        elif kind == EventType.SEAT_TAKEN_BY_BOT:
            bot_holds[e["seat"]] = e["seat"] not in eliminated
        elif kind == EventType.SEAT_RECLAIMED:
            bot_holds[e["seat"]] = False
        elif kind == EventType.GAME_ENDED:
            result = e["result"]
            survivors = list(e.get("survivors") or ([e["winner"]] if e.get("winner") is not None else []))
        elif kind == EventType.GAME_ABORTED:
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
    # Counted as in sport, except the abandoned: they share the very last place, so at two seats
    # two leavers are both second (counted as in sport they would both be first).
    places = [
        players if seat in abandoned else 1 + sum(1 for other in range(players) if key[other] < key[seat])
        for seat in range(players)
    ]
    return Outcome(
        players=players,
        result=result,
        places=places,
        abandoned=abandoned,
        stats=stats,
        decided=frozenset(decided),
    )
