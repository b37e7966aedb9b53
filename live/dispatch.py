"""What every socket consumer of the site shares: a dispatch that leaves the database alone."""

from __future__ import annotations

from typing import Any

from channels.consumer import get_handler_name


class DirectDispatch:
    """Channels' own dispatch first closes stale database connections on its one shared sync
    thread, for every message: every push to every socket of a process would queue behind that
    thread. These consumers touch the database only through their thread-pool calls, which do it
    themselves."""

    turned_away = False  # set when the socket is refused (live/sockets.py, refuse)

    async def dispatch(self, message: dict[str, Any]) -> None:
        if self.turned_away and not message["type"].startswith("websocket."):
            return  # a push that reached a socket refused while it was being let in
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"no handler for message type {message['type']}")
        await handler(message)
