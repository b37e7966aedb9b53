"""The tournament socket, `/ws/tournaments/<id>/`: the event page's standings and the viewer's own
entry, pushed (tournaments/publish.py), so the page never polls; a page whose lists of players'
games fell behind asks for them (`games`). Composed into the site's sockets
in live/routes.py."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AnonymousUser

from accounts.publish import user_group
from live.lobby import PushConsumer
from live.sockets import CLOSE_REFUSED
from live.ws_auth import signed_out_by
from plumbing.dbthreads import db
from tournaments.publish import (
    GAMES_ASKED_AT_MOST,
    tournament_games_text,
    tournament_group,
    tournament_hello,
    tournament_user_group,
)


class TournamentConsumer(PushConsumer):
    """Anyone may watch an event. A signed-in viewer also joins their own group of the event (the
    `me` messages: seated at a new table...) and their user group (signing out closes it)."""

    socket_kind = "tournament"

    def session_fields(self) -> dict[str, Any]:
        return {**super().session_fields(), "tournament": getattr(self, "tournament_id", None)}

    async def connect(self) -> None:
        user = self.scope.get("user") or AnonymousUser()
        self.tournament_id = int(self.scope["url_route"]["kwargs"]["tournament_id"])
        groups = [tournament_group(self.tournament_id)]
        if user.is_authenticated:
            groups += [tournament_user_group(self.tournament_id, user.pk), user_group(user.pk)]
        # Joined before the first read, so no change can fall between the read and the pushes.
        await self.join(groups)
        hello = await db(tournament_hello)(self.tournament_id, user.pk if user.is_authenticated else None)
        if hello is None:
            await self.refuse(CLOSE_REFUSED)  # 4403: no such event, don't reconnect
            return
        await self.accept()
        for text in hello:
            await self.send(text_data=text)

    async def receive_message(self, message: Any) -> None:
        """`{"type": "games", "entries": [ids]}`: a page whose lists of players' games fell behind
        the standings (a reconnect, a lost push) asks for those entrants' whole lists. The rest
        (`ping`, anything unknown) as every push socket."""
        if not (isinstance(message, dict) and message.get("type") == "games"):
            await super().receive_message(message)
            return
        entries = message.get("entries")
        if (
            not isinstance(entries, list)
            or not 0 < len(entries) <= GAMES_ASKED_AT_MOST
            or not all(type(e) is int for e in entries)
        ):
            await self.send_json(
                {
                    "type": "error",
                    "code": "bad_message",
                    "detail": f"entries: a list of 1 to {GAMES_ASKED_AT_MOST} entry ids",
                }
            )
            return
        await self.send(text_data=await db(tournament_games_text)(self.tournament_id, entries))

    async def tournament_standings(self, message: dict[str, Any]) -> None:
        await self.send(text_data=message["text"])

    async def tournament_me(self, message: dict[str, Any]) -> None:
        await self.send(text_data=message["text"])

    async def user_signed_out(self, message: dict[str, Any]) -> None:
        if signed_out_by(self.scope, message):  # a password change keeps what made it
            await self.close(code=CLOSE_REFUSED)
