"""HTTPS=1 on real servers (`manage.py serve`): a request counts as HTTPS only when a proxy of
TRUSTED_PROXIES says so in X-Forwarded-Proto; a client that writes the header itself is still on
plain HTTP, and is redirected (harehra_site/settings.py, "HTTPS")."""

from __future__ import annotations

import secrets
import urllib.error
import urllib.request
from typing import Any

import pytest

from tests.support.stack import stack_for_test

pytestmark = [pytest.mark.server, pytest.mark.django_db(transaction=True)]
HTTPS = {"DEBUG": "0", "HTTPS": "1", "SECRET_KEY": secrets.token_urlsafe(50)}


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: object, **kwargs: object) -> None:
        return None


def _get(url: str, headers: dict[str, str]) -> tuple[int, str]:
    opener = urllib.request.build_opener(_NoRedirect)
    try:
        with opener.open(urllib.request.Request(url, headers=headers), timeout=10) as r:
            return r.status, r.headers.get("Location", "")
    except urllib.error.HTTPError as e:
        return e.code, e.headers.get("Location", "")


def test_x_forwarded_proto_is_believed_from_a_trusted_proxy_only() -> None:
    # The test's requests come from 127.0.0.1: first a server whose proxy is elsewhere, so they
    # are a client's own words; then one whose proxy is 127.0.0.1.
    options: dict[str, Any] = {"redis_db": 5, "servers": 1, "worker": False, **HTTPS}
    with stack_for_test("test_https_servers_direct", TRUSTED_PROXIES="10.9.9.9", **options) as direct:
        url = direct.url() + "/accounts/login/"
        assert _get(url, {"X-Forwarded-Proto": "https"}) == (301, f"https://{url.split('://')[1]}")
        assert _get(url, {})[0] == 301
    with stack_for_test("test_https_servers_proxied", TRUSTED_PROXIES="127.0.0.1", **options) as proxied:
        url = proxied.url() + "/accounts/login/"
        assert _get(url, {"X-Forwarded-Proto": "https"})[0] == 200
        assert _get(url, {"X-Forwarded-Proto": "http"})[0] == 301
