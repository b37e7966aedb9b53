"""The spectator count over a watch page's game socket: its heartbeat is a `watching` message
instead of an HTTP request every few seconds. Mixed into the game socket in live/routes.py."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from games.models import Game
from live.sockets import SocketFeatures
from plumbing.client_address import scope_client_address
from plumbing.dbthreads import db
from plumbing.errors import ServiceError
from plumbing.health import is_draining
from replays.services import HEARTBEAT_SECONDS, watcher_beat, watcher_key


class WatchersSocketMixin(SocketFeatures):
    """For the game socket: `game`, `seat` (None for a spectator), `user` and `scope`."""

    watching: str | None = None  # the watch page's client id, once it has said so
    game: Game
    seat: int | None
    user: Any
    scope: Any

    if TYPE_CHECKING:

        async def send_json(self, data: dict[str, Any]) -> None: ...

    def _viewer(self) -> str:
        # Whom the heartbeats count: the user, else the address (replays/services.py).
        return watcher_key(self.user, scope_client_address(self.scope))

    async def receive_more(self, message: dict[str, Any]) -> bool:
        if message.get("type") != "watching":
            return await super().receive_more(message)
        if self.seat is not None:
            await self.send_json({"type": "error", "code": "bad_message", "detail": "only spectators watch"})
            return True
        try:
            count = await db(watcher_beat)(
                game=self.game, viewer=self._viewer(), client_id=message.get("client_id")
            )
        except ServiceError as e:
            await self.send_json({"type": "error", "code": e.code, "detail": e.detail})
            return True
        self.watching = message["client_id"]
        await self.send_json({"type": "watchers", "count": count, "heartbeat": HEARTBEAT_SECONDS})
        return True

    async def leave_more(self) -> None:
        # Closed by a restart, the page beats again from its next server within seconds; one that
        # does not is dropped with the stale watchers.
        if self.watching is not None and not is_draining():
            await db(watcher_beat)(
                game=self.game, viewer=self._viewer(), client_id=self.watching, leaving=True
            )
        await super().leave_more()
