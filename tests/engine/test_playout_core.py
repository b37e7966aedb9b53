"""The compiled playout core (harehra/bots/_playout_core.pyx) against its specification, the pure
`pure_moves` (harehra/bots/playout.py): on thousands of tables of 2 to 6 seats, played in runs of
random lengths both ways, the same draft, the same generator state and the same eliminations after
every run. The generator both use, `SplitMix64`, against the published sequence. Where the core is
not built the comparison is skipped; tests/analysis/test_playout_core_fallback.py checks that the
pure core then plays, and that the server says so once."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from harehra import view_for
from harehra.bots.playout import CORE_COMPILED, SplitMix64, play_moves, pure_moves, pure_shuffle
from harehra.bots.search import world
from harehra.ruleset import make_ruleset
from harehra.state import Draft, freeze, private_draft

from .test_playout import _random_tables, _set_up

TABLES = 1500

needs_core = pytest.mark.skipif(not CORE_COMPILED, reason="the compiled playout core is not built")


def test_splitmix64_gives_the_published_sequence_and_a_pinned_shuffle() -> None:
    rng = SplitMix64(0)
    assert [rng.next() for _ in range(3)] == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]
    rng = SplitMix64(1234567)
    cards = [str(i) for i in range(10)]
    assert rng.shuffle(cards) == ["6", "9", "0", "7", "2", "5", "8", "4", "1", "3"]
    assert cards == [str(i) for i in range(10)]  # a new list: the cards given stay as they were
    assert rng.state == 10372713005362262852
    assert SplitMix64(-1).state == (1 << 64) - 1 and SplitMix64(1 << 64).state == 0


def test_the_generators_draws_below_n_are_even() -> None:
    rng = SplitMix64(5)
    counts = Counter(rng.below(6) for _ in range(60_000))
    assert set(counts) == set(range(6))
    assert all(abs(k - 10_000) < 400 for k in counts.values())  # 4 standard deviations


@needs_core
def test_the_compiled_shuffle_is_the_pure_one() -> None:
    from harehra.bots._playout_core import shuffle

    master = random.Random(23)
    for size in [0, 1, 2, 3, *range(4, 120, 7)]:
        for _ in range(50):
            cards = [master.choice("abcdefgh") for _ in range(size)]
            seed = master.getrandbits(64)
            pure, compiled = SplitMix64(seed), SplitMix64(seed)
            assert shuffle(compiled, tuple(cards)) == pure_shuffle(pure, cards)
            assert compiled.state == pure.state
    assert SplitMix64(3).shuffle(["a", "b", "c"]) == pure_shuffle(SplitMix64(3), ["a", "b", "c"])


def _compare_in_runs(d: Draft, seed: int, lengths: random.Random) -> tuple[int, Draft]:
    """`d` played on both ways to its end in runs of 1 to 12 moves (and a last one to the end),
    compared after every run; the moves played."""
    pure, compiled = private_draft(d), private_draft(d)
    rng_pure, rng_compiled = SplitMix64(seed), SplitMix64(seed)
    moves = 0
    while pure.result is None and pure.awaiting is not None:
        run = lengths.randint(1, 12) if lengths.random() < 0.9 else 1 << 30
        out_pure = pure_moves(pure, rng_pure, run)
        out_compiled = play_moves(compiled, rng_compiled, run)
        moves += run
        assert out_compiled == out_pure, f"after {moves} moves"
        assert freeze(compiled) == freeze(pure), f"after {moves} moves"
        assert rng_compiled.state == rng_pure.state, f"after {moves} moves"
    assert compiled.result == pure.result and compiled.winner == pure.winner
    return moves, pure


@needs_core
def test_the_compiled_core_plays_the_pure_moves_on_thousands_of_tables() -> None:
    master = random.Random(21)
    seats: Counter[int] = Counter()
    results: Counter[str] = Counter()
    out = 0
    for state in _random_tables(master, TABLES):
        seats[state.players] += 1
        w_public = world(view_for(state, None), SplitMix64(master.getrandbits(64)))
        w_seat = world(
            view_for(state, state.awaiting.seat if state.awaiting else None),
            SplitMix64(master.getrandbits(64)),
        )
        assert w_public is not None and w_seat is not None
        for d in (private_draft(state), w_public, w_seat):
            _, end = _compare_in_runs(d, master.getrandbits(64), master)
            results[str(end.result)] += 1
            out += sum(1 for s in range(end.players) if end.damage[s] >= end.ruleset.max_damage)
    assert set(seats) == {2, 3, 4, 5, 6}
    assert {"win", "draw"} <= set(results) and out > TABLES


@needs_core
def test_a_hand_set_up_over_its_maximum_is_discarded_from_alike() -> None:
    ruleset = make_ruleset(())
    hands = [["cumi", "cumi", "house", "strom", "right", "left", "zada"], ["zada"], ["left"]]
    d = private_draft(_set_up(ruleset, hands, [0, 3, 4], seed=3))
    for seed in range(20):
        moves, end = _compare_in_runs(d, seed, random.Random(seed))
        assert moves > 0 and end.result is not None


@needs_core
def test_no_moves_asked_or_a_game_over_leave_the_draft_and_generator_alone() -> None:
    state = _random_tables(random.Random(22), 1)[0]
    d, rng = private_draft(state), SplitMix64(9)
    assert play_moves(d, rng, 0) == [0] * state.players
    assert freeze(d) == state and rng.state == 9
    pure_moves(d, rng, 1 << 30)
    ended, at = freeze(d), rng.state
    assert play_moves(d, rng, 5) == [0] * state.players
    assert freeze(d) == ended and rng.state == at


@needs_core
def test_a_table_too_large_for_the_core_is_played_by_the_pure_core_alike() -> None:
    """More cards than the core's arrays hold (none of the rulesets has so many): the compiled
    `play_moves` hands the draft to `pure_moves`, with the same result."""
    state = _random_tables(random.Random(24), 1)[0]
    d = private_draft(state)
    assert isinstance(d.draw_pile, list)
    d.draw_pile.extend(["mini"] * 300)
    pure, compiled = private_draft(d), private_draft(d)
    rng_pure, rng_compiled = SplitMix64(4), SplitMix64(4)
    assert play_moves(compiled, rng_compiled, 1 << 30) == pure_moves(pure, rng_pure, 1 << 30)
    assert freeze(compiled) == freeze(pure) and rng_compiled.state == rng_pure.state
    assert pure.result is not None
