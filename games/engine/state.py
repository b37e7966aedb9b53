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
    """A GameState's fields in a record that may be changed, private to whoever changes it.

    The fields hold the same immutable values as a GameState's (tuples, frozensets); the fold
    (events.FOLD) sets them anew in place. `decide`, `apply` and `replay` fold into one draft and
    `freeze` it into a GameState once; search playouts keep one draft for a whole playout. Copying
    a draft, or freezing it, copies its record and none of its values.
    """

    ruleset: Ruleset
    players: int
    shuffler: int
    hands: tuple[tuple[str, ...], ...]
    draw_pile: tuple[str, ...]
    discard_pile: tuple[str, ...]
    damage: tuple[int, ...]
    protected: frozenset[int]
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
    """A private draft of `state`."""
    d = _new(Draft)
    d.__dict__.update(state.__dict__)
    return d


def copy_draft(d: Draft) -> Draft:
    """An independent copy of a draft (a search's fresh playout from the same position)."""
    c = _new(Draft)
    c.__dict__.update(d.__dict__)
    return c


def freeze(d: Draft) -> GameState:
    """The GameState a draft has come to (the draft stays usable and unshared)."""
    state = _new(GameState)
    state.__dict__.update(d.__dict__)
    return state


AnyState = GameState | Draft
