"""The lobby socket and the table socket: they only pass on what the publisher has prepared."""

from __future__ import annotations

import asyncio
import time
from typing import Any
from urllib.parse import parse_qs

from channels.generic.websocket import AsyncWebsocketConsumer
from django.contrib.auth.models import AnonymousUser

from accounts.publish import user_group
from games.access import AnyUser, access_table_view
from games.invites import scope_invite
from games.models import Table
from games.publish import LOBBY_GROUP, table_group
from games.selectors import lobby_html, lobby_language
from live.dispatch import DirectDispatch
from live.sockets import CLOSE_REFUSED, LimitedSocket, Notified, SocketFeatures
from live.ws_auth import signed_out_by
from plumbing import jsontext
from plumbing.channellayer import ShardDown
from plumbing.dbthreads import db
from plumbing.errors import ServiceError
from plumbing.health import is_draining


class PushConsumer(Notified, LimitedSocket, SocketFeatures, DirectDispatch, AsyncWebsocketConsumer):
    """A socket that mostly listens: its groups, a ping, and an error for anything else (the
    lobby's and a table's here; other apps' push-only sockets build on it too: a tournament's)."""

    groups_joined: list[str]

    async def join(self, groups: list[str]) -> None:
        """Join `groups`; when one's shard is down, leave those joined and raise ShardDown (the
        socket is turned away: LimitedSocket.websocket_connect)."""
        self.groups_joined = []
        try:
            for group in groups:
                await self.channel_layer.group_add(group, self.channel_name)
                self.groups_joined.append(group)
        except ShardDown:
            for group in self.groups_joined:
                await self.channel_layer.group_discard(group, self.channel_name)
            self.groups_joined = []
            raise

    async def disconnect(self, code: int) -> None:
        await self.leave_more()
        if is_draining():
            return  # a restarting server leaves its groups when it ends (live/game.py)
        for group in getattr(self, "groups_joined", []):
            await self.channel_layer.group_discard(group, self.channel_name)

    async def send_json(self, data: dict[str, Any]) -> None:
        await self.send(text_data=jsontext.dumps(data))

    async def receive_message(self, message: Any) -> None:
        if isinstance(message, dict) and message.get("type") == "ping":
            await self.send_json({"type": "pong"})
            return
        if isinstance(message, dict) and await self.receive_more(message):
            return  # a feature's (the table chat on a table's socket: live/routes.py)
        await self.send_json({"type": "error", "code": "bad_message", "detail": "unknown message type"})


# The lobby's list being read, or read last, by this process, per language: (when its read began,
# its loop, the list). A restarted server's lobby pages all come back within a second or two, and
# each read the whole list and rendered it again (8.6% of the database threads' time in a restart's
# window, docs/OPERATIONS.md).
_lobby_reads: dict[str, tuple[float, asyncio.AbstractEventLoop, asyncio.Future[str]]] = {}


async def lobby_list_read_since(joined_at: float, language: str | None = None) -> str:
    """The lobby's list in `language` (the site's when none), read after `joined_at` (when the
    socket joined the lobby's group, so that no change falls between the list and its pushes). One
    read at a time per language: a socket that joined before the read under way (or done last)
    began takes that one; one that joined after waits for it to end, then takes the next, which
    every socket waiting meanwhile shares. A burst of lobby sockets costs a few reads, not one each."""
    language = lobby_language(language)
    loop = asyncio.get_running_loop()
    while True:
        found = _lobby_reads.get(language)
        if found is not None and found[1] is loop:
            if found[0] >= joined_at:
                return await asyncio.shield(found[2])
            if not found[2].done():
                await asyncio.wait([found[2]])
                continue
        found = (time.monotonic(), loop, asyncio.ensure_future(db(lobby_html)(language)))
        _lobby_reads[language] = found
        return await asyncio.shield(found[2])


def _socket_language(scope: dict[str, Any]) -> str:
    """The language of the page that opened the socket, which it names in the socket's address
    (`?lang=cs`); the site's own for any other."""
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    return lobby_language((query.get("lang") or [None])[0])


class LobbyConsumer(PushConsumer):
    """Anyone may watch the lobby: the whole list on (re)connect, then each changed row."""

    socket_kind = "lobby"

    async def connect(self) -> None:
        # Joined before the list is read, so no change can fall between the list and the pushes.
        # A signed-in person's lobby also joins their own group: a suspension or ban is said on
        # the lobby they have open too.
        user = self.scope.get("user")
        self.language = _socket_language(self.scope)
        mine = [user_group(user.pk)] if user is not None and user.is_authenticated else []
        await self.join([LOBBY_GROUP, *mine])
        joined_at = time.monotonic()
        await self.accept()
        html = await lobby_list_read_since(joined_at, self.language)
        await self.send_json({"type": "lobby", "html": html})

    async def lobby_table(self, message: dict[str, Any]) -> None:
        html = message["html"]
        if isinstance(html, dict):  # {language: row}; a server of the version before sent one row
            html = html.get(self.language, html.get(lobby_language(None)))
        await self.send_json({"type": "table", "table": message["table"], "html": html})

    async def user_signed_out(self, message: dict[str, Any]) -> None:
        """Signed out elsewhere: the lobby is anyone's to watch, so it stays open."""

    async def user_sanctioned(self, message: dict[str, Any]) -> None:
        await self.close_sanctioned(message)


def _open_table(table_id: int, user: AnyUser, scope: dict[str, Any]) -> str | None:
    """The table's invite the socket came with (`?invite=`, else the session's), once the table
    may be seen."""
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        raise ServiceError("not_found", "no such table", 404)
    invite = scope_invite(scope, table_id)
    access_table_view(table, user, invite)
    return invite


class TableConsumer(PushConsumer):
    """Tells a table's page that the table changed; the page fetches its own view of it, which
    holds forms for that person only."""

    socket_kind = "table"

    def session_fields(self) -> dict[str, Any]:
        return {**super().session_fields(), "table": getattr(self, "table_id", None)}

    async def connect(self) -> None:
        user = self.scope.get("user") or AnonymousUser()
        self.user = user
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        try:
            self.invite = await db(_open_table)(self.table_id, user, self.scope)
        except ServiceError:
            await self.refuse(CLOSE_REFUSED)  # 4403: don't reconnect
            return
        # The user's group: signing out closes the socket, as it does the game socket.
        groups = [table_group(self.table_id)]
        if user.is_authenticated:
            groups.append(user_group(user.pk))
        await self.join(groups)
        await self.accept()
        # The page was rendered before this socket joined: it syncs once, on every (re)connect.
        await self.send_json({"type": "changed", "table": self.table_id})

    async def table_changed(self, message: dict[str, Any]) -> None:
        await self.send_json({"type": "changed", "table": self.table_id})

    async def user_signed_out(self, message: dict[str, Any]) -> None:
        if signed_out_by(self.scope, message):  # a password change keeps what made it
            await self.close(code=CLOSE_REFUSED)

    async def user_sanctioned(self, message: dict[str, Any]) -> None:
        await self.close_sanctioned(message)
