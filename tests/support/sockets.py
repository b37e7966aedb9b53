"""A game's live socket as a browser or a program opens it, through the site's whole ASGI
application (its sign-in by session cookie or token, its origin check)."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from channels.testing import WebsocketCommunicator
from django.test import Client

from harehra_site.asgi import application

ORIGIN = (b"origin", b"http://localhost")


def game_socket(
    game_id: int, *, session: str | None = None, token: str | None = None, invite: str | None = None
) -> WebsocketCommunicator:
    """The game's socket, opened with a browser's session cookie, a program's token (`?token=`)
    or an invite (`?invite=`), each only when given."""
    headers = [ORIGIN]
    if session:
        headers.append((b"cookie", f"sessionid={session}".encode()))
    query = urlencode({k: v for k, v in (("token", token), ("invite", invite)) if v})
    path = f"/ws/games/{game_id}/" + (f"?{query}" if query else "")
    return WebsocketCommunicator(application, path, headers=headers)


def session_of(user: Any) -> str:
    """A new signed-in session of `user`: its cookie's value."""
    client = Client()
    client.force_login(user)
    return str(client.cookies["sessionid"].value)
