"""The rules exist once: the recorded path (`step`, events for the log) and the playout path
(`advance`, a draft changed in place, no events) are the same code and must agree everywhere."""

from __future__ import annotations

import random

import pytest

from harehra import ErrorCode, IllegalCommand, legal_commands, make_ruleset, replay, start_game, step
from harehra.commands import Play, command_to_dict
from harehra.decide import advance
from harehra.legal import legal_moves
from harehra.simulation import rng_shuffle
from harehra.state import freeze, private_draft

DECISIONS = 100_000


def test_recorded_and_playout_paths_agree_on_100000_random_decisions() -> None:
    master = random.Random(14)
    decisions = games = 0
    while decisions < DECISIONS:
        players = master.choice((2, 3, 4, 4))
        packs = ("big-warren",) if master.random() < 0.1 else ()
        seed = master.getrandbits(32)
        # Two RNGs with one seed: each path reshuffles from its own, so they must draw alike.
        rng_a, rng_b = random.Random(seed), random.Random(seed)
        events = start_game(make_ruleset(packs), players, games % players, rng_shuffle(rng_a))
        rng_shuffle(rng_b)(make_ruleset(packs).cards())
        state = replay(events)
        draft = private_draft(state)
        log = list(events)
        while state.result is None:
            assert state.awaiting is not None
            seat = state.awaiting.seat
            moves = legal_moves(state, seat)
            assert legal_moves(draft, seat) == moves
            assert legal_commands(state, seat) == [command_to_dict(m) for m in moves]
            for other in range(players):
                if other != seat:
                    assert legal_moves(draft, other) == []
            move = master.choice(moves)
            new_events, state = step(state, move, rng_shuffle(rng_a))
            advance(draft, move, rng_shuffle(rng_b))
            assert freeze(draft) == state
            log += new_events
            decisions += 1
        assert replay(log) == state
        games += 1
    assert games > 100


def test_an_illegal_command_leaves_a_draft_unchanged() -> None:
    state = replay(start_game(make_ruleset(), 2, 1, lambda cards: list(cards)))
    draft = private_draft(state)
    seat = state.awaiting.seat if state.awaiting else 0
    with pytest.raises(IllegalCommand) as exc:
        advance(draft, Play(seat, ("mini",)))
    assert exc.value.code in (ErrorCode.NOT_PLAYABLE, ErrorCode.NOT_IN_HAND)
    with pytest.raises(IllegalCommand) as exc:
        advance(draft, Play(1 - seat, ("zada",)))
    assert exc.value.code is ErrorCode.NOT_YOUR_TURN
    assert freeze(draft) == state
