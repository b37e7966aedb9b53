"""Websocket sign-in: an API token (query `?token=` or an Authorization header), else the session."""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs

from channels.auth import AuthMiddleware, get_user
from channels.security.websocket import OriginValidator
from channels.sessions import CookieMiddleware, SessionMiddleware
from django.contrib.auth.models import AnonymousUser

from plumbing.dbthreads import db

# On the thread pool: Channels' default is one thread shared by the whole process, on which every
# socket opening at once (a restarted server's pages coming back) would queue.
_on_pool = db


@_on_pool
def _session_user(scope: dict[str, Any]) -> Any:
    """The session's user: the session and its user in one statement in the usual case, else
    Channels' own get_user (accounts/signin.py)."""
    from accounts.signin import session_user

    user = session_user(scope["session"])
    return user if user is not None else get_user.func(scope)


@_on_pool
def _user_for_token(key: str) -> Any:
    from accounts.signin import token_user

    return token_user(key) or AnonymousUser()


def _token_from(scope: dict[str, Any]) -> str | None:
    for name, value in scope.get("headers", []):
        if name == b"authorization":
            parts = value.decode("latin-1").split()
            if len(parts) == 2 and parts[0].lower() == "token":
                return parts[1]
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    return query.get("token", [None])[0]


class TokenAuthMiddleware:
    def __init__(self, inner: Any) -> None:
        self.inner = inner

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        key = _token_from(scope)
        if key:
            from accounts.services import credential_digest

            scope = {
                **scope,
                "user": await _user_for_token(key),
                "auth": "token",
                "token_digest": credential_digest(key),  # which token: `signed_out_by`
            }
        return await self.inner(scope, receive, send)


def signed_out_by(scope: dict[str, Any], message: dict[str, Any]) -> bool:
    """Whether a "user.signed_out" message to the user's sockets ends this one. A sign-out ends
    every one. A password change (accounts/publish.py, publish_user_credentials_ended) names the
    token and the session it kept: it ends a socket signed in by any other."""
    if "keep_token" not in message:
        return True
    if scope.get("auth") == "token":
        return message["keep_token"] is None or scope.get("token_digest") != message["keep_token"]
    from accounts.services import credential_digest

    session = scope.get("session")
    key = getattr(session, "session_key", None) if session is not None else None
    return message["keep_session"] is None or key is None or credential_digest(key) != message["keep_session"]


class SessionAuthMiddleware(AuthMiddleware):
    """Channels' session sign-in, reading the session's user on the thread pool; a socket that
    brings a token is signed in by it alone (TokenAuthMiddleware), so its session is not read."""

    async def resolve_scope(self, scope: dict[str, Any]) -> None:
        if _token_from(scope):
            scope["user"]._wrapped = AnonymousUser()
            return
        scope["user"]._wrapped = await _session_user(scope)


def auth_stack(inner: Any) -> Any:
    """The session (browsers), or a token (other clients), which wins when both come."""
    return CookieMiddleware(SessionMiddleware(SessionAuthMiddleware(TokenAuthMiddleware(inner))))


class BrowserOriginValidator(OriginValidator):
    """Browsers always send Origin, so a foreign one is refused; programs that send none may connect
    (they authenticate with a token, which a cross-site page cannot attach)."""

    def valid_origin(self, parsed_origin: Any) -> bool:
        return parsed_origin is None or self.validate_origin(parsed_origin)


def origin_checked(inner: Any) -> Any:
    from django.conf import settings

    hosts = ["*"] if settings.DEBUG and not settings.ALLOWED_HOSTS else settings.ALLOWED_HOSTS
    return BrowserOriginValidator(inner, hosts)
