"""The hidden-information filter denies by default: it knows every event type the engine and the
seat services emit, and refuses any other."""

from __future__ import annotations

import random

import pytest

from harehra import (
    EngineError,
    ErrorCode,
    EventType,
    abort,
    event_for,
    legal_commands,
    make_ruleset,
    replay,
    start_game,
    step,
)
from harehra.events import SEAT_EVENTS, seat_reclaimed, seat_taken_by_bot
from harehra.simulation import rng_shuffle


def _events_of_every_type() -> dict[str, dict]:
    """A real event of each type, from random games (and an abort and the seat events)."""
    found: dict[str, dict] = {}
    rng = random.Random(5)
    for _ in range(300):
        shuffle = rng_shuffle(rng)
        events = start_game(make_ruleset(), 4, 0, shuffle)
        state = replay(events)
        found.setdefault(events[0]["type"], events[0])
        while not state.over:
            new, state = step(state, rng.choice(legal_commands(state, state.awaiting.seat)), shuffle)
            for e in new:
                found.setdefault(e["type"], e)
        if len(found) >= len(EventType) - 1 - len(SEAT_EVENTS):  # all but GameAborted and the seat events
            break
    events = start_game(make_ruleset(), 2, 0, rng_shuffle(rng))
    aborted, _ = abort(replay(events))
    found.setdefault(aborted[0]["type"], aborted[0])
    for e in (seat_taken_by_bot(1, "away"), seat_reclaimed(1)):
        found[e["type"]] = e
    return found


def test_every_event_type_the_log_can_hold_is_known_to_the_filter() -> None:
    events = _events_of_every_type()
    assert set(events) == {t.value for t in EventType} | SEAT_EVENTS
    for e in events.values():
        for seat in (None, 0, 1):
            seen = event_for(e, seat)
            assert seen["type"] == e["type"]
            if "cards" in seen and e["type"] == EventType.CARDS_DRAWN:
                assert e["seat"] == seat, "only the drawer sees what was drawn"
            assert "draw_pile" not in seen and "hands" not in seen


def test_an_unknown_event_type_is_refused_not_passed_through() -> None:
    with pytest.raises(EngineError) as refused:
        event_for({"type": "SecretDealt", "version": 1, "seat": 0, "cards": ["cumi"]}, None)
    assert refused.value.code is ErrorCode.UNKNOWN_EVENT
