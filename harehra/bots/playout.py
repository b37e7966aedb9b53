"""The normal bot's playouts, fast: its move chosen and applied in one step, with no command made.

A playout (the replay analysis's, played to the end, and the search bot's, to its horizon) asks
for each decision what the normal bot would do (`heuristic_move` over `legal_moves`) and plays it
(`advance`). `reference_move` is exactly that. `normal_move` reaches the same draft by a shorter
way: it reads the normal bot's choice straight off the hand (what `heuristic_move` picks from the
list `legal_moves` would give, proved case by case below) and applies it as `advance` would, by
the fold's own changes, without the checks a move the rules themselves listed has passed. So the
two give the same draft after every move and call `shuffle` with the same cards at the same
moments (tests/engine/test_playout.py plays both on many tables and compares them move by move).

Only for a private draft (`private_draft`: hands, piles, damage and counts are lists, protection a
set), whose game is not over and awaits a decision; live play never comes here.

A playout's luck comes from `SplitMix64`, a small generator specified here, so that a compiled
playout core (harehra/bots/_playout_core.pyx, built by scripts/build_playout_core) can draw the
very same numbers without calling back into Python. `pure_moves` plays a run of moves with
`normal_move` and is the specification of the compiled core's `play_moves`: the same moves, the
same draws, the same draft after every move (tests/engine/test_playout_core.py). `play_moves` is
the compiled core where it was built and imports, else `pure_moves` (`CORE_COMPILED` says which).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..cards import CUMI, HOUSE, LEFT, RIGHT, STROM, TAPTAP, ZADA
from ..commands import Discard
from ..decide import Shuffle, advance
from ..fold import fold_game_ended, fold_volley_pending
from ..legal import _discards, legal_moves
from ..ruleset import MAX_PLAYERS
from ..state import (
    CCW,
    CW,
    DISCARD_DECISION,
    SKIP_DECISION,
    TURN_DECISION,
    VOLLEY_DECISION,
    Awaiting,
    Decision,
    Draft,
    Result,
)
from .heuristic import KEEP_VALUE, PLAY_ORDER, heuristic_move

Mover = Callable[[Draft, Shuffle], None]

_SKIP_AWAITS = tuple(Awaiting(seat, Decision.SKIP) for seat in range(MAX_PLAYERS))
_TURN_AWAITS = tuple(Awaiting(seat, Decision.TURN) for seat in range(MAX_PLAYERS))
_DISCARD_AWAITS = tuple(Awaiting(seat, Decision.DISCARD) for seat in range(MAX_PLAYERS))
_MAX_CACHED = 100_000  # discard choices kept for reuse; a bound, never reached in practice
_VOLLEY_SIZES = {k: (CUMI,) * k for k in range(1, 64)}


def reference_move(d: Draft, shuffle: Shuffle) -> None:
    """The normal bot's move for the awaited seat, listed, chosen and played by the rules' own
    functions: what `normal_move` must equal."""
    awaiting = d.awaiting
    assert awaiting is not None
    seat = awaiting.seat
    advance(d, heuristic_move(awaiting.kind, d.damage, seat, legal_moves(d, seat)), shuffle)


def normal_move(d: Draft, shuffle: Shuffle) -> None:
    """`reference_move`, without listing the legal moves or checking the one chosen."""
    awaiting = d.awaiting
    assert awaiting is not None
    seat, kind = awaiting.seat, awaiting.kind
    hand: list[str] = d.hands[seat]  # type: ignore[assignment]
    if kind is TURN_DECISION:
        _turn(d, seat, hand, shuffle)
    elif kind is SKIP_DECISION:
        # legal: decline, and Strom when held; the normal bot forwards the skip when it can.
        if STROM in hand:
            _reaction_played(d, seat, hand, STROM)
            d.skip_from = seat
            d.awaiting = _SKIP_AWAITS[d.next_seat(seat)]
        else:
            d.drawn_since_skip_taken[seat] = 0  # type: ignore[index]
            d.skipped = seat
            d.awaiting = None
            d.skip_from = None
            _end_turn(d, shuffle)
    elif kind is DISCARD_DECISION:
        cards = _discard_choice(tuple(sorted(hand)), d.discard_count)
        _to_discard_pile(d, hand, cards)
        d.discard_count = 0
        _next_turn(d)
    else:
        _answer_volley(d, seat, hand, shuffle)


def _turn(d: Draft, seat: int, hand: list[str], shuffle: Shuffle) -> None:
    """The normal bot's turn play (heuristic_move, "turn"): a Zada when hurt (2 damage or more),
    else every Hare Cumi at the first of the most damaged targets (the first greatest of the
    volleys listed target by target, smallest first), else the first card of PLAY_ORDER held,
    else the least valuable card burned (R5c: no play open), the first in name order on a tie."""
    damage = d.damage
    if ZADA in hand and damage[seat] >= 2:
        _play_single(d, seat, hand, ZADA, shuffle)
        return
    if CUMI in hand:
        limit, protected = d.ruleset.max_damage, d.protected
        target, most = -1, -1
        for t in range(d.players):  # valid_targets, in order
            x = damage[t]
            if t != seat and x < limit and t not in protected and x > most:
                target, most = t, x
        if target >= 0:
            count = hand.count(CUMI)
            _to_discard_pile(d, hand, _VOLLEY_SIZES[count])
            fold_volley_pending(d, seat, target, count)
            return
    for card in PLAY_ORDER:
        if card in hand:
            _play_single(d, seat, hand, card, shuffle)
            return
    if hand:  # burned: the least valuable card, the first by name among equals
        card = min(sorted(set(hand)), key=_keep_value)
        hand.remove(card)
        d.discard_pile.append(card)  # type: ignore[union-attr]
    d.awaiting = None
    _end_turn(d, shuffle)


def _keep_value(card: str) -> int:
    return KEEP_VALUE.get(card, 0)


def _play_single(d: Draft, seat: int, hand: list[str], card: str, shuffle: Shuffle) -> None:
    """A card played alone on a turn (decide._play after its checks)."""
    hand.remove(card)
    d.discard_pile.append(card)  # type: ignore[union-attr]
    d.awaiting = None
    protected: set[int] = d.protected  # type: ignore[assignment]
    if card == STROM:
        d.skip_from = seat
        d.awaiting = _SKIP_AWAITS[d.next_seat(seat)]
        return
    if card in (RIGHT, LEFT):
        d.direction = CW if card == RIGHT else CCW
        protected.add(seat)
    elif card == ZADA:
        damage = d.damage
        damage[seat] = max(0, damage[seat] - 1)  # type: ignore[index]
    elif card == HOUSE:
        skipped = d.next_seat(seat)
        d.skipped = skipped
        d.skip_from = None
        protected.add(skipped)
    _end_turn(d, shuffle)


def _answer_volley(d: Draft, seat: int, hand: list[str], shuffle: Shuffle) -> None:
    """legal: decline, and Taptap when held; the normal bot answers with the Taptap when it can
    (decide._answer_volley after its checks)."""
    if TAPTAP in hand:
        _reaction_played(d, seat, hand, TAPTAP)
        _end_turn(d, shuffle)
        return
    volley = d.volley
    assert volley is not None
    damage: list[int] = d.damage  # type: ignore[assignment]
    limit = d.ruleset.max_damage
    after = min(limit, damage[seat] + volley.count)
    d.drawn_since_volley_taken[seat] = 0  # type: ignore[index]
    d.awaiting = None
    damage[seat] = after
    d.volley = None
    if after >= limit:
        d.discard_pile.extend(hand)  # type: ignore[union-attr]
        hand.clear()
        d.protected.discard(seat)  # type: ignore[union-attr]
        alive = d.alive()
        if len(alive) == 1:
            fold_game_ended(d, Result.WIN, alive[0])
            return
    _end_turn(d, shuffle)


def _reaction_played(d: Draft, seat: int, hand: list[str], card: str) -> None:
    hand.remove(card)
    d.discard_pile.append(card)  # type: ignore[union-attr]
    d.awaiting = None
    d.volley = None


def _to_discard_pile(d: Draft, hand: list[str], cards: tuple[str, ...]) -> None:
    for card in cards:
        hand.remove(card)
    d.discard_pile.extend(cards)  # type: ignore[union-attr]
    d.awaiting = None


_DISCARD_CHOICES: dict[tuple[tuple[str, ...], int], tuple[str, ...]] = {}


def _discard_choice(hand: tuple[str, ...], count: int) -> tuple[str, ...]:
    """The cards the normal bot discards from the sorted `hand`: its own choice among the listed
    discards, made once per hand and count (it depends on nothing else)."""
    key = (hand, count)
    found = _DISCARD_CHOICES.get(key)
    if found is None:
        if len(_DISCARD_CHOICES) > _MAX_CACHED:
            _DISCARD_CHOICES.clear()
        chosen = heuristic_move("discard", (), 0, _discards(0, hand, count))
        assert isinstance(chosen, Discard)
        found = _DISCARD_CHOICES[key] = chosen.cards
    return found


def _end_turn(d: Draft, shuffle: Shuffle) -> None:
    """decide._end_turn, with no log: the active player draws up to their maximum (the discard
    pile reshuffled when the draw pile runs out), then `_next_turn`."""
    seat = d.turn_seat
    hand: list[str] = d.hands[seat]  # type: ignore[assignment]
    hand_size = d.ruleset.hand_size
    while True:
        need = hand_size - d.damage[seat] - len(hand)
        if need <= 0:
            break
        pile = d.draw_pile
        if pile:
            drawn = pile[:need]
            hand.extend(drawn)
            del pile[:need]  # type: ignore[union-attr]
            got = len(drawn)
            counts = d.drawn_since_volley_taken
            if counts[seat] >= 0:
                counts[seat] += got  # type: ignore[index]
            counts = d.drawn_since_skip_taken
            if counts[seat] >= 0:
                counts[seat] += got  # type: ignore[index]
        elif len(d.discard_pile) > 1:
            order = shuffle(d.discard_pile[:-1])
            d.draw_pile = [*d.draw_pile, *order]
            d.discard_pile = d.discard_pile[-1:]
        else:
            break
    _next_turn(d)


def _next_turn(d: Draft) -> None:
    """decide._require_discards, with no log: the first seat over its maximum from the active
    player on discards; else the next turn starts, or the turn limit ends the game."""
    hands, damage, n = d.hands, d.damage, d.players
    ruleset = d.ruleset
    hand_size = ruleset.hand_size
    i = 0
    for hand in hands:  # any seat over its maximum? (a counted index: faster than zip or enumerate)
        if len(hand) + damage[i] > hand_size:
            seat = d.turn_seat
            for _ in range(n):
                excess = len(hands[seat]) - max(0, hand_size - damage[seat])
                if excess > 0:
                    d.awaiting = _DISCARD_AWAITS[seat]
                    d.discard_count = excess
                    return
                seat = (seat + d.direction) % n
            break
        i += 1  # noqa: SIM113
    turn = d.turn_number + 1
    if turn > ruleset.turn_limit:
        fold_game_ended(d, Result.DRAW, None)
        return
    skipped = d.skipped
    # The next seat still in after the turn's player, or after the seat it skipped (R1): the
    # rules' own (`_Seats.next_seat`, as decide._require_discards asks it).
    seat = d.next_seat(d.turn_seat if skipped is None else skipped)
    d.turn_seat = seat
    d.turn_number = turn
    protected = d.protected
    if seat in protected:
        protected.discard(seat)  # type: ignore[union-attr]
    d.awaiting = _TURN_AWAITS[seat]
    d.skipped = None
    d.volley = None
    d.skip_from = None


_MASK = (1 << 64) - 1


class SplitMix64:
    """The playouts' random source: SplitMix64 (Steele, Lea and Flood), 64 bits of state.

    `below(n)` is the high 64 bits of a draw times `n` (Lemire's multiply-shift: its bias, at most
    n / 2**64, never shows); `shuffle` is Fisher-Yates from the last position down, one `below` a
    position. The compiled core computes exactly this, so both give the same cards in the same
    order."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK

    def next(self) -> int:
        z = self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A number in 0 .. n - 1."""
        return (self.next() * n) >> 64

    def shuffle(self, cards: Sequence[str]) -> list[str]:
        """`cards` in a new random order (a Shuffle, as the rules take one): `pure_shuffle`, by
        the compiled core where it is built."""
        return _shuffle(self, cards)


def pure_shuffle(rng: SplitMix64, cards: Sequence[str]) -> list[str]:
    """`cards` in a new order, Fisher-Yates from the last position down: `SplitMix64.shuffle`'s
    specification."""
    out = list(cards)
    for i in range(len(out) - 1, 0, -1):
        j = rng.below(i + 1)
        out[i], out[j] = out[j], out[i]
    return out


# Plays up to `max_moves` moves (fewer if the game ends or awaits nothing) and gives each seat the
# number of the move (1 for the run's first) whose volley put it out, 0 for a seat not put out.
Runner = Callable[[Draft, SplitMix64, int], list[int]]


def pure_moves(d: Draft, rng: SplitMix64, max_moves: int, mover: Mover = normal_move) -> list[int]:
    """The run of moves `play_moves` makes, move by move with `mover` (a `Runner` with
    `normal_move`): the compiled core's specification."""
    out = [0] * d.players
    limit = d.ruleset.max_damage
    shuffle = rng.shuffle
    moves = 0
    while moves < max_moves and d.result is None:
        awaiting = d.awaiting
        if awaiting is None:
            break
        mover(d, shuffle)
        moves += 1
        if awaiting.kind is VOLLEY_DECISION and d.damage[awaiting.seat] >= limit:
            out[awaiting.seat] = moves
    return out


def reference_moves(d: Draft, rng: SplitMix64, max_moves: int) -> list[int]:
    """`pure_moves` with `reference_move`: the same run by the rules' general functions."""
    return pure_moves(d, rng, max_moves, reference_move)


try:  # the compiled core, where scripts/build_playout_core built it
    from ._playout_core import play_moves as _compiled_moves
    from ._playout_core import shuffle as _compiled_shuffle
except ImportError:  # not built, or built for another Python: the pure core plays
    CORE_COMPILED = False
    play_moves: Runner = pure_moves
    _shuffle: Callable[[SplitMix64, Sequence[str]], list[str]] = pure_shuffle
else:
    CORE_COMPILED = True
    play_moves = _compiled_moves
    _shuffle = _compiled_shuffle
