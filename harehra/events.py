"""Events: every type a game's log holds, its schema, and one constructor per type.

An event is a plain JSON-ready dict with a `type` and a schema `version`: it is stored as it is in
the log, and search playouts fold millions, so a dataclass would only cost time. Its schema is a
TypedDict per type (checked by mypy, free at run time), and each is made by the constructor named
after it (`cards_played(...)` makes a CardsPlayed). The rules' events are folded into the state
by fold.py; the seat events (who controls a seat) are the log's own, and the fold leaves the state
as it is for them.

Events read back from a log or a document are `StoredEvent`s: any mapping, possibly with keys the
type does not know (a deadline, an actor), which every reader ignores.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import StrEnum
from typing import Any, Final, Literal, NotRequired, TypedDict

from .state import CCW, CW, Result

EVENT_VERSION: Final = 1


class EventType(StrEnum):
    """The name of each event type, as the log stores it. Names never change: old logs use them."""

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
    # Outside the rules: who controls a seat (a person or a bot); the fold skips them.
    SEAT_TAKEN_BY_BOT = "SeatTakenByBot"
    SEAT_RECLAIMED = "SeatReclaimed"


# The events outside the rules, about who controls a seat: every viewer sees them whole.
SEAT_EVENTS: frozenset[str] = frozenset({EventType.SEAT_TAKEN_BY_BOT.value, EventType.SEAT_RECLAIMED.value})
# The events a seat's command starts with, each carrying that `seat`: one per decision a player
# makes (what the importer replays as commands, and what ratings count as a person's decisions).
DECISION_EVENTS: frozenset[str] = frozenset(
    t.value
    for t in (
        EventType.CARDS_PLAYED,
        EventType.REACTION_PLAYED,
        EventType.REACTION_DECLINED,
        EventType.CARD_BURNED,
        EventType.CARDS_DISCARDED,
    )
)

Direction = Literal["cw", "ccw"]
ReactionKind = Literal["volley", "skip"]


class GameStarted(TypedDict):
    type: Literal["GameStarted"]
    version: int
    ruleset: dict[str, Any]  # Ruleset.to_dict()
    players: int
    shuffler: int
    hands: list[list[str]]
    draw_pile: list[str]  # top first
    discard_pile: list[str]  # bottom first
    damage: list[int]
    direction: Direction
    protected: list[int]
    turn: int  # the first player's seat


class TurnStarted(TypedDict):
    type: Literal["TurnStarted"]
    version: int
    seat: int
    turn: int


class CardsPlayed(TypedDict):
    type: Literal["CardsPlayed"]
    version: int
    seat: int
    cards: list[str]
    target: int | None


class DirectionChanged(TypedDict):
    type: Literal["DirectionChanged"]
    version: int
    direction: Direction


class ProtectionGained(TypedDict):
    type: Literal["ProtectionGained"]
    version: int
    seat: int


class DamageHealed(TypedDict):
    type: Literal["DamageHealed"]
    version: int
    seat: int
    damage: int  # after healing


class PlayerSkipped(TypedDict):
    type: Literal["PlayerSkipped"]
    version: int
    seat: int


class VolleyPending(TypedDict):
    type: Literal["VolleyPending"]
    version: int
    attacker: int
    target: int
    count: int


class SkipPending(TypedDict):
    type: Literal["SkipPending"]
    version: int
    seat: int
    by: int  # who played or forwarded the skip


class ReactionPlayed(TypedDict):
    type: Literal["ReactionPlayed"]
    version: int
    seat: int
    card: str
    kind: ReactionKind


class ReactionDeclined(TypedDict):
    type: Literal["ReactionDeclined"]
    version: int
    seat: int
    kind: ReactionKind


class DamageTaken(TypedDict):
    type: Literal["DamageTaken"]
    version: int
    seat: int
    amount: int
    damage: int  # after taking it


class PlayerEliminated(TypedDict):
    type: Literal["PlayerEliminated"]
    version: int
    seat: int
    cards: list[str]  # the hand, face up onto the discard pile


class CardBurned(TypedDict):
    type: Literal["CardBurned"]
    version: int
    seat: int
    card: str | None  # None: the hand was empty


class CardsDrawn(TypedDict):
    type: Literal["CardsDrawn"]
    version: int
    seat: int
    cards: list[str]


class DrawPileReshuffled(TypedDict):
    type: Literal["DrawPileReshuffled"]
    version: int
    cards: list[str]  # the new draw pile, top first


class DiscardRequired(TypedDict):
    type: Literal["DiscardRequired"]
    version: int
    seat: int
    count: int


class CardsDiscarded(TypedDict):
    type: Literal["CardsDiscarded"]
    version: int
    seat: int
    cards: list[str]


class GameEnded(TypedDict):
    type: Literal["GameEnded"]
    version: int
    result: Literal["win", "draw"]
    winner: int | None
    survivors: list[int]


class GameAborted(TypedDict):
    type: Literal["GameAborted"]
    version: int
    reason: NotRequired[str]


class SeatTakenByBot(TypedDict):
    type: Literal["SeatTakenByBot"]
    version: int
    seat: int
    reason: str  # "away" or "left"


class SeatReclaimed(TypedDict):
    type: Literal["SeatReclaimed"]
    version: int
    seat: int


RulesEvent = (
    GameStarted
    | TurnStarted
    | CardsPlayed
    | DirectionChanged
    | ProtectionGained
    | DamageHealed
    | PlayerSkipped
    | VolleyPending
    | SkipPending
    | ReactionPlayed
    | ReactionDeclined
    | DamageTaken
    | PlayerEliminated
    | CardBurned
    | CardsDrawn
    | DrawPileReshuffled
    | DiscardRequired
    | CardsDiscarded
    | GameEnded
    | GameAborted
)
SeatEvent = SeatTakenByBot | SeatReclaimed
Event = RulesEvent | SeatEvent  # an event as made, before it is stored
StoredEvent = Mapping[str, Any]  # an event read back: any type, maybe with keys of the log's own


def direction_name(direction: int) -> Direction:
    return "cw" if direction == CW else "ccw"


def direction_value(name: str) -> int:
    return CCW if name == "ccw" else CW


# --- constructors --------------------------------------------------------------------------
# The rules make an event on every change when they keep a log: each type's name is a plain
# string here (an enum member is ten times slower to reach), typed as its literal for the schema.

_GAME_STARTED: Final = EventType.GAME_STARTED.value
_TURN_STARTED: Final = EventType.TURN_STARTED.value
_CARDS_PLAYED: Final = EventType.CARDS_PLAYED.value
_DIRECTION_CHANGED: Final = EventType.DIRECTION_CHANGED.value
_PROTECTION_GAINED: Final = EventType.PROTECTION_GAINED.value
_DAMAGE_HEALED: Final = EventType.DAMAGE_HEALED.value
_PLAYER_SKIPPED: Final = EventType.PLAYER_SKIPPED.value
_VOLLEY_PENDING: Final = EventType.VOLLEY_PENDING.value
_SKIP_PENDING: Final = EventType.SKIP_PENDING.value
_REACTION_PLAYED: Final = EventType.REACTION_PLAYED.value
_REACTION_DECLINED: Final = EventType.REACTION_DECLINED.value
_DAMAGE_TAKEN: Final = EventType.DAMAGE_TAKEN.value
_PLAYER_ELIMINATED: Final = EventType.PLAYER_ELIMINATED.value
_CARD_BURNED: Final = EventType.CARD_BURNED.value
_CARDS_DRAWN: Final = EventType.CARDS_DRAWN.value
_DRAW_PILE_RESHUFFLED: Final = EventType.DRAW_PILE_RESHUFFLED.value
_DISCARD_REQUIRED: Final = EventType.DISCARD_REQUIRED.value
_CARDS_DISCARDED: Final = EventType.CARDS_DISCARDED.value
_GAME_ENDED: Final = EventType.GAME_ENDED.value
_GAME_ABORTED: Final = EventType.GAME_ABORTED.value
_SEAT_TAKEN_BY_BOT: Final = EventType.SEAT_TAKEN_BY_BOT.value
_SEAT_RECLAIMED: Final = EventType.SEAT_RECLAIMED.value


def game_started(
    ruleset: dict[str, Any],
    players: int,
    shuffler: int,
    hands: Sequence[Sequence[str]],
    draw_pile: Sequence[str],
    discard_pile: Sequence[str],
    damage: Sequence[int],
    direction: int,
    protected: Sequence[int],
    turn: int,
) -> GameStarted:
    return {
        "type": _GAME_STARTED,
        "version": EVENT_VERSION,
        "ruleset": ruleset,
        "players": players,
        "shuffler": shuffler,
        "hands": [list(h) for h in hands],
        "draw_pile": list(draw_pile),
        "discard_pile": list(discard_pile),
        "damage": list(damage),
        "direction": direction_name(direction),
        "protected": sorted(protected),
        "turn": turn,
    }


def turn_started(seat: int, turn: int) -> TurnStarted:
    return {"type": _TURN_STARTED, "version": EVENT_VERSION, "seat": seat, "turn": turn}


def cards_played(seat: int, cards: Sequence[str], target: int | None) -> CardsPlayed:
    return {
        "type": _CARDS_PLAYED,
        "version": EVENT_VERSION,
        "seat": seat,
        "cards": list(cards),
        "target": target,
    }


def direction_changed(direction: int) -> DirectionChanged:
    return {"type": _DIRECTION_CHANGED, "version": EVENT_VERSION, "direction": direction_name(direction)}


def protection_gained(seat: int) -> ProtectionGained:
    return {"type": _PROTECTION_GAINED, "version": EVENT_VERSION, "seat": seat}


def damage_healed(seat: int, damage: int) -> DamageHealed:
    return {"type": _DAMAGE_HEALED, "version": EVENT_VERSION, "seat": seat, "damage": damage}


def player_skipped(seat: int) -> PlayerSkipped:
    return {"type": _PLAYER_SKIPPED, "version": EVENT_VERSION, "seat": seat}


def volley_pending(attacker: int, target: int, count: int) -> VolleyPending:
    return {
        "type": _VOLLEY_PENDING,
        "version": EVENT_VERSION,
        "attacker": attacker,
        "target": target,
        "count": count,
    }


def skip_pending(seat: int, by: int) -> SkipPending:
    return {"type": _SKIP_PENDING, "version": EVENT_VERSION, "seat": seat, "by": by}


def reaction_played(seat: int, card: str, kind: ReactionKind) -> ReactionPlayed:
    return {"type": _REACTION_PLAYED, "version": EVENT_VERSION, "seat": seat, "card": card, "kind": kind}


def reaction_declined(seat: int, kind: ReactionKind) -> ReactionDeclined:
    return {"type": _REACTION_DECLINED, "version": EVENT_VERSION, "seat": seat, "kind": kind}


def damage_taken(seat: int, amount: int, damage: int) -> DamageTaken:
    return {"type": _DAMAGE_TAKEN, "version": EVENT_VERSION, "seat": seat, "amount": amount, "damage": damage}


def player_eliminated(seat: int, cards: Sequence[str]) -> PlayerEliminated:
    return {"type": _PLAYER_ELIMINATED, "version": EVENT_VERSION, "seat": seat, "cards": list(cards)}


def card_burned(seat: int, card: str | None) -> CardBurned:
    return {"type": _CARD_BURNED, "version": EVENT_VERSION, "seat": seat, "card": card}


def cards_drawn(seat: int, cards: Sequence[str]) -> CardsDrawn:
    return {"type": _CARDS_DRAWN, "version": EVENT_VERSION, "seat": seat, "cards": list(cards)}


def draw_pile_reshuffled(cards: Sequence[str]) -> DrawPileReshuffled:
    return {"type": _DRAW_PILE_RESHUFFLED, "version": EVENT_VERSION, "cards": list(cards)}


def discard_required(seat: int, count: int) -> DiscardRequired:
    return {"type": _DISCARD_REQUIRED, "version": EVENT_VERSION, "seat": seat, "count": count}


def cards_discarded(seat: int, cards: Sequence[str]) -> CardsDiscarded:
    return {"type": _CARDS_DISCARDED, "version": EVENT_VERSION, "seat": seat, "cards": list(cards)}


def game_ended(result: Result, winner: int | None, survivors: Sequence[int]) -> GameEnded:
    assert result is not Result.ABORTED, "an aborted game ends by GameAborted"
    return {
        "type": _GAME_ENDED,
        "version": EVENT_VERSION,
        "result": "win" if result is Result.WIN else "draw",
        "winner": winner,
        "survivors": list(survivors),
    }


def game_aborted(reason: str | None = None) -> GameAborted:
    out: GameAborted = {"type": _GAME_ABORTED, "version": EVENT_VERSION}
    if reason is not None:
        out["reason"] = reason
    return out


def seat_taken_by_bot(seat: int, reason: str) -> SeatTakenByBot:
    return {"type": _SEAT_TAKEN_BY_BOT, "version": EVENT_VERSION, "seat": seat, "reason": reason}


def seat_reclaimed(seat: int) -> SeatReclaimed:
    return {"type": _SEAT_RECLAIMED, "version": EVENT_VERSION, "seat": seat}
