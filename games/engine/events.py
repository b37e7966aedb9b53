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
from .state import CCW, CW, Awaiting, Decision, GameState, Result, Volley

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


_TYPE_NAME: dict[str, str] = {t: t.value for t in EventType}  # `.value` on an enum is slow


def event(etype: EventType, /, **fields: Any) -> Event:
    return {"type": _TYPE_NAME[etype], "version": EVENT_VERSION, **fields}


# Each fold function returns the fields an event changes. `apply` builds a new state from them;
# `replay` and `decide` fold a private copy in place (`fold_into`), so that a turn's events cost
# one copy of the state rather than one each. Every value stored in a state is itself immutable.
Changes = dict[str, Any]

_new = object.__new__


def replace(state: GameState, **changes: Any) -> GameState:
    """dataclasses.replace for GameState, without re-running __init__: the fold's hot path."""
    new = _new(GameState)
    fields = new.__dict__
    fields.update(state.__dict__)
    fields.update(changes)
    return new


def direction_name(direction: int) -> str:
    return "cw" if direction == CW else "ccw"


def direction_value(name: str) -> int:
    return CCW if name == "ccw" else CW


def _remove(hand: tuple[str, ...], cards: Iterable[str]) -> tuple[str, ...]:
    left = list(hand)
    for card in cards:
        left.remove(card)
    return tuple(left)


def _set_hand(state: GameState, seat: int, hand: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    hands = list(state.hands)
    hands[seat] = hand
    return tuple(hands)


def _set_damage(state: GameState, seat: int, value: int) -> tuple[int, ...]:
    damage = list(state.damage)
    damage[seat] = value
    return tuple(damage)


def _from_hand_to_discard(state: GameState, seat: int, cards: Sequence[str], **changes: Any) -> Changes:
    return dict(
        hands=_set_hand(state, seat, _remove(state.hands[seat], cards)),
        discard_pile=state.discard_pile + tuple(cards),
        **changes,
    )


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


def _turn_started(s: GameState, e: Event) -> Changes:
    seat = e["seat"]
    return {
        "turn_seat": seat,
        "turn_number": e["turn"],
        "protected": s.protected - {seat},
        "awaiting": Awaiting(seat, Decision.TURN),
        "skipped": None,
        "volley": None,
        "skip_from": None,
    }


def _cards_played(s: GameState, e: Event) -> Changes:
    return _from_hand_to_discard(s, e["seat"], e["cards"], awaiting=None)


def _direction_changed(s: GameState, e: Event) -> Changes:
    return {"direction": direction_value(e["direction"])}


def _protection_gained(s: GameState, e: Event) -> Changes:
    return {"protected": s.protected | {e["seat"]}}


def _damage_changed(s: GameState, e: Event) -> Changes:
    return {"damage": _set_damage(s, e["seat"], e["damage"])}


def _player_skipped(s: GameState, e: Event) -> Changes:
    return {"skipped": e["seat"], "awaiting": None, "skip_from": None}


def _volley_pending(s: GameState, e: Event) -> Changes:
    return {
        "volley": Volley(e["attacker"], e["target"], e["count"]),
        "awaiting": Awaiting(e["target"], Decision.VOLLEY),
    }


def _skip_pending(s: GameState, e: Event) -> Changes:
    return {"skip_from": e["by"], "awaiting": Awaiting(e["seat"], Decision.SKIP)}


def _reaction_played(s: GameState, e: Event) -> Changes:
    return _from_hand_to_discard(s, e["seat"], [e["card"]], awaiting=None, volley=None)


def _reaction_declined(s: GameState, e: Event) -> Changes:
    return {"awaiting": None}


def _damage_taken(s: GameState, e: Event) -> Changes:
    return {"damage": _set_damage(s, e["seat"], e["damage"]), "volley": None}


def _player_eliminated(s: GameState, e: Event) -> Changes:
    seat = e["seat"]
    return {
        "hands": _set_hand(s, seat, ()),
        "discard_pile": s.discard_pile + s.hands[seat],
        "protected": s.protected - {seat},
    }


def _card_burned(s: GameState, e: Event) -> Changes:
    card = e["card"]
    return _from_hand_to_discard(s, e["seat"], [card] if card else [], awaiting=None)


def _cards_drawn(s: GameState, e: Event) -> Changes:
    seat, cards = e["seat"], e["cards"]
    return {
        "hands": _set_hand(s, seat, s.hands[seat] + tuple(cards)),
        "draw_pile": s.draw_pile[len(cards) :],
    }


def _reshuffled(s: GameState, e: Event) -> Changes:
    return {"draw_pile": s.draw_pile + tuple(e["cards"]), "discard_pile": s.discard_pile[-1:]}


def _discard_required(s: GameState, e: Event) -> Changes:
    return {"awaiting": Awaiting(e["seat"], Decision.DISCARD), "discard_count": e["count"]}


def _cards_discarded(s: GameState, e: Event) -> Changes:
    return _from_hand_to_discard(s, e["seat"], e["cards"], awaiting=None, discard_count=0)


def _game_ended(s: GameState, e: Event) -> Changes:
    return {"result": Result(e["result"]), "winner": e.get("winner"), "awaiting": None, "volley": None}


def _game_aborted(s: GameState, e: Event) -> Changes:
    return {"result": Result.ABORTED, "winner": None, "awaiting": None, "volley": None}


_FOLD: dict[str, Callable[[GameState, Event], Changes]] = {
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
    fold = _FOLD.get(kind)
    return replace(state, **fold(state, e)) if fold else state  # type: ignore[arg-type]


def fold_into(draft: GameState, e: Mapping[str, Any]) -> None:
    """`apply` for a private working copy no one else can see yet: changes `draft` in place.

    Not for GameStarted, which makes a new state. Callers own `draft` until they hand it out.
    """
    fold = _FOLD.get(e["type"])
    if fold:
        draft.__dict__.update(fold(draft, e))  # type: ignore[arg-type]


def replay(events: Iterable[Mapping[str, Any]]) -> GameState:
    state: GameState | None = None
    for e in events:
        if state is None or e["type"] == EventType.GAME_STARTED:
            state = apply(state, e)  # a new state, private to this replay
        else:
            fold_into(state, e)
    if state is None:
        raise ValueError("no events to replay")
    return state
