"""Bot levels: what the search bot rebuilds from a view, and the tournament's figures."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from harehra import legal_commands, make_ruleset, replay, start_game, step, view_for
from harehra.bots import LEVELS, get_bot
from harehra.bots.playout import SplitMix64
from harehra.bots.search import world
from harehra.bots.tournament import play, wilson
from harehra.decide import advance
from harehra.legal import legal_moves
from harehra.simulation import rng_shuffle
from harehra.state import freeze, private_draft


def _positions(players: int, games: int, seed: int):
    rng = random.Random(seed)
    normal = get_bot("normal")
    for g in range(games):
        shuffle = rng_shuffle(rng)
        state = replay(start_game(make_ruleset(), players, g % players, shuffle))
        while not state.over:
            seat = state.awaiting.seat
            yield state, seat
            _, state = step(state, normal.choose(view_for(state, seat), legal_commands(state, seat)), shuffle)


def test_a_world_agrees_with_everything_the_seat_can_see():
    rng = random.Random(5)
    checked = 0
    for state, seat in _positions(4, 6, 11):
        w = world(view_for(state, seat), SplitMix64(rng.getrandbits(64)))
        assert w is not None
        seen = freeze(w)
        assert view_for(seen, seat) == view_for(state, seat)
        assert legal_moves(w, seat) == legal_moves(state, seat)
        everything = (
            Counter(c for h in seen.hands for c in h) + Counter(seen.draw_pile) + Counter(seen.discard_pile)
        )
        assert everything == Counter(make_ruleset().cards())
        for move in legal_moves(w, seat):  # every legal move plays in the world
            advance(private_draft(w), move)
        assert freeze(w) == seen  # and leaves the world as it was
        checked += 1
    assert checked > 300


def test_worlds_deal_no_card_a_seat_would_have_answered_with():
    """A seat that let a volley land (took a skip) held no Taptap (Strom) then, if it answers
    whenever it can, as the normal bot does: only the cards drawn since may be one. The public
    counts in the view say how many those are; the real hands (new cards join a hand's end) and
    every world the hard bot deals keep to them."""
    rng = random.Random(8)
    checked = 0
    for state, seat in _positions(2, 12, 21):
        view = view_for(state, seat)
        w = world(view, SplitMix64(rng.getrandbits(64)))
        assert w is not None
        for p in view["players"]:
            if p["seat"] == seat:
                continue
            for reaction, card in (("volley", "taptap"), ("skip", "strom")):
                drawn = p["drawn_since_taken"][reaction]
                if drawn is None or drawn >= p["hand_size"]:
                    continue
                held = p["hand_size"] - drawn
                assert card not in state.hands[p["seat"]][:held], (reaction, state.hands[p["seat"]], drawn)
                assert card not in w.hands[p["seat"]][:held], (reaction, w.hands[p["seat"]], drawn)
                checked += 1
    assert checked > 100


def test_levels_are_named_and_unknown_ones_refused():
    assert LEVELS == ("easy", "normal", "hard")
    with pytest.raises(ValueError):
        get_bot("genius")


def test_wilson_interval():
    lo, hi = wilson(65, 100)
    assert 0.552 < lo < 0.556 and 0.735 < hi < 0.740
    assert wilson(0, 0) == (0.0, 1.0)


def test_a_tournament_rotates_seats_and_counts_every_game():
    result = play(["normal", "easy"], 12, seed=3)
    normal, easy = result.stats["normal"], result.stats["easy"]
    assert normal.seats_played == easy.seats_played == 12
    assert normal.wins + easy.wins + result.draws == 12
    assert [g for _, g in normal.by_seat] == [6, 6]  # each seat half the time
    assert normal.times and easy.times
    lines = "\n".join(result.lines())
    assert "Wilson 95%" in lines and "p99" in lines
