"""The address a request or a socket comes from, for whatever counts or limits per address (the
spectator count of anonymous watchers, the sign-in throttles).

Only the connection's own peer is believed: X-Forwarded-For and its kind are whatever a client
chooses to send, so they are ignored here.
"""

from __future__ import annotations

from typing import Any, Protocol


class _Request(Protocol):  # Django's HttpRequest, or DRF's Request around one
    META: dict[str, Any]


def client_address(request: _Request) -> str | None:
    """The HTTP request's peer address (REMOTE_ADDR), or None when the server gives none."""
    return request.META.get("REMOTE_ADDR") or None


def scope_client_address(scope: dict[str, Any]) -> str | None:
    """The peer address of an ASGI connection (a websocket's scope), or None (e.g. a Unix socket)."""
    client = scope.get("client")
    return str(client[0]) if client else None
