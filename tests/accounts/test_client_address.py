"""Whose address a request has (plumbing/client_address.py): the socket's peer, unless that
peer is a trusted proxy; only then X-Forwarded-For, read from the right."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.test import RequestFactory
from rest_framework.test import APIClient

from accounts.throttles import LOCK_AFTER_FAILURES
from plumbing.client_address import (
    client_address,
    parse_trusted_proxies,
    scope_client_address,
    with_client_address,
)


def _seen(proxies: list[str], peer: str, forwarded_for: str | None, kind: str = "http") -> str:
    """The client address the application behind the ASGI edge is given."""
    seen: list[str] = []

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        seen.append(scope_client_address(scope))

    headers = [(b"x-forwarded-for", forwarded_for.encode())] if forwarded_for is not None else []
    scope = {"type": kind, "client": (peer, 51000), "headers": headers, "scheme": "http"}
    asyncio.run(with_client_address(app, proxies)(scope, None, None))
    return seen[0]


def test_without_trusted_proxies_the_header_is_never_read() -> None:
    assert _seen([], "127.0.0.1", "203.0.113.5") == "127.0.0.1"
    assert _seen([], "192.0.2.1", "203.0.113.5", kind="websocket") == "192.0.2.1"


def test_a_peer_that_is_not_a_trusted_proxy_is_the_client() -> None:
    proxies = ["10.0.0.0/8", "192.0.2.10"]
    assert _seen(proxies, "127.0.0.1", "203.0.113.5") == "127.0.0.1"
    assert _seen(proxies, "198.51.100.3", "203.0.113.5", kind="websocket") == "198.51.100.3"


def test_behind_trusted_proxies_the_first_untrusted_hop_from_the_right_is_the_client() -> None:
    proxies = ["10.0.0.0/8", "192.0.2.10"]
    # The client wrote "1.2.3.4" itself; the outer proxy appended what it saw, the inner one its own.
    assert _seen(proxies, "192.0.2.10", "1.2.3.4, 203.0.113.5, 10.0.0.7") == "203.0.113.5"
    assert _seen(proxies, "10.1.2.3", "203.0.113.5", kind="websocket") == "203.0.113.5"
    assert _seen(proxies, "10.1.2.3", None) == "10.1.2.3"  # a proxy's own request


def test_trusted_proxies_must_be_addresses_or_networks() -> None:
    assert parse_trusted_proxies(" 10.0.0.0/8, 192.0.2.10 ,,::1") == ["10.0.0.0/8", "192.0.2.10", "::1"]
    assert parse_trusted_proxies("") == []
    for bad in ("*", "lb.internal", "10.0.0.0/33"):
        with pytest.raises(ImproperlyConfigured):
            parse_trusted_proxies(bad)


def test_django_reads_the_peer_the_edge_decided_never_the_header() -> None:
    request = RequestFactory().get("/", REMOTE_ADDR="192.0.2.1", HTTP_X_FORWARDED_FOR="203.0.113.5")
    assert client_address(request) == "192.0.2.1"


@pytest.mark.django_db
def test_a_written_forwarded_for_does_not_escape_the_lockout(make_user) -> None:
    make_user("fay")
    api = APIClient(REMOTE_ADDR="192.0.2.1")
    codes = [
        api.post(
            "/api/accounts/token/",
            {"username": "fay", "password": "wrong-password"},
            format="json",
            HTTP_X_FORWARDED_FOR=f"203.0.113.{i}",
        ).status_code
        for i in range(LOCK_AFTER_FAILURES + 1)
    ]
    assert codes == [401] * LOCK_AFTER_FAILURES + [429]
