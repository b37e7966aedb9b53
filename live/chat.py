"""The table chat over the sockets the pages already have (the game socket, the table socket).

A page's chat panel asks for the chat (`chat_join`) when its socket opens: a socket that never asks
costs nothing. Everything the chat sends is a `chat_*` message, so the pages' own code passes it by.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from chat.publish import chat_group
from chat.selectors import chat_channel_of_id, chat_open
from chat.services import chat_post, chat_set_enabled
from live.sockets import SocketFeatures, rejoin_when_back
from plumbing.channellayer import ShardDown
from plumbing.dbthreads import db
from plumbing.errors import ServiceError
from plumbing.health import is_draining


class ChatSocketMixin(SocketFeatures):
    """Mixed into the game and table sockets in live/routes.py, which says which table
    (`chat_table_id`) the chat is at; the invite code is the socket's `invite`, when it has one."""

    chat_joined: str | None = None
    invite: str | None = None
    user: Any
    channel_layer: Any
    channel_name: str

    def chat_table_id(self) -> int:
        raise NotImplementedError

    @property
    def chat_invite(self) -> str | None:
        return self.invite

    if TYPE_CHECKING:

        async def send_json(self, data: dict[str, Any]) -> None: ...

    async def receive_more(self, message: dict[str, Any]) -> bool:
        return await self.chat_receive(message) or await super().receive_more(message)

    async def leave_more(self) -> None:
        await self.chat_leave()
        await super().leave_more()

    async def group_lost_more(self, group: str) -> bool:
        if group != self.chat_joined:
            return await super().group_lost_more(group)
        # Lost with its channel-layer shard: joined again once the shard answers, and the
        # history sent again then (the page drops what it has, by id).
        self.chat_joined = None
        rejoin_when_back(self, group, then=self.chat_join)
        return True

    async def table_changed(self, message: dict[str, Any]) -> None:
        await super().table_changed(message)  # type: ignore[misc]
        if self.chat_joined is not None:
            await self.chat_join()  # sitting down or leaving moves a person between the channels

    async def chat_receive(self, message: dict[str, Any]) -> bool:
        """Handle a chat message from the page; False when it is not one."""
        kind = message.get("type")
        if kind == "chat_join":
            await self.chat_join()
        elif kind == "chat_send":
            await self.chat_send(message)
        elif kind == "chat_set_enabled":
            try:
                enabled = await db(chat_set_enabled)(
                    table_id=self.chat_table_id(), user=self.user, enabled=message.get("enabled")
                )
            except ServiceError as e:
                await self.send_json({"type": "chat_error", "code": e.code, "detail": e.detail})
                return True
            await self.send_json({"type": "chat_state", "enabled": enabled})
        else:
            return False
        return True

    async def chat_join(self) -> None:
        """Join the person's channel (first, so nothing posted meanwhile is missed), then send its
        history; the page drops any message it already has, by id."""
        table_id = self.chat_table_id()
        try:
            channel = await db(chat_channel_of_id)(table_id, self.user, self.chat_invite)
            await self._chat_group(chat_group(table_id, channel))
            data = await db(chat_open)(table_id, self.user, self.chat_invite)
        except ServiceError as e:
            await self.send_json({"type": "chat_error", "code": e.code, "detail": e.detail})
            return
        except ShardDown:  # the chat's channel-layer shard is down: joined once it answers
            rejoin_when_back(self, chat_group(table_id, channel), then=self.chat_join)
            return
        if data["channel"] != channel:  # seated or left in between
            await self._chat_group(chat_group(table_id, data["channel"]))
        await self.send_json({"type": "chat_history", **data})

    async def _chat_group(self, group: str) -> None:
        if self.chat_joined == group:
            return
        await self.chat_leave()
        await self.channel_layer.group_add(group, self.channel_name)
        self.chat_joined = group

    async def chat_leave(self) -> None:
        # A restarting server leaves its groups when it ends (live/game.py says why).
        if self.chat_joined is not None and not is_draining():
            await self.channel_layer.group_discard(self.chat_joined, self.channel_name)
        self.chat_joined = None

    async def chat_send(self, message: dict[str, Any]) -> None:
        client_id = message.get("client_id")
        try:
            sent = await db(chat_post)(
                table_id=self.chat_table_id(),
                user=self.user,
                text=message.get("text"),
                invite_code=self.chat_invite,
            )
        except ServiceError as e:
            await self.send_json(
                {"type": "chat_error", "client_id": client_id, "code": e.code, "detail": e.detail}
            )
            return
        await self.send_json({"type": "chat_ack", "client_id": client_id, "id": sent["id"]})
        if self.chat_joined != chat_group(self.chat_table_id(), sent["channel"]):
            await self.chat_join()  # the person's channel changed (they sat down or left)

    # --- from the channel layer ------------------------------------------------------------

    async def chat_message(self, message: dict[str, Any]) -> None:
        await self.send_json({"type": "chat_message", "message": message["message"]})

    async def chat_hidden(self, message: dict[str, Any]) -> None:
        await self.send_json({"type": "chat_hidden", "id": message["id"]})

    async def chat_state(self, message: dict[str, Any]) -> None:
        await self.send_json({"type": "chat_state", "enabled": message["enabled"]})
