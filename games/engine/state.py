"""The game state: an immutable value, produced only by folding events."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from .ruleset import Ruleset

CW = 1
CCW = -1


class Decision(StrEnum):
    TURN = "turn"
    VOLLEY = "volley"
    SKIP = "skip"
    DISCARD = "discard"


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
        n = self.players
        s = seat
        for _ in range(n):
            s = (s + step) % n
            if not self.is_eliminated(s):
                return s
        return seat


# Not slotted: a state is made from a Draft by filling its __dict__ at once (see freeze), far
# faster than running __init__ or setting eighteen slots one by one. Frozen all the same.
@dataclass(frozen=True)
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


class Draft(_Seats):
    """A GameState's fields in mutable form, private to whoever is changing it.

    The fold (events.FOLD) changes a draft in place; `decide`, `apply` and `replay` fold into one
    and `freeze` it into a GameState once, and search playouts keep one for a whole playout.
    """

    __slots__ = (
        "awaiting",
        "damage",
        "direction",
        "discard_count",
        "discard_pile",
        "draw_pile",
        "hands",
        "players",
        "protected",
        "result",
        "ruleset",
        "shuffler",
        "skip_from",
        "skipped",
        "turn_number",
        "turn_seat",
        "volley",
        "winner",
    )
    ruleset: Ruleset
    players: int
    shuffler: int
    hands: list[list[str]]
    draw_pile: list[str]
    discard_pile: list[str]
    damage: list[int]
    protected: set[int]
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


_new = object.__new__


def thaw(state: GameState) -> Draft:
    """A private, mutable copy of `state`."""
    d = _new(Draft)
    d.ruleset = state.ruleset
    d.players = state.players
    d.shuffler = state.shuffler
    d.hands = [list(h) for h in state.hands]
    d.draw_pile = list(state.draw_pile)
    d.discard_pile = list(state.discard_pile)
    d.damage = list(state.damage)
    d.protected = set(state.protected)
    d.direction = state.direction
    d.turn_seat = state.turn_seat
    d.turn_number = state.turn_number
    d.awaiting = state.awaiting
    d.volley = state.volley
    d.skip_from = state.skip_from
    d.skipped = state.skipped
    d.discard_count = state.discard_count
    d.result = state.result
    d.winner = state.winner
    return d


def copy_draft(d: Draft) -> Draft:
    """An independent copy of a draft (a search's fresh playout from the same position)."""
    c = _new(Draft)
    c.ruleset = d.ruleset
    c.players = d.players
    c.shuffler = d.shuffler
    c.hands = [list(h) for h in d.hands]
    c.draw_pile = d.draw_pile.copy()
    c.discard_pile = d.discard_pile.copy()
    c.damage = d.damage.copy()
    c.protected = set(d.protected)
    c.direction = d.direction
    c.turn_seat = d.turn_seat
    c.turn_number = d.turn_number
    c.awaiting = d.awaiting
    c.volley = d.volley
    c.skip_from = d.skip_from
    c.skipped = d.skipped
    c.discard_count = d.discard_count
    c.result = d.result
    c.winner = d.winner
    return c


def freeze(d: Draft) -> GameState:
    """The GameState a draft has come to (the draft stays usable and unshared)."""
    state = _new(GameState)
    state.__dict__.update(
        ruleset=d.ruleset,
        players=d.players,
        shuffler=d.shuffler,
        hands=tuple([tuple(h) for h in d.hands]),
        draw_pile=tuple(d.draw_pile),
        discard_pile=tuple(d.discard_pile),
        damage=tuple(d.damage),
        protected=frozenset(d.protected),
        direction=d.direction,
        turn_seat=d.turn_seat,
        turn_number=d.turn_number,
        awaiting=d.awaiting,
        volley=d.volley,
        skip_from=d.skip_from,
        skipped=d.skipped,
        discard_count=d.discard_count,
        result=d.result,
        winner=d.winner,
    )
    return state


AnyState = GameState | Draft
