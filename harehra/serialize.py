"""GameState to and from JSON-ready data, for snapshots. Snapshots are caches: the log is the truth."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .ruleset import Ruleset
from .state import Awaiting, Decision, GameState, Result, Volley


def state_to_dict(state: GameState) -> dict[str, Any]:
    return {
        "ruleset": state.ruleset.to_dict(),
        "players": state.players,
        "shuffler": state.shuffler,
        "hands": [list(h) for h in state.hands],
        "draw_pile": list(state.draw_pile),
        "discard_pile": list(state.discard_pile),
        "damage": list(state.damage),
        "protected": sorted(state.protected),
        "direction": state.direction,
        "turn_seat": state.turn_seat,
        "turn_number": state.turn_number,
        "awaiting": [state.awaiting.seat, state.awaiting.kind.value] if state.awaiting else None,
        "volley": (
            [state.volley.attacker, state.volley.target, state.volley.count] if state.volley else None
        ),
        "skip_from": state.skip_from,
        "skipped": state.skipped,
        "discard_count": state.discard_count,
        "result": state.result.value if state.result else None,
        "winner": state.winner,
        "drawn_since_volley_taken": list(state.drawn_since_volley_taken),
        "drawn_since_skip_taken": list(state.drawn_since_skip_taken),
    }


def snapshot_is_current(data: Mapping[str, Any]) -> bool:
    """Whether `data` holds every field a state has now: a snapshot written by an older version
    (before the public draw counts) is refolded from the log instead of read."""
    return "drawn_since_skip_taken" in data


def state_from_dict(data: Mapping[str, Any]) -> GameState:
    awaiting = data["awaiting"]
    volley = data["volley"]
    return GameState(
        ruleset=Ruleset.from_dict(data["ruleset"]),
        players=data["players"],
        shuffler=data["shuffler"],
        hands=tuple(tuple(h) for h in data["hands"]),
        draw_pile=tuple(data["draw_pile"]),
        discard_pile=tuple(data["discard_pile"]),
        damage=tuple(data["damage"]),
        protected=frozenset(data["protected"]),
        direction=data["direction"],
        turn_seat=data["turn_seat"],
        turn_number=data["turn_number"],
        awaiting=Awaiting(awaiting[0], Decision(awaiting[1])) if awaiting else None,
        volley=Volley(*volley) if volley else None,
        skip_from=data["skip_from"],
        skipped=data["skipped"],
        discard_count=data["discard_count"],
        result=Result(data["result"]) if data["result"] else None,
        winner=data["winner"],
        drawn_since_volley_taken=tuple(data["drawn_since_volley_taken"]),
        drawn_since_skip_taken=tuple(data["drawn_since_skip_taken"]),
    )
