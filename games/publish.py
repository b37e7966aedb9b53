"""Telling live clients: messages go out on the channel layer only after the transaction commits."""

from __future__ import annotations

import logging
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from .engine import Event

log = logging.getLogger(__name__)


def game_group(game_id: int) -> str:
    return f"game.{game_id}"


def table_group(table_id: int) -> str:
    return f"table.{table_id}"


LOBBY_GROUP = "lobby"


def _send(group: str, message: dict[str, Any]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(group, message)
    except Exception:  # a lost push is recovered by the clients' seq check and resume
        log.exception("could not publish to %s", group)


def publish_game_events(game_id: int, events: list[tuple[int, Event]]) -> None:
    """Consumers filter each event for their own viewer before it reaches a socket."""
    _send(
        game_group(game_id),
        {"type": "game.events", "events": [{"seq": seq, "event": e} for seq, e in events]},
    )


def publish_game_meta(game_id: int, kind: str, data: dict[str, Any]) -> None:
    _send(game_group(game_id), {"type": "game.meta", "kind": kind, "data": data})


def publish_table_changed(table_id: int) -> None:
    _send(table_group(table_id), {"type": "table.changed", "table": table_id})
    _send(LOBBY_GROUP, {"type": "lobby.changed", "table": table_id})


def user_group(user_id: int) -> str:
    return f"user.{user_id}"


def publish_user_signed_out(user_id: int) -> None:
    """Close every socket the user has open, on every server process."""
    _send(user_group(user_id), {"type": "user.signed_out"})
