"""The game state: an immutable value, produced only by folding events."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from .ruleset import Ruleset

CW = 1
CCW = -1


class Decision(StrEnum):
    TURN = "turn"
    VOLLEY = "volley"
    SKIP = "skip"
    DISCARD = "discard"


# Each decision as a module constant beside the enum, for the rules and the legal moves: they test
# the awaited decision on every step, and a module global is ten times faster to reach than an
# enum member (CPython 3.11). They are the members themselves, so `kind is TURN_DECISION` holds.
TURN_DECISION: Final = Decision.TURN
VOLLEY_DECISION: Final = Decision.VOLLEY
SKIP_DECISION: Final = Decision.SKIP
DISCARD_DECISION: Final = Decision.DISCARD


class Result(StrEnum):
    WIN = "win"
    DRAW = "draw"
    ABORTED = "aborted"


@dataclass(frozen=True, slots=True)
class Awaiting:
    seat: int
    kind: Decision


@dataclass(frozen=True, slots=True)
class Volley:
    attacker: int
    target: int
    count: int


class _Seats:
    """What both a GameState and a Draft answer about seats (the same fields, read alike)."""

    __slots__ = ()
    ruleset: Ruleset
    players: int
    damage: Sequence[int]
    direction: int
    result: Result | None

    @property
    def over(self) -> bool:
        return self.result is not None

    def max_hand(self, seat: int) -> int:
        return max(0, self.ruleset.hand_size - self.damage[seat])

    def is_eliminated(self, seat: int) -> bool:
        return self.damage[seat] >= self.ruleset.max_damage

    def alive(self) -> list[int]:
        return [s for s in range(self.players) if not self.is_eliminated(s)]

    def next_seat(self, seat: int, direction: int | None = None) -> int:
        """The next seat in `direction` (default: the current one) that is not eliminated (R1)."""
        step = self.direction if direction is None else direction
        n, damage, limit = self.players, self.damage, self.ruleset.max_damage
        s = seat
        for _ in range(n):
            s = (s + step) % n
            if damage[s] < limit:
                return s
        return seat


# Slotted, and a Draft has the very same slots: `step` turns its private draft into the next
# state by changing the draft's class (see seal) instead of copying eighteen fields.
@dataclass(frozen=True, slots=True)
class GameState(_Seats):
    ruleset: Ruleset
    players: int
    shuffler: int
    hands: tuple[tuple[str, ...], ...]
    draw_pile: tuple[str, ...]  # top first
    discard_pile: tuple[str, ...]  # bottom first; the last card is face up
    damage: tuple[int, ...]
    protected: frozenset[int]
    direction: int
    turn_seat: int
    turn_number: int
    awaiting: Awaiting | None = None
    volley: Volley | None = None
    skip_from: int | None = None  # who played or forwarded the pending skip
    skipped: int | None = None  # the seat skipped during this turn
    discard_count: int = 0  # cards the awaited seat must discard
    result: Result | None = None
    winner: int | None = None
    # Public knowledge: the cards each seat has drawn since it last let a volley land without a
    # Taptap, or last took a skip without forwarding a Strom (-1: it never has). Whatever it held
    # then, only these cards can be new to its hand (what a searching bot deals its worlds from).
    drawn_since_volley_taken: tuple[int, ...] = ()
    drawn_since_skip_taken: tuple[int, ...] = ()


class Draft(_Seats):
    """A GameState's fields in a mutable record, private to whoever changes it.

    Hands, piles, damage and protection are changed in place by the fold's functions
    (fold.py), so a rule that moves one card moves one card instead of rebuilding the tuples
    around it. `step` thaws a state into a draft that shares the state's tuples until a
    fold function first changes one (copy on write), runs the rules on it and seals it into the next
    GameState; search playouts keep one draft of lists for a whole playout and never seal it.
    """

    __slots__ = GameState.__slots__  # the same layout, in the same order: see seal
    ruleset: Ruleset
    players: int
    shuffler: int
    hands: list[list[str] | tuple[str, ...]]
    draw_pile: list[str] | tuple[str, ...]  # top first
    discard_pile: list[str] | tuple[str, ...]  # bottom first
    damage: list[int] | tuple[int, ...]
    protected: set[int] | frozenset[int]
    direction: int
    turn_seat: int
    turn_number: int
    awaiting: Awaiting | None
    volley: Volley | None
    skip_from: int | None
    skipped: int | None
    discard_count: int
    result: Result | None
    winner: int | None
    drawn_since_volley_taken: list[int] | tuple[int, ...]
    drawn_since_skip_taken: list[int] | tuple[int, ...]


_new = object.__new__


def _draft(source: GameState | Draft) -> Draft:
    """A draft of `source`'s fields, sharing every value: each caller sets its own hands. Made
    field by field on a bare object: a frozen dataclass's __init__ sets each field the slow way."""
    d = _new(Draft)
    d.ruleset = source.ruleset
    d.players = source.players
    d.shuffler = source.shuffler
    d.draw_pile = source.draw_pile
    d.discard_pile = source.discard_pile
    d.damage = source.damage
    d.protected = source.protected
    d.direction = source.direction
    d.turn_seat = source.turn_seat
    d.turn_number = source.turn_number
    d.awaiting = source.awaiting
    d.volley = source.volley
    d.skip_from = source.skip_from
    d.skipped = source.skipped
    d.discard_count = source.discard_count
    d.result = source.result
    d.winner = source.winner
    d.drawn_since_volley_taken = source.drawn_since_volley_taken
    d.drawn_since_skip_taken = source.drawn_since_skip_taken
    return d


def thaw(state: GameState) -> Draft:
    """A private draft of `state`, sharing its tuples until they are changed (copy on write)."""
    d = _draft(state)
    d.hands = list(state.hands)
    return d


def private_draft(source: GameState | Draft) -> Draft:
    """A draft of lists and a set, independent of `source`: what a search playout changes in
    place many times (no copy-on-write check ever copies in it)."""
    d = _draft(source)
    d.hands = list(map(list, source.hands))
    d.draw_pile = list(source.draw_pile)
    d.discard_pile = list(source.discard_pile)
    d.damage = list(source.damage)
    d.protected = set(source.protected)
    d.drawn_since_volley_taken = list(source.drawn_since_volley_taken)
    d.drawn_since_skip_taken = list(source.drawn_since_skip_taken)
    return d


def _make_immutable(d: Draft) -> None:
    # tuple() and frozenset() give back a value that is one already: what no rule changed is shared.
    d.hands = tuple(map(tuple, d.hands))  # type: ignore[assignment]
    d.draw_pile = tuple(d.draw_pile)
    d.discard_pile = tuple(d.discard_pile)
    d.damage = tuple(d.damage)
    d.protected = frozenset(d.protected)
    d.drawn_since_volley_taken = tuple(d.drawn_since_volley_taken)
    d.drawn_since_skip_taken = tuple(d.drawn_since_skip_taken)


def seal(d: Draft) -> GameState:
    """The GameState a draft has come to, made of the draft itself, which must not be changed
    again (what `step`, `apply` and `replay` do with the draft they thawed).

    Nothing is copied: a Draft has a GameState's very slots, so changing the object's class turns
    it into the frozen state at once, where building one would set eighteen fields again (through
    the frozen dataclass's slow __setattr__) on every move."""
    _make_immutable(d)
    d.__class__ = GameState  # type: ignore[assignment]
    return d  # type: ignore[return-value]


def freeze(d: Draft) -> GameState:
    """The GameState a draft has come to; the draft stays usable and unshared."""
    return seal(private_draft(d))


AnyState = GameState | Draft
