"""The fast playout path is the rules' own, exactly: the normal bot's move read off the hand
(harehra.bots.playout.normal_move) against the same move listed, chosen and played by the rules
(`reference_move`: legal_moves, heuristic_move, advance), and a view's worlds dealt by
`dealer` against `world` as it was written before (`_world_as_before` below): the same draft after
every move and every deal, the same draws from the same generator, so the analysis built on them
gives the same bytes both ways (and as pinned by digests). The compiled core against the pure one:
tests/engine/test_playout_core.py."""

from __future__ import annotations

import hashlib
import random
from collections import Counter
from typing import Any

import pytest

from harehra import legal_commands, make_ruleset, replay, start_game, step, view_for
from harehra.analysis import analyse, analysis_json, play_to_end, play_to_places
from harehra.bots import get_bot
from harehra.bots.playout import (
    SplitMix64,
    normal_move,
    play_moves,
    pure_moves,
    reference_move,
    reference_moves,
)
from harehra.bots.search import _counted, deal_hand, dealer, playout, world
from harehra.decide import setup_event, start_events
from harehra.events import direction_value
from harehra.legal import legal_moves
from harehra.ruleset import Ruleset
from harehra.simulation import rng_shuffle
from harehra.state import Awaiting, Decision, Draft, GameState, Volley, freeze, private_draft

TABLES = 800


def _random_tables(master: random.Random, count: int) -> list[GameState]:
    """Tables met in random-legal games (as harehra/simulation.py plays them) of 2 to 6 seats,
    some with the big pack, disabled Minis or a short turn limit (draws), every seat's
    decisions among them."""
    tables: list[GameState] = []
    games = 0
    while len(tables) < count:
        packs = ("big-warren",) if master.random() < 0.25 else ()
        players = master.randint(2, 6 if packs else 4)
        ruleset = make_ruleset(packs, mini=master.choice((0, 0, 3)), turn_limit=master.choice((500, 500, 30)))
        shuffle = rng_shuffle(random.Random(master.getrandbits(32)))
        state = replay(start_game(ruleset, players, games % players, shuffle))
        while state.result is None and len(tables) < count:
            assert state.awaiting is not None
            if master.random() < 0.1:
                tables.append(state)
            _, state = step(state, master.choice(legal_moves(state, state.awaiting.seat)), shuffle)
        games += 1
    return tables


def _both_ways(d: Draft, seed: int) -> tuple[Draft, Draft, SplitMix64, SplitMix64, int]:
    """`d` played to its end both ways, compared after every move; the moves played."""
    old, new = private_draft(d), private_draft(d)
    rng_old, rng_new = SplitMix64(seed), SplitMix64(seed)
    shuffle_old, shuffle_new = rng_old.shuffle, rng_new.shuffle
    moves = 0
    while old.result is None and old.awaiting is not None:
        reference_move(old, shuffle_old)
        normal_move(new, shuffle_new)
        moves += 1
        assert freeze(new) == freeze(old), f"move {moves}"
        assert rng_new.state == rng_old.state, f"move {moves}"
    assert new.result == old.result and new.awaiting == old.awaiting
    return old, new, rng_old, rng_new, moves


def test_every_move_leaves_the_same_draft_and_rng_on_random_tables_and_their_worlds() -> None:
    master = random.Random(7)
    kinds: Counter[str] = Counter()
    results: Counter[str] = Counter()
    for state in _random_tables(master, TABLES):
        assert state.awaiting is not None
        kinds[state.awaiting.kind.value] += 1
        # The table itself, and worlds dealt from the public view and from the deciding seat's.
        w_public = world(view_for(state, None), SplitMix64(master.getrandbits(64)))
        w_seat = world(view_for(state, state.awaiting.seat), SplitMix64(master.getrandbits(64)))
        assert w_public is not None and w_seat is not None
        for d in (private_draft(state), w_public, w_seat):
            old, _, _, _, _ = _both_ways(d, master.getrandbits(64))
            results[str(old.result)] += 1
    assert set(kinds) == {"turn", "volley", "skip", "discard"}
    assert {"win", "draw"} <= set(results)


