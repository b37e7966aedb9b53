"""What every viewer of a game receives with a move, made once per move from the states the writer
already holds: for each seat, and for spectators, the whole websocket frame its socket sends (the
move's events as that viewer may see them, the deadline, presence after a seat change, and the
viewer's view and legal commands), already JSON text.

Each frame travels on its own (games/publish.py, `publish_game_push`): a seat's to the servers with
a socket of that seat, the spectators' to every server with a socket at the game, so no server ever
receives, let alone forwards, a seat's cards unless a socket of that seat is on it. Made once here,
a frame costs a socket no filtering or encoding of its own; it crosses Redis compressed
(`frame_pack`): a frame is JSON with much repeated, and the bytes are what Redis and every
receiving server pay for.
"""

from __future__ import annotations

import zlib
from collections.abc import Collection, Sequence
from typing import Any

from games.frames import frame_at
from harehra import GameState, StoredEvent, apply, event_for, legal_commands, views_for_all
from harehra.events import SEAT_EVENTS
from plumbing import jsontext

SEAT_CONTROL_EVENTS = SEAT_EVENTS  # a seat's control changed: presence goes with the push
SPECTATOR, WATCH = "spectator", "watch"  # a spectator's frame, and a watch page's (with replay frames)


def _text(messages: list[dict[str, Any]]) -> str:
    return jsontext.dumps(messages)


# zlib's fastest level: a 1.7 KB frame to about 650 bytes in some 25 µs; higher levels gain a few
# per cent for twice the time (docs/benchmarks/2026-12-07-smaller-push.md).
PACK_LEVEL = 1


def frame_pack(text: str) -> bytes:
    """A frame as it crosses the channel layer."""
    return zlib.compress(text.encode(), PACK_LEVEL)


def frame_text(packed: bytes) -> str:
    """The frame `frame_pack` packed, as the socket sends it."""
    return zlib.decompress(packed).decode()


def viewer_key(seat: int | None, *, frames: bool = False) -> str:
    """Where a socket finds its frame in a push: its seat's number, or a spectator's key."""
    if seat is not None:
        return str(seat)
    return WATCH if frames else SPECTATOR


def view_message(
    *,
    seq: int,
    status: str,
    deadline: str | None,
    view: dict[str, Any],
    legal: list[Any],
    places: list[int] | None,
    **more: Any,
) -> dict[str, Any]:
    """The "view" message (docs/PROTOCOL.md): a viewer's view and legal commands at `seq`, the
    decision awaited and its deadline, and each seat's place once the game has finished. The one
    builder: a push's frames end with it, and a socket sends it after a resume or on request."""
    awaiting = None if view["over"] else view["awaiting"]
    return {
        "type": "view",
        "seq": seq,
        "status": status,
        "deadline": deadline,
        "awaiting": awaiting,
        "view": view,
        "legal": legal,
        "places": places,
        **more,
    }


def awaited_decision(state: GameState) -> dict[str, Any] | None:
    awaiting = None if state.over else state.awaiting
    return {"seat": awaiting.seat, "kind": awaiting.kind.value} if awaiting else None


def push_message(
    *,
    appended: Sequence[tuple[int, StoredEvent]],
    before: GameState | None,
    after: GameState,
    status: str,
    deadline: str | None,
    bot_seats: Collection[int],
    names: Sequence[str],
    warned_seats: Collection[int] = (),
    presence: list[dict[str, Any]] | None = None,
    frames: bool = True,
    places: list[int] | None = None,
) -> dict[str, Any]:
    """The channel-layer message of one move: the seqs it covers and every viewer's frame.

    `before` is the state before the first of `appended` (None for a game's first events), `after`
    the state after the last; `bot_seats` are the seats a bot plays now (no legal commands are sent
    to them: their person must take the seat back first); `warned_seats` are the seats one more
    missed deadline hands to a bot (their view says `away_warning`). `frames`: also make a watch page's frame,
    with the spectators' replay frames (a watch page is open on the game); they cost more than the
    rest together, so a game nobody watches goes without. `places`: each seat's place, once the
    game has finished (games.selectors.game_places).
    """
    last = appended[-1][0]
    awaiting = awaited_decision(after)
    tail: list[dict[str, Any]] = []
    if deadline is not None and awaiting is not None and "deadline" in appended[-1][1]:
        tail.append({"type": "deadline", "seq": last, "deadline": deadline, **awaiting})
    if presence is not None:
        tail.append({"type": "presence", "seats": presence})
    spectator_view, seat_views = views_for_all(after)

    def frame(seat: int | None, view: dict[str, Any], legal: list[Any], **more: Any) -> str:
        events = [{"type": "event", "seq": seq, "event": event_for(e, seat)} for seq, e in appended]
        head = view_message(
            seq=last, status=status, deadline=deadline, view=view, legal=legal, places=places, **more
        )
        return _text([*events, *tail, head])

    out = {
        str(seat): frame(
            seat,
            view,
            [] if seat in bot_seats else legal_commands(after, seat),
            away_warning=seat in warned_seats,
        )
        for seat, view in enumerate(seat_views)
    }
    out[SPECTATOR] = frame(None, spectator_view, [])
    if frames:
        replay: list[dict[str, Any]] = []
        state = before
        for seq, event in appended:
            state = apply(state, event)
            replay.append(frame_at(seq - 1, seq, event, state, names, None))
        out[WATCH] = frame(None, spectator_view, [], frames=replay)
    return {"type": "game.push", "first": appended[0][0], "last": last, "frames": out}
