"""The mypyc prototype of the compiled playout core (docs/ANALYSIS.md, "The compiled playout
core"): harehra/bots/_playout_core.pyx line by line in typed Python, a native class of int lists
for the table. Not used by the site: scripts/playout_speed.py --mypyc builds it (mypyc, into a
temporary directory) and measures it beside the Cython core it was chosen against.
"""

from __future__ import annotations

from typing import Any, Final

from mypy_extensions import i64

from harehra.bots.heuristic import KEEP_VALUE, PLAY_ORDER
from harehra.cards import ALL_CARDS
from harehra.state import (
    DISCARD_DECISION,
    SKIP_DECISION,
    TURN_DECISION,
    VOLLEY_DECISION,
    Awaiting,
    Result,
    Volley,
)

NAMES: Final = tuple(sorted(ALL_CARDS))
CODES: Final = {name: i for i, name in enumerate(NAMES)}
C_CUMI: Final = CODES["cumi"]
C_HOUSE: Final = CODES["house"]
C_LEFT: Final = CODES["left"]
C_RIGHT: Final = CODES["right"]
C_STROM: Final = CODES["strom"]
C_TAPTAP: Final = CODES["taptap"]
C_ZADA: Final = CODES["zada"]
KEEP: Final = [KEEP_VALUE.get(name, 0) for name in NAMES]
ORDER: Final = [CODES[c] for c in PLAY_ORDER]
K_NONE: Final = -1
K_TURN: Final = 0
K_VOLLEY: Final = 1
K_SKIP: Final = 2
K_DISCARD: Final = 3
KINDS: Final = (TURN_DECISION, VOLLEY_DECISION, SKIP_DECISION, DISCARD_DECISION)
AWAITS: Final = tuple(tuple(Awaiting(seat, kind) for seat in range(8)) for kind in KINDS)
MASK: Final = (1 << 64) - 1


