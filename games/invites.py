"""A private table's invite as requests carry it: a link gives it once (`?invite=CODE`), and a
browser's session remembers it, so the table's pages, its games, the watch and replay pages and
the sockets all accept the same invite. Whether an invite lets someone in is decided by
games.access alone; this module only finds the code a request came with."""

from __future__ import annotations

import re
import secrets
from typing import Any
from urllib.parse import parse_qs

SESSION_KEY = "table_invites"
REMEMBERED = 50  # tables a session remembers the invites of, the latest kept


_CODE = re.compile(r"[A-Za-z0-9_-]{1,64}")  # what games.models.new_token makes, with room


def clean_invite(code: Any) -> str | None:
    """An invite code as given, or None when it cannot be one (any other text is no invite, not
    an error: it may hold anything a link or a program put there)."""
    return code if isinstance(code, str) and _CODE.fullmatch(code) else None


def _remembered(session: Any, table_id: int) -> str | None:
    invites = session.get(SESSION_KEY) if session is not None else None
    code = invites.get(str(table_id)) if isinstance(invites, dict) else None
    return clean_invite(code)


def invite_of(given: str | None, session: Any, table_id: int) -> str | None:
    """The invite a request carries for `table_id`: the one it names, else its session's."""
    return clean_invite(given) or _remembered(session, table_id)


def request_invite(request: Any, table_id: int) -> str | None:
    """For a page or API request (Django's or DRF's): `?invite=`, else the invite this browser's
    session remembers for the table."""
    return invite_of(request.GET.get("invite") or None, getattr(request, "session", None), table_id)


def scope_invite(scope: dict[str, Any], table_id: int) -> str | None:
    """For a socket: `?invite=` in its address, else its session's (the session cookie)."""
    given = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("invite", [None])[0]
    return invite_of(given, scope.get("session"), table_id)


def invite_remember(request: Any, table: Any) -> None:
    """After a page accepted a request, keep the table's invite in its session if the request named
    the right one: the invitee's browser then opens the table's game and replays with it too."""
    given = clean_invite(request.GET.get("invite"))
    session = getattr(request, "session", None)
    if session is None or not given or not secrets.compare_digest(given, table.invite_code):
        return
    if _remembered(session, table.pk) == given:
        return
    invites = session.get(SESSION_KEY)
    invites = {k: v for k, v in invites.items() if k != str(table.pk)} if isinstance(invites, dict) else {}
    invites[str(table.pk)] = given
    session[SESSION_KEY] = dict(list(invites.items())[-REMEMBERED:])
