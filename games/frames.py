"""Frames: the table as it was after each event of a game, for one perspective.

A frame is {step, seq, turn_number, event, text, state, capacity}: `step` counts from 0 (the deal),
`event` is the event as the perspective may see it, `text` the same in words, `state` the table
then (for "all": view_for's spectator view plus every hand; for a seat: view_for(state, seat);
for None, a spectator: view_for(state, None)) and `capacity` each seat's max_damage − damage.
The draw pile's order is never in a frame. Replays draw their viewer from them, and a live
game's pushes carry the spectators' frames while a watch page is open.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from harehra import EventType, GameState, StoredEvent, apply, event_for, view_for

from .describe import describe

ALL = "all"  # every hand shown: a finished game's replay, for those it allows
SPECTATOR = "spectator"
SeqEvent = tuple[int, StoredEvent]  # an event as logged, with its seq


def event_for_all(e: StoredEvent) -> dict[str, Any]:
    """Every hand may be seen, but never the order of the draw pile."""
    kind = e["type"]
    out = {k: v for k, v in e.items() if k != "deadline"}
    if kind == EventType.GAME_STARTED:
        out.pop("draw_pile", None)
        out["draw_pile_size"] = len(e["draw_pile"])
    elif kind == EventType.DRAW_PILE_RESHUFFLED:
        out.pop("cards", None)
        out["count"] = len(e["cards"])
    return out


def state_for_all(state: GameState) -> dict[str, Any]:
    view = view_for(state, None)
    view["hands"] = [list(h) for h in state.hands]
    return view


def build_frames(
    events: Sequence[SeqEvent],
    names: Sequence[str],
    perspective: int | str | None,
    first: int = 0,
    last: int | None = None,
) -> list[dict[str, Any]]:
    """Frames `first`..`last` (steps, inclusive) for `events`; the fold always starts at the deal."""
    last = len(events) - 1 if last is None else min(last, len(events) - 1)
    out: list[dict[str, Any]] = []
    state: GameState | None = None
    for step, (seq, e) in enumerate(events):
        state = apply(state, e)
        if step < first:
            continue
        if step > last:
            break
        out.append(frame_at(step, seq, e, state, names, perspective))
    return out


def frame_at(
    step: int,
    seq: int,
    e: StoredEvent,
    state: GameState,
    names: Sequence[str],
    perspective: int | str | None,
) -> dict[str, Any]:
    """The frame of event `e` (step `step`, seq `seq`), `state` being the state it folded to."""
    if perspective == ALL:
        shown = event_for_all(e)
        table = state_for_all(state)
    else:
        seat = perspective if isinstance(perspective, int) else None
        shown = event_for(e, seat)
        shown.pop("deadline", None)
        table = view_for(state, seat)
    top = state.ruleset.max_damage
    return {
        "step": step,
        "seq": seq,
        "turn_number": state.turn_number,
        "event": shown,
        "text": describe(shown, names, hand_size=state.ruleset.hand_size),
        "state": table,
        "capacity": [max(0, top - d) for d in state.damage],
    }


def states_at_each_step(events: Iterable[SeqEvent]) -> list[tuple[int, GameState]]:
    """(seq, state after that event) for every event: what the frames are drawn from."""
    out: list[tuple[int, GameState]] = []
    state: GameState | None = None
    for seq, e in events:
        state = apply(state, e)
        out.append((seq, state))
    return out
