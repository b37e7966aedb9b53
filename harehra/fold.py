"""The fold: how each rules event changes the state, written once.

Each `fold_<event>` function changes a private Draft in place, taking the event's fields as plain
arguments. The rules (decide.py) call them directly as they go, making the event beside each call
only when a log is kept; `apply` and `replay` call the same functions with the fields read from a
stored event. So the recorded path, the playout path and replaying a stored log change the state
by the same code. The fold trusts its events: `decide` checked everything before it made them, so
folding never fails and never re-checks. Keys an event type does not know (a deadline, an actor)
are ignored, and the seat events (outside the rules) leave the state as it is.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from .events import EventType, StoredEvent, direction_value
from .ruleset import MAX_PLAYERS, Ruleset
from .state import Awaiting, Decision, Draft, GameState, Result, Volley, seal, thaw


def initial_state(e: StoredEvent) -> GameState:
    """The state a GameStarted event sets up."""
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


# --- copy on write ---------------------------------------------------------------------------
# A draft thawed from a GameState shares the state's tuples and frozenset until a fold function
# first changes one: `step` then copies only the hand or pile its command changes, and sealing
# gives back unchanged tuples as they are. Search playouts' drafts hold lists and a set from the
# start, so each check below finds them mutable at once.


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


def _counted_from_now(counts: list[int] | tuple[int, ...], seat: int) -> list[int]:
    out = counts if isinstance(counts, list) else list(counts)
    out[seat] = 0
    return out


# --- shared values ---------------------------------------------------------------------------
# Awaiting and Volley are immutable values: the fold hands out one per seat and kind (resp. per
# attacker, target and count) instead of making a new one on every change.

_AWAITING: dict[Decision, tuple[Awaiting, ...]] = {
    kind: tuple(Awaiting(seat, kind) for seat in range(MAX_PLAYERS)) for kind in Decision
}
_TURN_AWAITS = _AWAITING[Decision.TURN]
_VOLLEY_AWAITS = _AWAITING[Decision.VOLLEY]
_SKIP_AWAITS = _AWAITING[Decision.SKIP]
_DISCARD_AWAITS = _AWAITING[Decision.DISCARD]
_VOLLEYS: dict[tuple[int, int, int], Volley] = {}


# --- one function per rules event --------------------------------------------------------------


def fold_turn_started(d: Draft, seat: int, turn: int) -> None:
    d.turn_seat = seat
    d.turn_number = turn
    if seat in d.protected:
        _protected(d).discard(seat)
    d.awaiting = _TURN_AWAITS[seat]
    d.skipped = None
    d.volley = None
    d.skip_from = None


def fold_cards_played(d: Draft, seat: int, cards: Sequence[str]) -> None:
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


def fold_direction_changed(d: Draft, direction: int) -> None:
    d.direction = direction


def fold_protection_gained(d: Draft, seat: int) -> None:
    _protected(d).add(seat)


def fold_damage_healed(d: Draft, seat: int, damage: int) -> None:
    _damage(d)[seat] = damage


def fold_player_skipped(d: Draft, seat: int) -> None:
    d.skipped = seat
    d.awaiting = None
    d.skip_from = None


def fold_volley_pending(d: Draft, attacker: int, target: int, count: int) -> None:
    volley = _VOLLEYS.get((attacker, target, count))
    if volley is None:
        volley = _VOLLEYS[(attacker, target, count)] = Volley(attacker, target, count)
    d.volley = volley
    d.awaiting = _VOLLEY_AWAITS[target]


def fold_skip_pending(d: Draft, seat: int, by: int) -> None:
    d.skip_from = by
    d.awaiting = _SKIP_AWAITS[seat]


def fold_reaction_played(d: Draft, seat: int, card: str) -> None:
    _hand(d, seat).remove(card)
    _discard_pile(d).append(card)
    d.awaiting = None
    d.volley = None


def fold_reaction_declined(d: Draft, seat: int, kind: str) -> None:
    """`seat` let a volley land or took a skip (`kind`): it held no card to answer with, or
    kept it; every card it draws from now on is counted."""
    if kind == "volley":
        d.drawn_since_volley_taken = _counted_from_now(d.drawn_since_volley_taken, seat)
    else:
        d.drawn_since_skip_taken = _counted_from_now(d.drawn_since_skip_taken, seat)
    d.awaiting = None


def fold_damage_taken(d: Draft, seat: int, damage: int) -> None:
    _damage(d)[seat] = damage
    d.volley = None


def fold_player_eliminated(d: Draft, seat: int) -> None:
    hand = _hand(d, seat)
    _discard_pile(d).extend(hand)
    hand.clear()
    if seat in d.protected:
        _protected(d).discard(seat)


def fold_card_burned(d: Draft, seat: int, card: str | None) -> None:
    if card:
        _hand(d, seat).remove(card)
        _discard_pile(d).append(card)
    d.awaiting = None


def fold_cards_drawn(d: Draft, seat: int, cards: Sequence[str]) -> None:
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


def fold_draw_pile_reshuffled(d: Draft, cards: Sequence[str]) -> None:
    d.draw_pile = [*d.draw_pile, *cards]
    d.discard_pile = d.discard_pile[-1:]


def fold_discard_required(d: Draft, seat: int, count: int) -> None:
    d.awaiting = _DISCARD_AWAITS[seat]
    d.discard_count = count


def fold_cards_discarded(d: Draft, seat: int, cards: Sequence[str]) -> None:
    fold_cards_played(d, seat, cards)  # the same move, from the hand to the discard pile
    d.discard_count = 0


def fold_game_ended(d: Draft, result: Result, winner: int | None) -> None:
    d.result = result
    d.winner = winner
    d.awaiting = None
    d.volley = None


def fold_game_aborted(d: Draft) -> None:
    fold_game_ended(d, Result.ABORTED, None)


# --- folding stored events -------------------------------------------------------------------

Fold = Callable[[Draft, Mapping[str, Any]], None]

_FOLDS: dict[EventType, Fold] = {
    EventType.TURN_STARTED: lambda d, e: fold_turn_started(d, e["seat"], e["turn"]),
    EventType.CARDS_PLAYED: lambda d, e: fold_cards_played(d, e["seat"], e["cards"]),
    EventType.DIRECTION_CHANGED: lambda d, e: fold_direction_changed(d, direction_value(e["direction"])),
    EventType.PROTECTION_GAINED: lambda d, e: fold_protection_gained(d, e["seat"]),
    EventType.DAMAGE_HEALED: lambda d, e: fold_damage_healed(d, e["seat"], e["damage"]),
    EventType.PLAYER_SKIPPED: lambda d, e: fold_player_skipped(d, e["seat"]),
    EventType.VOLLEY_PENDING: lambda d, e: fold_volley_pending(d, e["attacker"], e["target"], e["count"]),
    EventType.SKIP_PENDING: lambda d, e: fold_skip_pending(d, e["seat"], e["by"]),
    EventType.REACTION_PLAYED: lambda d, e: fold_reaction_played(d, e["seat"], e["card"]),
    EventType.REACTION_DECLINED: lambda d, e: fold_reaction_declined(d, e["seat"], e["kind"]),
    EventType.DAMAGE_TAKEN: lambda d, e: fold_damage_taken(d, e["seat"], e["damage"]),
    EventType.PLAYER_ELIMINATED: lambda d, e: fold_player_eliminated(d, e["seat"]),
    EventType.CARD_BURNED: lambda d, e: fold_card_burned(d, e["seat"], e["card"]),
    EventType.CARDS_DRAWN: lambda d, e: fold_cards_drawn(d, e["seat"], e["cards"]),
    EventType.DRAW_PILE_RESHUFFLED: lambda d, e: fold_draw_pile_reshuffled(d, e["cards"]),
    EventType.DISCARD_REQUIRED: lambda d, e: fold_discard_required(d, e["seat"], e["count"]),
    EventType.CARDS_DISCARDED: lambda d, e: fold_cards_discarded(d, e["seat"], e["cards"]),
    EventType.GAME_ENDED: lambda d, e: fold_game_ended(d, Result(e["result"]), e.get("winner")),
    EventType.GAME_ABORTED: lambda d, e: fold_game_aborted(d),
}
# Keyed by plain strings: a stored event's type is one, and it finds a string key at once.
_FOLD: dict[str, Fold] = {kind.value: fold for kind, fold in _FOLDS.items()}
_GAME_STARTED = EventType.GAME_STARTED.value


def apply(state: GameState | None, e: StoredEvent) -> GameState:
    """Fold one event into the state (None before a game's GameStarted). Event types outside the
    rules (seat changes) leave it as is."""
    kind = e["type"]
    if kind == _GAME_STARTED:
        return initial_state(e)
    assert state is not None, "the first event of a game is GameStarted"
    fold = _FOLD.get(kind)
    if fold is None:
        return state
    draft = thaw(state)
    fold(draft, e)
    return seal(draft)


def replay(events: Iterable[StoredEvent], state: GameState | None = None) -> GameState:
    """The state `events` lead to (from `state`, or from their GameStarted): folded into one
    private draft, sealed once."""
    draft: Draft | None = thaw(state) if state is not None else None
    for e in events:
        kind = e["type"]
        if kind == _GAME_STARTED:
            draft = thaw(initial_state(e))
            continue
        assert draft is not None, "the first event of a game is GameStarted"
        fold = _FOLD.get(kind)
        if fold:
            fold(draft, e)
    if draft is None:
        raise ValueError("no events to replay")
    return seal(draft)
