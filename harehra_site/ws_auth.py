"""Websocket sign-in: an API token (query `?token=` or an Authorization header), else the session."""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs

from channels.auth import AuthMiddlewareStack
from channels.db import database_sync_to_async
from channels.security.websocket import OriginValidator
from django.contrib.auth.models import AnonymousUser


@database_sync_to_async
def _user_for_token(key: str) -> Any:
    from rest_framework.authtoken.models import Token

    token = Token.objects.select_related("user").filter(key=key).first()
    return token.user if token else AnonymousUser()


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
            scope = {**scope, "user": await _user_for_token(key), "auth": "token"}
        return await self.inner(scope, receive, send)


def auth_stack(inner: Any) -> Any:
    """Session first (browsers), then a token overrides it (other clients)."""
    return AuthMiddlewareStack(TokenAuthMiddleware(inner))


class BrowserOriginValidator(OriginValidator):
    """Browsers always send Origin, so a foreign one is refused; programs that send none may connect
    (they authenticate with a token, which a cross-site page cannot attach)."""

    def valid_origin(self, parsed_origin: Any) -> bool:
        return parsed_origin is None or self.validate_origin(parsed_origin)


def origin_checked(inner: Any) -> Any:
    from django.conf import settings

    hosts = ["*"] if settings.DEBUG and not settings.ALLOWED_HOSTS else settings.ALLOWED_HOSTS
    return BrowserOriginValidator(inner, hosts)
