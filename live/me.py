"""The person's own socket, for the pages that have none of their own: what is said to the person
wherever they are (a notification, a sign-out, a sanction). Pages with a socket hear the same on
it (live/sockets.py, `Notified`); static/js/core/bell.js opens this one only where there is none."""

from __future__ import annotations

from typing import Any

from accounts.publish import user_group
from live.lobby import PushConsumer
from live.sockets import CLOSE_REFUSED
from live.ws_auth import signed_out_by
from notifications.selectors import unread_count
from plumbing.dbthreads import db


class MeConsumer(PushConsumer):
    socket_kind = "me"

    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.refuse(CLOSE_REFUSED)  # 4403: a signed-out page has nobody to tell
            return
        await self.join([user_group(user.pk)])
        await self.accept()
        # The page was rendered before this socket joined: the count as of now, on every (re)connect.
        unread = await db(unread_count)(user.pk)
        await self.send_json({"type": "notification", "unread": unread, "kind": None, "url": None})

    async def user_signed_out(self, message: dict[str, Any]) -> None:
        if signed_out_by(self.scope, message):
            await self.close(code=CLOSE_REFUSED)

    async def user_sanctioned(self, message: dict[str, Any]) -> None:
        await self.close_sanctioned(message)