def test_play_to_end_and_to_places_give_the_same_winner_places_and_rng_state() -> None:
    master = random.Random(8)
    for state in _random_tables(master, 300):
        w = world(view_for(state, None), SplitMix64(master.getrandbits(64)))
        assert w is not None
        seed = master.getrandbits(64)
        out_at = {s: 0 for s in range(state.players) if state.damage[s] >= state.ruleset.max_damage}
        ends, places, rngs = [], [], []
        for runner in (reference_moves, pure_moves, play_moves):
            rng = SplitMix64(seed)
            ends.append(play_to_end(private_draft(w), rng, runner))
            rngs.append(rng.state)
            rng = SplitMix64(seed)
            places.append(play_to_places(private_draft(w), rng, out_at, 3, runner))
            rngs.append(rng.state)
        assert ends[0] == ends[1] == ends[2] and places[0] == places[1] == places[2]
        assert rngs[0] == rngs[2] == rngs[4] and rngs[1] == rngs[3] == rngs[5]


def test_a_hand_set_up_over_its_maximum_is_discarded_from_alike() -> None:
    """A table set up by hand (as the analysis positions are) may hold a hand over its maximum
    that no move made: the rules ask for the discard after the next move, both ways."""
    ruleset = make_ruleset(())
    hands = [["cumi", "cumi", "house", "strom", "right", "left", "zada"], ["zada"], ["left"]]
    _, new, _, _, moves = _both_ways(private_draft(_set_up(ruleset, hands, [0, 3, 4], seed=3)), 11)
    assert moves > 0 and new.result is not None


def _set_up(ruleset: Ruleset, hands: list[list[str]], damage: list[int], seed: int) -> GameState:
    pool = Counter(dict(ruleset.deck))
    for hand in hands:
        pool.subtract(hand)
    draw = sorted(pool.elements())
    random.Random(seed).shuffle(draw)
    first = setup_event(
        ruleset, players=len(hands), shuffler=0, hands=hands, draw_pile=draw, damage=damage, turn=1
    )
    return replay(start_events(first))


def _bot_game(seed: int, players: int, packs: tuple[str, ...] = ()) -> list[Any]:
    """A game between easy and normal bots, as the analysis's cost script plays them."""
    rng = random.Random(seed)
    shuffle = rng_shuffle(rng)
    events: list[Any] = start_game(make_ruleset(packs), players, players - 1, shuffle)
    state = replay(events)
    bots = [get_bot(("easy", "normal")[s % 2]) for s in range(players)]
    while state.result is None:
        assert state.awaiting is not None
        seat = state.awaiting.seat
        command = bots[seat].choose(view_for(state, seat), legal_commands(state, seat))
        new, state = step(state, command, shuffle)
        events += new
    return events


# sha256 of analysis_json(analyse(_bot_game(seed, players, packs), 6, salt=f"game {seed}")) at
# analysis version 5 (the playouts' luck from SplitMix64, the public chance through the
# calibration map), made with `reference_moves`.
PINNED = {
    (1, 4, ()): "bcb0168d1457871f59d8c8dfae9f1d5b35cbe96c87e79a323618e6b56968f40b",
    (4, 3, ()): "1d5aea16a52ae4f902d2387146ec44c5c07fbbc0246d8a02025f434d988647c5",
    (5, 5, ("big-warren",)): "c6d08b2b356b1199a1b4d4279fc3b137ddc1f992b7eeb2d2a291fcb4a6d0c922",
}


@pytest.mark.parametrize(("seed", "players", "packs"), list(PINNED))
def test_a_whole_analysis_is_the_same_bytes_every_way_and_as_pinned(
    seed: int, players: int, packs: tuple[str, ...]
) -> None:
    events = _bot_game(seed, players, packs)
    old = analysis_json(analyse(events, 6, salt=f"game {seed}", runner=reference_moves))
    new = analysis_json(analyse(events, 6, salt=f"game {seed}", runner=pure_moves))
    assert new == old
    assert analysis_json(analyse(events, 6, salt=f"game {seed}")) == old  # play_moves: compiled if built
    assert hashlib.sha256(new.encode()).hexdigest() == PINNED[(seed, players, packs)]


