"""What every viewer of a game receives with a move, computed once per move from the states the
writer already holds: each seat's own view and legal commands, and the spectators' view and replay
frames. The channel layer carries the whole to every server with a socket at the game; each socket
takes its own part and nothing else (`push_part`), so no seat ever receives another seat's cards.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

from replays.selectors import frame_at

from .engine import Event, GameState, apply, legal_commands, views_for_all
from .seat_events import SEAT_RECLAIMED, SEAT_TAKEN_BY_BOT

SEAT_CONTROL_EVENTS = frozenset({SEAT_TAKEN_BY_BOT, SEAT_RECLAIMED})


def push_message(
    *,
    appended: Sequence[tuple[int, Event]],
    before: GameState | None,
    after: GameState,
    status: str,
    deadline: str | None,
    bot_seats: Collection[int],
    names: Sequence[str],
    presence: list[dict[str, Any]] | None = None,
    frames: bool = True,
) -> dict[str, Any]:
    """The channel-layer message of one move: its raw events and every viewer's part.

    `frames`: include the spectators' replay frames (a watch page is open on the game); they cost
    more than the rest together, so a game nobody watches goes without.

    `before` is the state before the first of `appended` (None for a game's first events), `after`
    the state after the last; `bot_seats` are the seats a bot plays now (no legal commands are sent
    to them: their person must take the seat back first).
    """
    awaiting = None if after.over else after.awaiting
    spectator_view, seat_views = views_for_all(after)
    seats = [
        {"view": view, "legal": [] if seat in bot_seats else legal_commands(after, seat)}
        for seat, view in enumerate(seat_views)
    ]
    spectator: dict[str, Any] = {"view": spectator_view}
    if frames:
        spectator["frames"] = []
        state = before
        for seq, event in appended:
            state = apply(state, event)
            spectator["frames"].append(frame_at(seq - 1, seq, event, state, names, None))
    message: dict[str, Any] = {
        "type": "game.push",
        "events": [{"seq": seq, "event": e} for seq, e in appended],
        "seq": appended[-1][0],
        "status": status,
        "deadline": deadline,
        "awaiting": {"seat": awaiting.seat, "kind": awaiting.kind.value} if awaiting else None,
        "seats": seats,
        "spectator": spectator,
    }
    if presence is not None:
        message["presence"] = presence
    return message


def push_part(message: dict[str, Any], seat: int | None, *, frames: bool = False) -> dict[str, Any]:
    """The `view` message one socket gets from a push: its seat's part, or the spectators'."""
    if seat is None:
        part = message["spectator"]
        out = {"view": part["view"], "legal": []}
        if frames and "frames" in part:
            out["frames"] = part["frames"]
    else:
        out = dict(message["seats"][seat])
    return {
        "type": "view",
        "seq": message["seq"],
        "status": message["status"],
        "deadline": message["deadline"],
        "awaiting": message["awaiting"],
        **out,
    }
