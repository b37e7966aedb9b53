"""The replay analysis socket, `/ws/replays/<ref>/analysis/`: a finished game's replay page, while
its analysis is queued or running, is told how far it got and when it is stored (or failed),
pushed (analysis/publish.py), so the page never polls. Composed into the site's sockets in
live/routes.py."""

from __future__ import annotations

import asyncio
from typing import Any

from django.contrib.auth.models import AnonymousUser

from accounts.publish import user_group
from analysis.access import access_analysis_view
from analysis.pending import RUNNING_STALE
from analysis.publish import analysis_group, analysis_message, analysis_pending
from analysis.selectors import analysis_status
from games.invites import scope_invite
from live.lobby import PushConsumer
from live.sockets import CLOSE_REFUSED
from live.ws_auth import signed_out_by
from plumbing.dbthreads import db
from plumbing.errors import ServiceError
from replays.access import open_replay

# A pending analysis silent this long is read again, so a page whose worker died hears that its
# request was given up (`analysis_lost`) without asking: one read per socket per silence.
QUIET_SECONDS = RUNNING_STALE.total_seconds() + 5


def _open(ref: str, user: Any, scope: dict[str, Any]) -> int:
    """The game whose analysis the socket may follow: the replay's access (the replay grant, its
    key or id, the table's invite from `?invite=` or the session), and a game that ended by the
    rules. Raises ServiceError otherwise."""
    grant = open_replay(ref, user, lambda table_id: scope_invite(scope, table_id))
    access_analysis_view(grant)
    return int(grant.game.pk)


def _status_text(game_id: int) -> tuple[str, bool]:
    status = analysis_status(game_id, body=False)
    return analysis_message(status), analysis_pending(status)


class AnalysisConsumer(PushConsumer):
    """Whoever may open the replay may follow its analysis. The first message of every connection
    is the status as it stands; then each change, as the worker writes it."""

    socket_kind = "analysis"
    quiet: asyncio.TimerHandle | None = None

    def session_fields(self) -> dict[str, Any]:
        return {**super().session_fields(), "game": getattr(self, "game_id", None)}

    async def connect(self) -> None:
        user = self.scope.get("user") or AnonymousUser()
        ref = str(self.scope["url_route"]["kwargs"]["ref"])
        try:
            self.game_id = await db(_open)(ref, user, self.scope)
        except ServiceError:
            await self.refuse(CLOSE_REFUSED)  # 4403: a bad ref, a replay hidden from them: don't reconnect
            return
        groups = [analysis_group(self.game_id)]
        if user.is_authenticated:  # signing out closes it, as it does the table socket
            groups.append(user_group(user.pk))
        # Joined before the status is read, so no change can fall between the read and the pushes.
        await self.join(groups)
        await self.accept()
        await self.send_status()

    async def send_status(self) -> None:
        await self.say(*await db(_status_text)(self.game_id))

    async def say(self, text: str, pending: bool) -> None:
        """Send a status; while the analysis is pending, read it again after QUIET_SECONDS of
        silence (a worker that died writes nothing more)."""
        await self.send(text_data=text)
        if self.quiet is not None:
            self.quiet.cancel()
            self.quiet = None
        if pending:
            loop = asyncio.get_running_loop()
            self.quiet = loop.call_later(QUIET_SECONDS, lambda: loop.create_task(self.send_status()))

    async def leave_more(self) -> None:
        if self.quiet is not None:
            self.quiet.cancel()
            self.quiet = None
        await super().leave_more()

    async def analysis_changed(self, message: dict[str, Any]) -> None:
        await self.say(message["text"], message["pending"])

    async def user_signed_out(self, message: dict[str, Any]) -> None:
        if signed_out_by(self.scope, message):  # a password change keeps what made it
            await self.close(code=CLOSE_REFUSED)

    async def user_sanctioned(self, message: dict[str, Any]) -> None:
        await self.close_sanctioned(message)
