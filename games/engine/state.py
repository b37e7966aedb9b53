"""The game state: an immutable value, produced only by folding events."""

from __future__ import annotations

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


# Not slotted: the fold copies and updates a state through its __dict__, far faster than
# setting eighteen slots one by one (see events.replace). Frozen all the same.
@dataclass(frozen=True)
class GameState:
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
