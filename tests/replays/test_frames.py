"""Frames fold to exactly the states the live game had, and a perspective never leaks a hidden card."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from games.describe import describe
from games.frames import build_frames, states_at_each_step
from harehra import view_for
from replays.access import ALL
from replays.selectors import game_events, seat_names

from .conftest import Recorded

pytestmark = pytest.mark.django_db


def test_folding_to_every_step_equals_the_live_state(recorded: Recorded) -> None:
    game = recorded.game
    events = game_events(game)
    assert [s for s, _ in events] == list(range(1, game.last_seq + 1))
    folded = dict(states_at_each_step(events))
    frames = {f["seq"]: f for f in build_frames(events, seat_names(game), ALL)}
    assert len(recorded.states) > 20
    for seq, live in recorded.states:
        assert folded[seq] == live, f"seq {seq}"
        frame = frames[seq]
        assert frame["state"]["hands"] == [list(h) for h in live.hands]
        expected = view_for(live, None)
        assert {k: v for k, v in frame["state"].items() if k != "hands"} == expected
        assert frame["turn_number"] == live.turn_number
        assert frame["capacity"] == [live.ruleset.max_damage - d for d in live.damage]
    assert folded[game.last_seq].over
    # One frame per event, and a window of them is the same frames.
    names = seat_names(game)
    every = build_frames(events, names, None)
    assert [f["step"] for f in every] == list(range(len(events)))
    window = build_frames(events, names, None, 10, 19)
    assert window == every[10:20]


def test_a_seat_perspective_never_shows_another_hand(recorded: Recorded) -> None:
    game = recorded.game
    events = game_events(game)
    names = seat_names(game)
    states = dict(states_at_each_step(events))
    for seat in range(game.players):
        for frame in build_frames(events, names, seat):
            state, event = frame["state"], frame["event"]
            assert "hands" not in state and "draw_pile" not in state
            assert state["seat"] == seat
            # The only cards shown in hand are this seat's own, exactly as it held them then.
            assert state["hand"] == list(states[frame["seq"]].hands[seat])
            assert "draw_pile" not in event and "hands" not in event
            if event["type"] == "CardsDrawn" and event["seat"] != seat:
                assert "cards" not in event
            if event["type"] == "DrawPileReshuffled":
                assert "cards" not in event
            if event["type"] == "GameStarted":
                assert event["hand"] == list(states[frame["seq"]].hands[seat])
    # A spectator sees no hand at all.
    for frame in build_frames(events, seat_names(recorded.game), None):
        assert frame["state"]["hand"] is None
        assert "hands" not in frame["state"]
        event = frame["event"]
        if event["type"] in ("CardsDrawn", "DrawPileReshuffled"):
            assert "cards" not in event
        if event["type"] == "GameStarted":
            assert event["hand"] is None and "hands" not in event
    # Every hand, but never the order of the draw pile.
    for frame in build_frames(events, seat_names(recorded.game), ALL):
        assert "draw_pile" not in frame["state"] and "draw_pile" not in frame["event"]
        if frame["event"]["type"] == "DrawPileReshuffled":
            assert "cards" not in frame["event"]


def _sayer(names: list[str]) -> Callable[[dict[str, Any]], str]:
    return lambda event: describe(event, names, hand_size=5)


def test_describe_in_plain_words() -> None:
    say = _sayer(["Ann", "Bob", "Cat"])
    played = {"type": "CardsPlayed", "seat": 1, "cards": ["cumi", "cumi"], "target": 0}
    assert say(played) == "Bob played 2 × Hare Cumi at Ann"
    evaded = {"type": "ReactionPlayed", "seat": 0, "card": "taptap", "kind": "volley"}
    assert say(evaded) == "Ann evaded with Hare Taptap"
    assert say({"type": "CardsDrawn", "seat": 2, "count": 2}) == "Cat drew 2 cards"
    assert say({"type": "CardsDrawn", "seat": 2, "cards": ["strom"]}) == "Cat drew Strom"
    assert say({"type": "GameEnded", "result": "win", "winner": 2}) == "Cat won the game!"
    assert say({"type": "TurnStarted", "seat": 0, "turn": 3}) == "Ann's turn."


def test_a_heal_at_no_damage_and_a_declined_skip_say_what_happened() -> None:
    say = _sayer(["Ann", "Bob"])
    assert say({"type": "DamageHealed", "seat": 1, "damage": 0}) == "Bob has no moral damage"
    assert say({"type": "DamageHealed", "seat": 1, "damage": 1}) == "Bob healed to 1 damage"
    declined = {"type": "ReactionDeclined", "seat": 0, "kind": "skip"}
    assert say(declined) == "Ann did not forward the skip"
    assert say({"type": "PlayerSkipped", "seat": 0}) == "Ann is skipped"
