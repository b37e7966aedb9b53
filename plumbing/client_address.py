"""Whose request this is: the one answer for the sign-in and registration throttles, the sign-in
lockout and anything else that counts per client (a websocket's scope as much as a request).

The client is the socket's peer, unless that peer is one of TRUSTED_PROXIES (settings: the
addresses or networks of the load balancers in front of the servers). Only then is
X-Forwarded-For read, from the right, skipping trusted proxies: the first hop that is not one is
the client. Whatever a client writes in the header itself stays left of what the proxies append,
so it is never reached; and a client that connects directly is never asked.

The decision is made once, at the edge of the ASGI application (`with_client_address`, Uvicorn's
ProxyHeadersMiddleware with TRUSTED_PROXIES), for HTTP and websockets alike: it sets the scope's
`client`, which Django gives as REMOTE_ADDR. Nothing behind the edge reads X-Forwarded-For. So the
server must hand the application the socket's peer as it is: `manage.py serve` starts Uvicorn
without its own proxy-header handling (which trusts 127.0.0.1 by default); run under another
server, turn that server's off (`uvicorn --no-proxy-headers`; Daphne's is off unless asked).
"""

from __future__ import annotations

import ipaddress
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from django.core.exceptions import ImproperlyConfigured

if TYPE_CHECKING:  # the settings import this module: nothing here may need them at import
    from django.http import HttpRequest


def parse_trusted_proxies(value: str) -> list[str]:
    """TRUSTED_PROXIES as given ("10.0.0.5, 10.1.0.0/16"), each checked: Uvicorn would take a
    misspelt entry for a name that never matches, or "*" for "believe every peer"."""
    proxies = [item.strip() for item in value.split(",") if item.strip()]
    for item in proxies:
        try:
            ipaddress.ip_network(item, strict=False)
        except ValueError as e:
            raise ImproperlyConfigured(
                f"TRUSTED_PROXIES: {item!r} is not an IP address or network (e.g. 10.0.0.5 or 10.1.0.0/16)"
            ) from e
    return proxies


def with_client_address(app: Any, trusted_proxies: list[str] | None = None) -> Any:
    """`app` behind the edge that decides the client's address (`trusted_proxies`, by default
    settings.TRUSTED_PROXIES). With no trusted proxy the peer is the client: nothing to do."""
    from django.conf import settings
    from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

    proxies = settings.TRUSTED_PROXIES if trusted_proxies is None else trusted_proxies
    if not proxies:
        return app
    return ProxyHeadersMiddleware(app, trusted_hosts=list(proxies))


def client_address(request: HttpRequest | Any) -> str:
    """The client's address for a Django (or DRF) request."""
    return str(request.META.get("REMOTE_ADDR") or "")


def scope_client_address(scope: Mapping[str, Any]) -> str:
    """The client's address for an ASGI scope (a websocket consumer's `self.scope`)."""
    client = scope.get("client")
    return str(client[0]) if client else ""
