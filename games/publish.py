"""What games tells its live clients, as plain messages to the sockets' groups, sent after the
transaction commits (plumbing/publish.py, `send_on_commit`). A move's frames, one per viewer, are
made by games/push.py and sent here, each to its own group."""

from __future__ import annotations

import logging
from typing import Any

from games.push import SPECTATOR, frame_pack
from games.selectors import lobby_change
from plumbing.channellayer import SAME_SHARD
from plumbing.publish import send_all_on_commit, send_on_commit

log = logging.getLogger(__name__)


def game_group(game_id: int) -> str:
    return f"game.{game_id}"


def viewer_group(game_id: int, viewer: str) -> str:
    """The group of a game's sockets of one viewer (a seat's number, the spectators', the watch
    pages': a key of games/push.py). It lives on its game group's shard (plumbing/channellayer.py,
    SAME_SHARD): a move's sends to a game's groups reach a server in the order they were made."""
    return f"{game_group(game_id)}{SAME_SHARD}{viewer}"


def table_group(table_id: int) -> str:
    return f"table.{table_id}"


LOBBY_GROUP = "lobby"


def publish_game_push(game_id: int, message: dict[str, Any]) -> None:
    """One move (games/push.py, `push_message`), each viewer's frame to that viewer's sockets
    alone: to its own group (a seat's, the spectators', the watch pages'), which only servers with
    such a socket subscribe to, so no server receives a seat's cards unless that seat's socket is
    on it.

    The spectators' frame goes last. A seat's socket hears it while it opens (live/game.py): it
    joins the spectators' group before it reads the game, and its seat's only after (the read
    says which seat it is), so a move pushed in between reaches it as the spectators' frame, and
    it reads its own from the log. A game's groups live on one Redis (the same shard), and each
    server reads it on one connection, so a server gets a move's frames in the order sent."""
    first, last = message["first"], message["last"]
    frames = message["frames"]
    order = [viewer for viewer in frames if viewer != SPECTATOR] + [SPECTATOR]
    send_all_on_commit(
        [(viewer_group(game_id, viewer), _push(first, last, viewer, frames[viewer])) for viewer in order]
    )


def _push(first: int, last: int, viewer: str, text: str) -> dict[str, Any]:
    return {"type": "game.push", "first": first, "last": last, "viewer": viewer, "frame": frame_pack(text)}


def publish_game_head(game_id: int, seq: int) -> None:
    """The game has reached `seq`: its sockets that have not seen that far read what they missed.
    Said when a command comes again that was applied already: the server that applied it may have
    been killed before it pushed the move."""
    send_on_commit(game_group(game_id), {"type": "game.head", "seq": seq})


def publish_next_game(game_id: int, next_game_id: int) -> None:
    """The table's next game has started: the sockets of the game before it are told where to go."""
    send_on_commit(
        game_group(game_id), {"type": "game.meta", "kind": "next_game", "data": {"game": next_game_id}}
    )


def publish_game_meta(game_id: int, kind: str, data: dict[str, Any]) -> None:
    send_on_commit(game_group(game_id), {"type": "game.meta", "kind": kind, "data": data})


def publish_table_changed(table_id: int) -> None:
    """Table sockets are told that something changed; lobby sockets get the table's new row.

    The row is rendered here, once per change in the process that made it, so a change costs each
    lobby socket on every server one forward and nothing else. Called after commit (it reads the
    table as committed).
    """
    send_on_commit(table_group(table_id), {"type": "table.changed", "table": table_id})
    try:
        change = lobby_change(table_id)
    except Exception:  # a commit hook must not raise; a lobby catches up when it (re)connects
        log.exception("could not render the lobby row of table %s", table_id)
        return
    if change is not None:
        send_on_commit(LOBBY_GROUP, {"type": "lobby.table", **change})
