"""What every socket consumer of the site shares: a dispatch that leaves the database alone."""

from __future__ import annotations

from typing import Any

from channels.consumer import get_handler_name


class DirectDispatch:
    """Channels' own dispatch first closes stale database connections on its one shared sync
    thread, for every message: every push to every socket of a process would queue behind that
    thread. These consumers touch the database only through their thread-pool calls, which do it
    themselves."""

    async def dispatch(self, message: dict[str, Any]) -> None:
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"no handler for message type {message['type']}")
        await handler(message)
