"""Focused tests of the engine's API surface that rules scenarios cannot express."""

from __future__ import annotations

import json
import random

import pytest

from harehra import (
    EngineError,
    ErrorCode,
    Event,
    EventType,
    GameState,
    IllegalCommand,
    InvalidRuleset,
    Result,
    apply,
    decide,
    legal_commands,
    make_ruleset,
    parse_command,
    replay,
    start_game,
    step,
)
from harehra.decide import deal
from harehra.simulation import event_view_violations, rng_shuffle, view_violations


def a_game(seed: int = 7, players: int = 4, commands: int = 60) -> tuple[list[Event], GameState]:
    rng = random.Random(seed)
    shuffle = rng_shuffle(rng)
    events = start_game(make_ruleset(), players, players - 1, shuffle)
    state = replay(events)
    for _ in range(commands):
        if state.over:
            break
        assert state.awaiting is not None
        new, state = step(state, rng.choice(legal_commands(state, state.awaiting.seat)), shuffle)
        events += new
    return events, state


def test_events_are_json_with_type_and_version() -> None:
    events, state = a_game()
    kinds = {e["type"] for e in events}
    assert {EventType.GAME_STARTED, EventType.TURN_STARTED, EventType.CARDS_DRAWN} <= kinds
    for e in events:
        assert json.loads(json.dumps(e)) == e
        assert type(e["type"]) is str and e["type"] in set(EventType)
        assert e["version"] == 1
    assert replay(json.loads(json.dumps(events))) == state


def test_apply_ignores_unknown_event_types() -> None:
    events, state = a_game()
    takeover = {"type": "SeatTakenOver", "version": 1, "seat": 2, "by": "bot"}
    assert apply(state, takeover) == state
    assert replay([*events, takeover]) == state


def test_game_aborted_ends_the_game_with_no_winner() -> None:
    _, state = a_game(commands=10)
    aborted = apply(state, {"type": EventType.GAME_ABORTED.value, "version": 1, "reason": "test"})
    assert aborted.over and aborted.result is Result.ABORTED and aborted.winner is None
    assert aborted.awaiting is None
    assert all(legal_commands(aborted, s) == [] for s in range(aborted.players))
    with pytest.raises(IllegalCommand) as exc:
        decide(aborted, {"seat": 0, "burn": None})
    assert exc.value.code is ErrorCode.GAME_OVER


@pytest.mark.parametrize(
    "data",
    [
        [],
        "burn",
        {},
        {"seat": 0},
        {"seat": 0, "play": ["cumi"], "burn": None},
        {"seat": "0", "burn": None},
        {"seat": True, "burn": None},
        {"seat": 0, "play": []},
        {"seat": 0, "play": "cumi"},
        {"seat": 0, "play": ["joker"]},
        {"seat": 0, "play": [1]},
        {"seat": 0, "play": ["cumi"], "target": "1"},
        {"seat": 0, "react": "maybe"},
        {"seat": 0, "react": ["taptap"]},
        {"seat": 0, "discard": "cumi"},
        {"seat": 0, "burn": 3},
        {"seat": 0, "burn": "joker"},
    ],
)
def test_parse_command_rejects_malformed_input(data: object) -> None:
    with pytest.raises(IllegalCommand) as exc:
        parse_command(data)  # type: ignore[arg-type]
    assert exc.value.code is ErrorCode.BAD_COMMAND


def test_decide_rejects_malformed_commands_with_bad_command() -> None:
    _, state = a_game(commands=0)
    with pytest.raises(IllegalCommand) as exc:
        decide(state, {"seat": 0, "play": ["joker"]})
    assert exc.value.code is ErrorCode.BAD_COMMAND


@pytest.mark.parametrize(("packs", "players"), [((), 1), ((), 5), (("big-warren",), 7), (("big-warren",), 1)])
def test_invalid_player_counts(packs: tuple[str, ...], players: int) -> None:
    with pytest.raises(InvalidRuleset) as exc:
        start_game(make_ruleset(packs), players, 0, rng_shuffle(random.Random(0)))
    assert exc.value.code is ErrorCode.BAD_RULESET


def test_invalid_rulesets() -> None:
    for kwargs in ({"packs": ["tiny-burrow"]}, {"packs": ["big-warren", "big-warren"]}, {"mini": -1}):
        with pytest.raises(InvalidRuleset) as exc:
            make_ruleset(**kwargs)  # type: ignore[arg-type]
        assert exc.value.code is ErrorCode.BAD_RULESET
    with pytest.raises(InvalidRuleset):
        deal(make_ruleset(), 3, 3, make_ruleset().cards())  # shuffler is not a seat


def test_leak_checks_notice_a_leak() -> None:
    """The view and event checks the property tests rely on do catch hidden cards."""
    events, state = a_game(commands=0)
    assert view_violations(state, 0) == []
    drawn = {"type": EventType.CARDS_DRAWN.value, "version": 1, "seat": 1, "cards": ["cumi", "zada"]}
    assert event_view_violations(drawn, 1) == []
    assert event_view_violations(drawn, 0) == []
    with pytest.raises(EngineError):  # an unknown type is refused, never shown as is
        event_view_violations({**drawn, "type": "SeatTakenOver"}, 0)
    started = events[0]
    assert event_view_violations(started, 2) == []
    with pytest.raises(EngineError):
        event_view_violations({**started, "type": "Unknown"}, 2)
