"""Properties of random legal games (issue section 5), checked after every event.

Hypothesis draws the deal's seed, the player count and every choice among the legal commands,
plus random (mostly illegal) commands tried along the way. The invariant checks are shared
with `manage.py simulate --check` (harehra/simulation.py).
"""

from __future__ import annotations

import copy
import functools
import json
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from harehra import (
    ErrorCode,
    Event,
    GameState,
    IllegalCommand,
    apply,
    decide,
    legal_commands,
    make_ruleset,
    parse_command,
    replay,
    start_game,
    step,
    view_for,
    views_for_all,
)
from harehra.cards import CARD_NAMES
from harehra.commands import Discard
from harehra.simulation import (
    command_violations,
    event_view_violations,
    rng_shuffle,
    state_violations,
    view_violations,
)

SETTINGS = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

CARDS = sorted(CARD_NAMES)
card_ids = st.sampled_from([*CARDS, "bogus"])


@functools.cache  # building strategies is costly; a game asks for the same ones again and again
def below(n: int) -> st.SearchStrategy[int]:
    return st.integers(0, n - 1)


@functools.cache
def random_command(seat: int, players: int) -> st.SearchStrategy[Any]:
    """Commands of every kind with random cards, seats and targets; a few malformed ones."""
    seats = st.one_of(st.just(seat), st.integers(-1, players))
    targets = st.one_of(st.none(), st.integers(-1, players), st.just("x"))
    cards = st.lists(card_ids, max_size=4)
    return st.one_of(
        st.fixed_dictionaries({"seat": seats, "play": cards}, optional={"target": targets}),
        st.fixed_dictionaries(
            {"seat": seats, "react": st.sampled_from(["taptap", "strom", "none", "cumi", "", None])}
        ),
        st.fixed_dictionaries({"seat": seats, "discard": cards}),
        st.fixed_dictionaries({"seat": seats, "burn": st.one_of(st.none(), card_ids)}),
        st.fixed_dictionaries({"seat": seats, "play": cards, "burn": st.none()}),  # two actions
        st.just({"seat": seat}),  # no action
        st.just({"seat": "0", "burn": None}),
        st.just({"seat": seat, "play": "cumi"}),
    )


def as_key(command: dict[str, Any]) -> Any:
    """The parsed command, discards compared as multisets (legal_commands lists them sorted)."""
    parsed = parse_command(command)
    if isinstance(parsed, Discard):
        return Discard(parsed.seat, tuple(sorted(parsed.cards)))
    return parsed


def check_random_command(state: GameState, command: dict[str, Any]) -> None:
    """Accepted only if it is one of the legal commands; otherwise refused with a known code.
    Either way the state is left as it was."""
    before = copy.copy(state)  # its own field dict: would show any change made in place
    try:
        decide(state, command)
    except IllegalCommand as exc:
        assert exc.code in set(ErrorCode), exc
    else:
        legal = [as_key(c) for c in legal_commands(state, command["seat"])]
        assert as_key(command) in legal, f"{command} accepted but not among the legal commands"
    assert state == before, f"deciding {command} changed the state"


def check_after_step(state: GameState, events: list[Event], new_state: GameState) -> None:
    folded = state
    for e in events:
        assert json.loads(json.dumps(e)) == e, e
        assert isinstance(e["type"], str) and e["version"] >= 1
        folded = apply(folded, e)
        assert state_violations(folded, e) == []
        for seat in [*range(folded.players), None]:
            assert event_view_violations(e, seat) == []
    assert folded == new_state, "folding the events differs from the state step returned"
    for seat in [*range(new_state.players), None]:
        assert view_violations(new_state, seat) == []
        json.dumps(view_for(new_state, seat))
    spectator, seats = views_for_all(new_state)  # what a push carries: the same views, made at once
    assert spectator == view_for(new_state, None)
    assert seats == [view_for(new_state, s) for s in range(new_state.players)]
    assert command_violations(new_state) == []


def play_checked(seed: int, players: int, packs: tuple[str, ...], data: st.DataObject) -> None:
    rng = random.Random(seed)
    shuffle = rng_shuffle(rng)
    log = start_game(make_ruleset(packs), players, seed % players, shuffle)
    state = replay(log)
    for e in log:
        assert event_view_violations(e, None) == []
    assert state_violations(state, log[-1]) == []
    assert command_violations(state) == []
    steps = 0
    while not state.over:
        assert state.awaiting is not None
        seat = state.awaiting.seat
        if data.draw(below(4), label="try a random command") == 0:
            check_random_command(state, data.draw(random_command(seat, players), label="command"))
        legal = legal_commands(state, seat)
        command = legal[data.draw(below(len(legal)), label="choice")]
        events, new_state = step(state, command, shuffle)
        log += events
        check_after_step(state, events, new_state)
        steps += 1
        if steps % 5 == 0 or new_state.over:  # replaying from scratch every step is quadratic
            assert replay(log) == new_state, "replay(events) differs from the state step by step"
        state = new_state
    assert state.result is not None
    assert all(legal_commands(state, s) == [] for s in range(players))


@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 4), data=st.data())
def test_random_base_games_keep_every_invariant(seed: int, players: int, data: st.DataObject) -> None:
    play_checked(seed, players, (), data)


@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(5, 6), data=st.data())
def test_random_big_warren_games_keep_every_invariant(seed: int, players: int, data: st.DataObject) -> None:
    play_checked(seed, players, ("big-warren",), data)
