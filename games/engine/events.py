"""Event constructors and the fold.

Events are plain JSON-ready dicts with a `type` and a schema `version`. `apply` trusts them:
`decide` checked everything before it emitted them, so the fold never fails and never re-checks.
Keys an event type does not know (a deadline, an actor) are ignored by the fold.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from enum import StrEnum
from typing import Any

from .ruleset import Ruleset
from .state import CCW, CW, Awaiting, Decision, Draft, GameState, Result, Volley, freeze, thaw

_D_DISCARD = Decision.DISCARD  # a module global: an enum member is slow to reach
_D_SKIP = Decision.SKIP  # a module global: an enum member is slow to reach
_D_TURN = Decision.TURN  # a module global: an enum member is slow to reach
_D_VOLLEY = Decision.VOLLEY  # a module global: an enum member is slow to reach


Event = dict[str, Any]
EVENT_VERSION = 1


class EventType(StrEnum):
    GAME_STARTED = "GameStarted"
    TURN_STARTED = "TurnStarted"
    CARDS_PLAYED = "CardsPlayed"
    DIRECTION_CHANGED = "DirectionChanged"
    PROTECTION_GAINED = "ProtectionGained"
    DAMAGE_HEALED = "DamageHealed"
    PLAYER_SKIPPED = "PlayerSkipped"
    VOLLEY_PENDING = "VolleyPending"
    SKIP_PENDING = "SkipPending"
    REACTION_PLAYED = "ReactionPlayed"
    REACTION_DECLINED = "ReactionDeclined"
    DAMAGE_TAKEN = "DamageTaken"
    PLAYER_ELIMINATED = "PlayerEliminated"
    CARD_BURNED = "CardBurned"
    CARDS_DRAWN = "CardsDrawn"
    DRAW_PILE_RESHUFFLED = "DrawPileReshuffled"
    DISCARD_REQUIRED = "DiscardRequired"
    CARDS_DISCARDED = "CardsDiscarded"
    GAME_ENDED = "GameEnded"
    GAME_ABORTED = "GameAborted"


# Events a game's log holds beside the rules' own: who controls a seat (games/seat_events.py makes
# them). The fold leaves the state as it is for them, and every viewer sees them whole.
SEAT_TAKEN_BY_BOT = "SeatTakenByBot"
SEAT_RECLAIMED = "SeatReclaimed"
OUTSIDE_RULES: frozenset[str] = frozenset({SEAT_TAKEN_BY_BOT, SEAT_RECLAIMED})

_TYPE_NAME: dict[str, str] = {t: t.value for t in EventType}  # `.value` on an enum is slow


def event(etype: EventType | str, /, **fields: Any) -> Event:
    return {"type": _TYPE_NAME[etype], "version": EVENT_VERSION, **fields}


# Each fold function sets the fields an event changes on a private Draft, in place. `apply`,
# `replay` and `decide` fold into a draft and freeze it into a GameState once (one record copied
# per command, not per event); search playouts keep one draft for a whole playout. Every value a
# draft holds is immutable, so a draft and the states made from it share them safely.
Fold = Callable[[Draft, Mapping[str, Any]], None]


def direction_name(direction: int) -> str:
    return "cw" if direction == CW else "ccw"


def direction_value(name: str) -> int:
    return CCW if name == "ccw" else CW


def _to_discard(d: Draft, seat: int, cards: Sequence[str]) -> None:
    left = list(d.hands[seat])
    for card in cards:
        left.remove(card)
    hands = list(d.hands)
    hands[seat] = tuple(left)
    d.hands = tuple(hands)
    d.discard_pile += tuple(cards)


def _set_damage(d: Draft, seat: int, value: int) -> None:
    damage = list(d.damage)
    damage[seat] = value
    d.damage = tuple(damage)


def initial_state(e: Mapping[str, Any]) -> GameState:
    ruleset = Ruleset.from_dict(e["ruleset"])
    n = int(e["players"])
    return GameState(
        ruleset=ruleset,
        players=n,
        shuffler=int(e["shuffler"]),
        hands=tuple(tuple(h) for h in e["hands"]),
        draw_pile=tuple(e["draw_pile"]),
        discard_pile=tuple(e.get("discard_pile", ())),
        damage=tuple(e.get("damage", [0] * n)),
        protected=frozenset(e.get("protected", ())),
        direction=direction_value(e.get("direction", "cw")),
        turn_seat=int(e["turn"]),
        turn_number=0,
    )


_AWAITING: dict[tuple[int, Decision], Awaiting] = {}


def awaiting_of(seat: int, kind: Decision) -> Awaiting:
    """One shared Awaiting per seat and kind (they are immutable values)."""
    found = _AWAITING.get((seat, kind))
    if found is None:
        found = _AWAITING[(seat, kind)] = Awaiting(seat, kind)
    return found


def _turn_started(d: Draft, e: Mapping[str, Any]) -> None:
    seat = e["seat"]
    d.turn_seat = seat
    d.turn_number = e["turn"]
    d.protected -= {seat}
    d.awaiting = awaiting_of(seat, _D_TURN)
    d.skipped = None
    d.volley = None
    d.skip_from = None


def _cards_played(d: Draft, e: Mapping[str, Any]) -> None:
    _to_discard(d, e["seat"], e["cards"])
    d.awaiting = None


def _direction_changed(d: Draft, e: Mapping[str, Any]) -> None:
    d.direction = direction_value(e["direction"])


def _protection_gained(d: Draft, e: Mapping[str, Any]) -> None:
    d.protected |= {e["seat"]}


def _damage_changed(d: Draft, e: Mapping[str, Any]) -> None:
    _set_damage(d, e["seat"], e["damage"])


def _player_skipped(d: Draft, e: Mapping[str, Any]) -> None:
    d.skipped = e["seat"]
    d.awaiting = None
    d.skip_from = None


def _volley_pending(d: Draft, e: Mapping[str, Any]) -> None:
    d.volley = Volley(e["attacker"], e["target"], e["count"])
    d.awaiting = awaiting_of(e["target"], _D_VOLLEY)


def _skip_pending(d: Draft, e: Mapping[str, Any]) -> None:
    d.skip_from = e["by"]
    d.awaiting = awaiting_of(e["seat"], _D_SKIP)


def _reaction_played(d: Draft, e: Mapping[str, Any]) -> None:
    _to_discard(d, e["seat"], (e["card"],))
    d.awaiting = None
    d.volley = None


def _reaction_declined(d: Draft, e: Mapping[str, Any]) -> None:
    d.awaiting = None


def _damage_taken(d: Draft, e: Mapping[str, Any]) -> None:
    _set_damage(d, e["seat"], e["damage"])
    d.volley = None


def _player_eliminated(d: Draft, e: Mapping[str, Any]) -> None:
    seat = e["seat"]
    d.discard_pile += d.hands[seat]
    hands = list(d.hands)
    hands[seat] = ()
    d.hands = tuple(hands)
    d.protected -= {seat}


def _card_burned(d: Draft, e: Mapping[str, Any]) -> None:
    card = e["card"]
    if card:
        _to_discard(d, e["seat"], (card,))
    d.awaiting = None


def _cards_drawn(d: Draft, e: Mapping[str, Any]) -> None:
    seat, cards = e["seat"], e["cards"]
    hands = list(d.hands)
    hands[seat] += tuple(cards)
    d.hands = tuple(hands)
    d.draw_pile = d.draw_pile[len(cards) :]


def _reshuffled(d: Draft, e: Mapping[str, Any]) -> None:
    d.draw_pile += tuple(e["cards"])
    d.discard_pile = d.discard_pile[-1:]


def _discard_required(d: Draft, e: Mapping[str, Any]) -> None:
    d.awaiting = awaiting_of(e["seat"], _D_DISCARD)
    d.discard_count = e["count"]


def _cards_discarded(d: Draft, e: Mapping[str, Any]) -> None:
    _to_discard(d, e["seat"], e["cards"])
    d.awaiting = None
    d.discard_count = 0


def _game_ended(d: Draft, e: Mapping[str, Any]) -> None:
    d.result = Result(e["result"])
    d.winner = e.get("winner")
    d.awaiting = None
    d.volley = None


def _game_aborted(d: Draft, e: Mapping[str, Any]) -> None:
    d.result = Result.ABORTED
    d.winner = None
    d.awaiting = None
    d.volley = None


FOLD: dict[str, Fold] = {
    EventType.TURN_STARTED: _turn_started,
    EventType.CARDS_PLAYED: _cards_played,
    EventType.DIRECTION_CHANGED: _direction_changed,
    EventType.PROTECTION_GAINED: _protection_gained,
    EventType.DAMAGE_HEALED: _damage_changed,
    EventType.PLAYER_SKIPPED: _player_skipped,
    EventType.VOLLEY_PENDING: _volley_pending,
    EventType.SKIP_PENDING: _skip_pending,
    EventType.REACTION_PLAYED: _reaction_played,
    EventType.REACTION_DECLINED: _reaction_declined,
    EventType.DAMAGE_TAKEN: _damage_taken,
    EventType.PLAYER_ELIMINATED: _player_eliminated,
    EventType.CARD_BURNED: _card_burned,
    EventType.CARDS_DRAWN: _cards_drawn,
    EventType.DRAW_PILE_RESHUFFLED: _reshuffled,
    EventType.DISCARD_REQUIRED: _discard_required,
    EventType.CARDS_DISCARDED: _cards_discarded,
    EventType.GAME_ENDED: _game_ended,
    EventType.GAME_ABORTED: _game_aborted,
}


def apply(state: GameState | None, e: Mapping[str, Any]) -> GameState:
    """Fold one event into the state. Event types outside the rules (seat changes) leave it as is."""
    kind = e["type"]
    if kind == EventType.GAME_STARTED:
        return initial_state(e)
    assert state is not None, "the first event of a game is GameStarted"
    fold = FOLD.get(kind)
    if fold is None:
        return state
    draft = thaw(state)
    fold(draft, e)
    return freeze(draft)


def replay(events: Iterable[Mapping[str, Any]]) -> GameState:
    """The state `events` lead to: folded into one private draft, frozen once."""
    draft: Draft | None = None
    for e in events:
        kind = e["type"]
        if kind == EventType.GAME_STARTED:
            draft = thaw(initial_state(e))
            continue
        assert draft is not None, "the first event of a game is GameStarted"
        fold = FOLD.get(kind)
        if fold:
            fold(draft, e)
    if draft is None:
        raise ValueError("no events to replay")
    return freeze(draft)