class Table:
    def __init__(self, d: Any) -> None:
        ruleset = d.ruleset
        self.n: i64 = d.players
        self.hand_size: i64 = ruleset.hand_size
        self.limit: i64 = ruleset.max_damage
        self.turn_limit: i64 = ruleset.turn_limit
        self.hands: list[list[int]] = [[CODES[c] for c in h] for h in d.hands]
        self.draw: list[int] = [CODES[c] for c in d.draw_pile]
        self.disc: list[int] = [CODES[c] for c in d.discard_pile]
        self.damage: list[int] = list(d.damage)
        self.prot: i64 = 0
        for s in d.protected:
            self.prot |= 1 << s
        self.direction: i64 = d.direction
        self.turn_seat: i64 = d.turn_seat
        self.turn_number: i64 = d.turn_number
        self.aw_seat: i64 = d.awaiting.seat
        self.aw_kind: i64 = KINDS.index(d.awaiting.kind)
        v = d.volley
        self.has_volley = v is not None
        self.v_att: i64 = v.attacker if v is not None else 0
        self.v_tgt: i64 = v.target if v is not None else 0
        self.v_cnt: i64 = v.count if v is not None else 0
        self.skip_from: i64 = -1 if d.skip_from is None else d.skip_from
        self.skipped: i64 = -1 if d.skipped is None else d.skipped
        self.discard_count: i64 = d.discard_count
        self.result: i64 = 0
        self.winner: i64 = -1
        self.dsv: list[int] = list(d.drawn_since_volley_taken)
        self.dss: list[int] = list(d.drawn_since_skip_taken)
        self.rng = 0

    def below(self, n: int) -> int:
        z = self.rng = (self.rng + 0x9E3779B97F4A7C15) & MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return ((z ^ (z >> 31)) * n) >> 64

    def next_seat(self, seat: i64) -> i64:
        s = seat
        for _ in range(self.n):
            s = (s + self.direction + self.n) % self.n
            if self.damage[s] < self.limit:
                return s
        return seat

    def game_ended(self, result: i64, winner: i64) -> None:
        self.result = result
        self.winner = winner
        self.aw_kind = K_NONE
        self.has_volley = False

    def next_turn(self) -> None:
        n = self.n
        for i in range(n):
            if len(self.hands[i]) + self.damage[i] > self.hand_size:
                seat = self.turn_seat
                for _ in range(n):
                    most = max(0, self.hand_size - self.damage[seat])
                    excess = len(self.hands[seat]) - most
                    if excess > 0:
                        self.aw_seat = seat
                        self.aw_kind = K_DISCARD
                        self.discard_count = excess
                        return
                    seat = (seat + self.direction + n) % n
                break
        turn = self.turn_number + 1
        if turn > self.turn_limit:
            self.game_ended(2, -1)
            return
        seat = self.next_seat(self.turn_seat if self.skipped < 0 else self.skipped)
        self.turn_seat = seat
        self.turn_number = turn
        self.prot &= ~(1 << seat)
        self.aw_seat = seat
        self.aw_kind = K_TURN
        self.skipped = -1
        self.has_volley = False
        self.skip_from = -1

    def end_turn(self) -> None:
        seat = self.turn_seat
        hand = self.hands[seat]
        while True:
            need = self.hand_size - self.damage[seat] - len(hand)
            if need <= 0:
                break
            if self.draw:
                drawn = self.draw[:need]
                hand.extend(drawn)
                del self.draw[:need]
                got = len(drawn)
                if self.dsv[seat] >= 0:
                    self.dsv[seat] += got
                if self.dss[seat] >= 0:
                    self.dss[seat] += got
            elif len(self.disc) > 1:
                order = self.disc[:-1]
                for i in range(len(order) - 1, 0, -1):
                    j = self.below(i + 1)
                    order[i], order[j] = order[j], order[i]
                self.draw = order
                self.disc = self.disc[-1:]
            else:
                break
        self.next_turn()

    def play_single(self, seat: i64, card: int) -> None:
        self.hands[seat].remove(card)
        self.disc.append(card)
        self.aw_kind = K_NONE
        if card == C_STROM:
            self.skip_from = seat
            self.aw_seat = self.next_seat(seat)
            self.aw_kind = K_SKIP
            return
        if card in (C_RIGHT, C_LEFT):
            self.direction = 1 if card == C_RIGHT else -1
            self.prot |= 1 << seat
        elif card == C_ZADA:
            self.damage[seat] = max(0, self.damage[seat] - 1)
        elif card == C_HOUSE:
            self.skipped = self.next_seat(seat)
            self.skip_from = -1
            self.prot |= 1 << self.skipped
        self.end_turn()

    def turn(self, seat: i64) -> None:
        hand = self.hands[seat]
        if self.damage[seat] >= 2 and C_ZADA in hand:
            self.play_single(seat, C_ZADA)
            return
        if C_CUMI in hand:
            target: i64 = -1
            most = -1
            for i in range(self.n):
                x = self.damage[i]
                if i != seat and x < self.limit and not (self.prot >> i) & 1 and x > most:
                    target = i
                    most = x
            if target >= 0:
                count = hand.count(C_CUMI)
                for _ in range(count):
                    hand.remove(C_CUMI)
                    self.disc.append(C_CUMI)
                self.has_volley = True
                self.v_att = seat
                self.v_tgt = target
                self.v_cnt = count
                self.aw_seat = target
                self.aw_kind = K_VOLLEY
                return
        for card in ORDER:
            if card in hand:
                self.play_single(seat, card)
                return
        if hand:
            card = min(hand, key=lambda c: KEEP[c] * 16 + c)
            hand.remove(card)
            self.disc.append(card)
        self.aw_kind = K_NONE
        self.end_turn()

    def discard(self, seat: i64) -> None:
        hand = self.hands[seat]
        chosen = sorted(sorted(hand, key=lambda c: KEEP[c] * 16 + c)[: self.discard_count])
        for c in chosen:
            hand.remove(c)
            self.disc.append(c)
        self.aw_kind = K_NONE
        self.discard_count = 0
        self.next_turn()

    def answer_volley(self, seat: i64) -> None:
        hand = self.hands[seat]
        if C_TAPTAP in hand:
            hand.remove(C_TAPTAP)
            self.disc.append(C_TAPTAP)
            self.aw_kind = K_NONE
            self.has_volley = False
            self.end_turn()
            return
        after = min(self.limit, self.damage[seat] + self.v_cnt)
        self.dsv[seat] = 0
        self.aw_kind = K_NONE
        self.damage[seat] = after
        self.has_volley = False
        if after >= self.limit:
            self.disc.extend(hand)
            hand.clear()
            self.prot &= ~(1 << seat)
            alive = [s for s in range(self.n) if self.damage[s] < self.limit]
            if len(alive) == 1:
                self.game_ended(1, alive[0])
                return
        self.end_turn()

    def move(self) -> None:
        seat, kind = self.aw_seat, self.aw_kind
        if kind == K_TURN:
            self.turn(seat)
        elif kind == K_SKIP:
            hand = self.hands[seat]
            if C_STROM in hand:
                hand.remove(C_STROM)
                self.disc.append(C_STROM)
                self.has_volley = False
                self.skip_from = seat
                self.aw_seat = self.next_seat(seat)
                self.aw_kind = K_SKIP
            else:
                self.dss[seat] = 0
                self.skipped = seat
                self.aw_kind = K_NONE
                self.skip_from = -1
                self.end_turn()
        elif kind == K_DISCARD:
            self.discard(seat)
        else:
            self.answer_volley(seat)

    def store(self, d: Any) -> None:
        d.hands = [[NAMES[c] for c in h] for h in self.hands]
        d.draw_pile = [NAMES[c] for c in self.draw]
        d.discard_pile = [NAMES[c] for c in self.disc]
        d.damage = self.damage
        d.protected = {s for s in range(self.n) if (self.prot >> s) & 1}
        d.direction = self.direction
        d.turn_seat = self.turn_seat
        d.turn_number = self.turn_number
        d.awaiting = None if self.aw_kind == K_NONE else AWAITS[self.aw_kind][self.aw_seat]
        d.volley = Volley(self.v_att, self.v_tgt, self.v_cnt) if self.has_volley else None
        d.skip_from = None if self.skip_from < 0 else self.skip_from
        d.skipped = None if self.skipped < 0 else self.skipped
        d.discard_count = self.discard_count
        if self.result:
            d.result = Result.WIN if self.result == 1 else Result.DRAW
            d.winner = None if self.winner < 0 else self.winner
        d.drawn_since_volley_taken = self.dsv
        d.drawn_since_skip_taken = self.dss


def play_moves(d: Any, rng: Any, max_moves: int) -> list[int]:
    """harehra.bots.playout.pure_moves, on a native table."""
    out = [0] * d.players
    if d.result is not None or d.awaiting is None:
        return out
    t = Table(d)
    t.rng = rng.state
    moves: i64 = 0
    while moves < max_moves and t.result == 0 and t.aw_kind != K_NONE:
        seat, kind = t.aw_seat, t.aw_kind
        t.move()
        moves += 1
        if kind == K_VOLLEY and t.damage[seat] >= t.limit:
            out[seat] = moves
    t.store(d)
    rng.state = t.rng
    return out
