"""What a person may see: the only road by which state or events leave the engine toward people."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .errors import EngineError, ErrorCode
from .events import SEAT_EVENTS, EventType, direction_name
from .state import GameState


def view_for(state: GameState, seat: int | None) -> dict[str, Any]:
    """The state as `seat` sees it (None: a spectator). Never another seat's cards or the draw order."""
    return _seen_from(_public_view(state), state, seat)


def views_for_all(state: GameState) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """`view_for` of a spectator and of every seat, the part they share made once."""
    public = _public_view(state)
    return _seen_from(public, state, None), [_seen_from(public, state, s) for s in range(state.players)]


def _seen_from(public: dict[str, Any], state: GameState, seat: int | None) -> dict[str, Any]:
    return {**public, "seat": seat, "hand": list(state.hands[seat]) if seat is not None else None}


def _count(counts: tuple[int, ...], seat: int) -> int | None:
    return counts[seat] if counts[seat] >= 0 else None


def _public_view(state: GameState) -> dict[str, Any]:
    """What every viewer sees alike."""
    awaiting = state.awaiting
    return {
        "players": [
            {
                "seat": s,
                "hand_size": len(state.hands[s]),
                "damage": state.damage[s],
                "max_hand": state.max_hand(s),
                "protected": s in state.protected,
                "eliminated": state.is_eliminated(s),
                # Counted from the public log: cards drawn since the seat let a volley land
                # without a Taptap / took a skip without a Strom (None: never).
                "drawn_since_taken": {
                    "volley": _count(state.drawn_since_volley_taken, s),
                    "skip": _count(state.drawn_since_skip_taken, s),
                },
            }
            for s in range(state.players)
        ],
        "shuffler": state.shuffler,
        "turn": state.turn_seat,
        "turn_number": state.turn_number,
        "direction": direction_name(state.direction),
        "draw_pile_size": len(state.draw_pile),
        "discard_pile_size": len(state.discard_pile),
        "discard_top": state.discard_pile[-1] if state.discard_pile else None,
        # Every card of the discard pile was seen face up, bottom first: public, and what a
        # searching bot needs to know which cards may still be hidden.
        "discard_pile": list(state.discard_pile),
        "awaiting": {"seat": awaiting.seat, "kind": awaiting.kind.value} if awaiting else None,
        "volley": (
            {"attacker": state.volley.attacker, "target": state.volley.target, "count": state.volley.count}
            if state.volley
            else None
        ),
        "discard_count": state.discard_count if awaiting else 0,
        "skip_from": state.skip_from,  # who played or forwarded the pending skip
        "skipped": state.skipped,  # who was skipped this turn (play goes on after them)
        "over": state.over,
        "result": state.result.value if state.result else None,
        "winner": state.winner,
        "turn_limit": state.ruleset.turn_limit,
        "ruleset": state.ruleset.to_dict(),
    }


# Events that carry no hidden card: every viewer gets them whole. Any other type must be filtered
# by `event_for` below, or is refused: a new event type stays hidden until it is listed here.
_WHOLE: frozenset[str] = frozenset(
    {
        EventType.TURN_STARTED,
        EventType.CARDS_PLAYED,
        EventType.DIRECTION_CHANGED,
        EventType.PROTECTION_GAINED,
        EventType.DAMAGE_HEALED,
        EventType.PLAYER_SKIPPED,
        EventType.VOLLEY_PENDING,
        EventType.SKIP_PENDING,
        EventType.REACTION_PLAYED,
        EventType.REACTION_DECLINED,
        EventType.DAMAGE_TAKEN,
        EventType.PLAYER_ELIMINATED,
        EventType.CARD_BURNED,
        EventType.DISCARD_REQUIRED,
        EventType.CARDS_DISCARDED,
        EventType.GAME_ENDED,
        EventType.GAME_ABORTED,
        *SEAT_EVENTS,
    }
)


def event_for(e: Mapping[str, Any], seat: int | None) -> dict[str, Any]:
    """`e` as `seat` may see it: hidden cards become counts (e.g. "seat 2 drew 2 cards").

    Denies by default: an event type this function does not know raises unknown_event."""
    kind = e["type"]
    if kind in _WHOLE:
        return dict(e)
    if kind == EventType.CARDS_DRAWN:
        if e["seat"] == seat:
            return dict(e)
        out = {k: v for k, v in e.items() if k != "cards"}
        out["count"] = len(e["cards"])
        return out
    if kind == EventType.DRAW_PILE_RESHUFFLED:
        out = {k: v for k, v in e.items() if k != "cards"}
        out["count"] = len(e["cards"])
        return out
    if kind == EventType.GAME_STARTED:
        out = {k: v for k, v in e.items() if k not in ("hands", "draw_pile")}
        out["hand_sizes"] = [len(h) for h in e["hands"]]
        out["hand"] = list(e["hands"][seat]) if seat is not None else None
        out["draw_pile_size"] = len(e["draw_pile"])
        return out
    raise EngineError(ErrorCode.UNKNOWN_EVENT, f"no viewer may see an event of type {kind!r}")
