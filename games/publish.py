"""What games tells its live clients, as plain messages to the sockets' groups, sent after the
transaction commits (plumbing/publish.py, `send_on_commit`). A move's message, every viewer's
frame, is made by games/push.py."""

from __future__ import annotations

import logging
from typing import Any

from games.selectors import lobby_change
from plumbing.publish import send_on_commit

log = logging.getLogger(__name__)


def game_group(game_id: int) -> str:
    return f"game.{game_id}"


def table_group(table_id: int) -> str:
    return f"table.{table_id}"


LOBBY_GROUP = "lobby"


def publish_game_push(game_id: int, message: dict[str, Any]) -> None:
    """One move to every socket of the game (games/push.py, `push_message`); each socket takes
    its own viewer's frame."""
    send_on_commit(game_group(game_id), message)


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