def _world_as_before(view: dict[str, Any], rng: SplitMix64) -> Draft | None:
    """harehra.bots.search.world as it was before `dealer` (commit 0950646), word for word but for
    its generator (SplitMix64's shuffle, where it shuffled with Python's `random` in place)."""
    ruleset = Ruleset.from_dict(view["ruleset"])
    me = view["seat"]
    hand = list(view["hand"] or ())
    pool = Counter(dict(ruleset.deck))
    pool.subtract(hand)
    pool.subtract(view["discard_pile"])
    if any(n < 0 for n in pool.values()):
        return None
    hidden = list(pool.elements())
    players = view["players"]
    if len(hidden) != sum(p["hand_size"] for p in players if p["seat"] != me) + view["draw_pile_size"]:
        return None
    hidden = rng.shuffle(hidden)
    hands: list[list[str]] = []
    for p in players:
        hands.append(hand if p["seat"] == me else deal_hand(hidden, p["hand_size"], p["drawn_since_taken"]))
    awaiting = view["awaiting"]
    volley = view["volley"]
    state = GameState(
        ruleset=ruleset,
        players=len(players),
        shuffler=view["shuffler"],
        hands=tuple(map(tuple, hands)),
        draw_pile=tuple(hidden),
        discard_pile=tuple(view["discard_pile"]),
        damage=tuple(p["damage"] for p in players),
        protected=frozenset(p["seat"] for p in players if p["protected"]),
        direction=direction_value(view["direction"]),
        turn_seat=view["turn"],
        turn_number=view["turn_number"],
        awaiting=Awaiting(awaiting["seat"], Decision(awaiting["kind"])) if awaiting else None,
        volley=Volley(volley["attacker"], volley["target"], volley["count"]) if volley else None,
        skip_from=view["skip_from"],
        skipped=view["skipped"],
        discard_count=view["discard_count"],
        drawn_since_volley_taken=tuple(_counted(p["drawn_since_taken"]["volley"]) for p in players),
        drawn_since_skip_taken=tuple(_counted(p["drawn_since_taken"]["skip"]) for p in players),
    )
    return private_draft(state)


def test_a_dealer_deals_the_worlds_world_dealt_from_the_same_rng() -> None:
    master = random.Random(9)
    dealt = 0
    for state in _random_tables(master, 600):
        for seat in (None, *range(state.players)):
            view = view_for(state, seat)
            seed = master.getrandbits(64)
            rng_before, rng_now = SplitMix64(seed), SplitMix64(seed)
            deal = dealer(view)
            for _ in range(3):
                before, now = _world_as_before(view, rng_before), deal(rng_now)
                assert before is not None and now is not None
                assert freeze(now) == freeze(before)
                assert all(type(h) is list for h in now.hands) and type(now.draw_pile) is list
                assert rng_now.state == rng_before.state
                dealt += 1
            # Each world is the draft's own: changing one changes no other.
            a, b = deal(rng_now), deal(rng_now)
            assert a is not None and b is not None
            assert a.discard_pile is not b.discard_pile and a.damage is not b.damage
            assert a.protected is not b.protected and a.hands[0] is not b.hands[0]
            assert a.drawn_since_volley_taken is not b.drawn_since_volley_taken
    assert dealt > 5_000


def test_a_view_that_does_not_add_up_deals_no_world() -> None:
    state = _random_tables(random.Random(10), 1)[0]
    view = view_for(state, None)
    assert world({**view, "draw_pile_size": view["draw_pile_size"] + 1}, SplitMix64(1)) is None
    assert world({**view, "discard_pile": [*view["discard_pile"], *["cumi"] * 40]}, SplitMix64(1)) is None


def test_the_search_bots_playout_scores_alike_both_ways() -> None:
    master = random.Random(11)
    for state in _random_tables(master, 400):
        assert state.awaiting is not None
        me = state.awaiting.seat
        w = world(view_for(state, me), SplitMix64(master.getrandbits(64)))
        assert w is not None
        seed = master.getrandbits(64)
        rng_old, rng_new = SplitMix64(seed), SplitMix64(seed)
        old, new = private_draft(w), private_draft(w)
        assert playout(new, me, rng_new) == playout(old, me, rng_old, reference_moves)
        assert freeze(new) == freeze(old) and rng_new.state == rng_old.state
