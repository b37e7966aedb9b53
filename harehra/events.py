"""Event constructors and the fold.

Events are plain JSON-ready dicts with a `type` and a schema `version`. `apply` trusts them:
`decide` checked everything before it emitted them, so the fold never fails and never re-checks.
Keys an event type does not know (a deadline, an actor) are ignored by the fold.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from enum import StrEnum
from typing import Any

from .ruleset import MAX_PLAYERS, Ruleset
from .state import CCW, CW, Awaiting, Decision, Draft, GameState, Result, Volley, seal, thaw

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


# The state changes, once. Each primitive changes a private Draft in place, taking the event's
# fields as plain arguments: the rules (decide.py) call them directly as they go, recording the
# event beside each call only when a log is kept, and the fold (FOLD, below) calls the same
# primitives with the fields read from a stored event. So the recorded path, the playout path and
# replaying a stored log change the state by the same code.
Fold = Callable[[Draft, Mapping[str, Any]], None]


def direction_name(direction: int) -> str:
    return "cw" if direction == CW else "ccw"


def direction_value(name: str) -> int:
    return CCW if name == "ccw" else CW


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
        drawn_since_volley_taken=(-1,) * n,
        drawn_since_skip_taken=(-1,) * n,
    )


# One shared Awaiting per seat and kind (immutable values), looked up by seat.
_AWAITING: dict[Decision, tuple[Awaiting, ...]] = {
    kind: tuple(Awaiting(seat, kind) for seat in range(MAX_PLAYERS)) for kind in Decision
}
_TURN_AWAITS = _AWAITING[Decision.TURN]
_VOLLEY_AWAITS = _AWAITING[Decision.VOLLEY]
_SKIP_AWAITS = _AWAITING[Decision.SKIP]
_DISCARD_AWAITS = _AWAITING[Decision.DISCARD]


def turn_started(d: Draft, seat: int, turn: int) -> None:
    d.turn_seat = seat
    d.turn_number = turn
    if seat in d.protected:
        _protected(d).discard(seat)
    d.awaiting = _TURN_AWAITS[seat]
    d.skipped = None
    d.volley = None
    d.skip_from = None


# A draft thawed from a GameState shares the state's tuples and frozenset until a primitive first
# changes one (copy on write): `step` then copies only the hand or pile its command changes, and
# sealing it gives back unchanged tuples as they are. Search playouts' drafts hold lists and a set
# from the start, so each check below finds them mutable at once.


def _hand(d: Draft, seat: int) -> list[str]:
    hand = d.hands[seat]
    if isinstance(hand, tuple):
        hand = d.hands[seat] = list(hand)
    return hand


def _discard_pile(d: Draft) -> list[str]:
    pile = d.discard_pile
    if isinstance(pile, tuple):
        pile = d.discard_pile = list(pile)
    return pile


def _damage(d: Draft) -> list[int]:
    damage = d.damage
    if isinstance(damage, tuple):
        damage = d.damage = list(damage)
    return damage


def _protected(d: Draft) -> set[int]:
    protected = d.protected
    if isinstance(protected, frozenset):
        protected = d.protected = set(protected)
    return protected


def cards_played(d: Draft, seat: int, cards: Sequence[str]) -> None:
    hand = d.hands[seat]
    if isinstance(hand, tuple):  # _hand and _discard_pile, inline: this runs on every move
        hand = d.hands[seat] = list(hand)
    for card in cards:
        hand.remove(card)
    pile = d.discard_pile
    if isinstance(pile, tuple):
        pile = d.discard_pile = list(pile)
    pile.extend(cards)
    d.awaiting = None


def direction_changed(d: Draft, direction: int) -> None:
    d.direction = direction


def protection_gained(d: Draft, seat: int) -> None:
    _protected(d).add(seat)


def damage_set(d: Draft, seat: int, damage: int) -> None:
    _damage(d)[seat] = damage


def player_skipped(d: Draft, seat: int) -> None:
    d.skipped = seat
    d.awaiting = None
    d.skip_from = None


_VOLLEYS: dict[tuple[int, int, int], Volley] = {}


def volley_pending(d: Draft, attacker: int, target: int, count: int) -> None:
    volley = _VOLLEYS.get((attacker, target, count))
    if volley is None:  # one shared Volley per attacker, target and count (immutable values)
        volley = _VOLLEYS[(attacker, target, count)] = Volley(attacker, target, count)
    d.volley = volley
    d.awaiting = _VOLLEY_AWAITS[target]


def skip_pending(d: Draft, seat: int, by: int) -> None:
    d.skip_from = by
    d.awaiting = _SKIP_AWAITS[seat]


def reaction_played(d: Draft, seat: int, card: str) -> None:
    _hand(d, seat).remove(card)
    _discard_pile(d).append(card)
    d.awaiting = None
    d.volley = None


def _counted_from_now(counts: list[int] | tuple[int, ...], seat: int) -> list[int]:
    out = counts if isinstance(counts, list) else list(counts)
    out[seat] = 0
    return out


def reaction_declined(d: Draft, seat: int, kind: str) -> None:
    """`seat` let a volley land or took a skip (`kind`): it held no card to answer with, or
    kept it; every card it draws from now on is counted."""
    if kind == "volley":
        d.drawn_since_volley_taken = _counted_from_now(d.drawn_since_volley_taken, seat)
    else:
        d.drawn_since_skip_taken = _counted_from_now(d.drawn_since_skip_taken, seat)
    d.awaiting = None


def damage_taken(d: Draft, seat: int, damage: int) -> None:
    _damage(d)[seat] = damage
    d.volley = None


def player_eliminated(d: Draft, seat: int) -> None:
    hand = _hand(d, seat)
    _discard_pile(d).extend(hand)
    hand.clear()
    if seat in d.protected:
        _protected(d).discard(seat)


def card_burned(d: Draft, seat: int, card: str | None) -> None:
    if card:
        _hand(d, seat).remove(card)
        _discard_pile(d).append(card)
    d.awaiting = None


def cards_drawn(d: Draft, seat: int, cards: Sequence[str]) -> None:
    hand = d.hands[seat]
    if isinstance(hand, tuple):  # _hand, inline: this runs on every turn
        hand = d.hands[seat] = list(hand)
    hand.extend(cards)
    pile = d.draw_pile
    if isinstance(pile, tuple):
        d.draw_pile = pile[len(cards) :]  # a slice copies once, as converting would
    else:
        del pile[: len(cards)]
    counts = d.drawn_since_volley_taken
    if counts[seat] >= 0:
        if isinstance(counts, tuple):
            counts = d.drawn_since_volley_taken = list(counts)
        counts[seat] += len(cards)
    counts = d.drawn_since_skip_taken
    if counts[seat] >= 0:
        if isinstance(counts, tuple):
            counts = d.drawn_since_skip_taken = list(counts)
        counts[seat] += len(cards)


def draw_pile_reshuffled(d: Draft, cards: Sequence[str]) -> None:
    d.draw_pile = [*d.draw_pile, *cards]
    d.discard_pile = d.discard_pile[-1:]


def discard_required(d: Draft, seat: int, count: int) -> None:
    d.awaiting = _DISCARD_AWAITS[seat]
    d.discard_count = count


def cards_discarded(d: Draft, seat: int, cards: Sequence[str]) -> None:
    cards_played(d, seat, cards)  # the same move, from the hand to the discard pile
    d.discard_count = 0


def game_ended(d: Draft, result: Result, winner: int | None) -> None:
    d.result = result
    d.winner = winner
    d.awaiting = None
    d.volley = None


def game_aborted(d: Draft) -> None:
    game_ended(d, Result.ABORTED, None)


FOLD: dict[str, Fold] = {
    EventType.TURN_STARTED: lambda d, e: turn_started(d, e["seat"], e["turn"]),
    EventType.CARDS_PLAYED: lambda d, e: cards_played(d, e["seat"], e["cards"]),
    EventType.DIRECTION_CHANGED: lambda d, e: direction_changed(d, direction_value(e["direction"])),
    EventType.PROTECTION_GAINED: lambda d, e: protection_gained(d, e["seat"]),
    EventType.DAMAGE_HEALED: lambda d, e: damage_set(d, e["seat"], e["damage"]),
    EventType.PLAYER_SKIPPED: lambda d, e: player_skipped(d, e["seat"]),
    EventType.VOLLEY_PENDING: lambda d, e: volley_pending(d, e["attacker"], e["target"], e["count"]),
    EventType.SKIP_PENDING: lambda d, e: skip_pending(d, e["seat"], e["by"]),
    EventType.REACTION_PLAYED: lambda d, e: reaction_played(d, e["seat"], e["card"]),
    EventType.REACTION_DECLINED: lambda d, e: reaction_declined(d, e["seat"], e["kind"]),
    EventType.DAMAGE_TAKEN: lambda d, e: damage_taken(d, e["seat"], e["damage"]),
    EventType.PLAYER_ELIMINATED: lambda d, e: player_eliminated(d, e["seat"]),
    EventType.CARD_BURNED: lambda d, e: card_burned(d, e["seat"], e["card"]),
    EventType.CARDS_DRAWN: lambda d, e: cards_drawn(d, e["seat"], e["cards"]),
    EventType.DRAW_PILE_RESHUFFLED: lambda d, e: draw_pile_reshuffled(d, e["cards"]),
    EventType.DISCARD_REQUIRED: lambda d, e: discard_required(d, e["seat"], e["count"]),
    EventType.CARDS_DISCARDED: lambda d, e: cards_discarded(d, e["seat"], e["cards"]),
    EventType.GAME_ENDED: lambda d, e: game_ended(d, Result(e["result"]), e.get("winner")),
    EventType.GAME_ABORTED: lambda d, e: game_aborted(d),
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
    return seal(draft)


def replay(events: Iterable[Mapping[str, Any]], state: GameState | None = None) -> GameState:
    """The state `events` lead to (from `state`, or from their GameStarted): folded into one
    private draft, frozen once."""
    draft: Draft | None = thaw(state) if state is not None else None
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
    return seal(draft)
