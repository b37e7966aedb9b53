"""What a client on the network sees of the sign-in and registration throttles, the lockout and the
admin's sign-in, against a real server (`manage.py serve`): an `X-Forwarded-For` it writes itself
changes nothing unless its connection comes from a proxy in TRUSTED_PROXIES.

The requests come from 127.0.0.1, the address Uvicorn trusts for that header by default."""

from __future__ import annotations

import http.cookiejar
import json
import re
import urllib.error
import urllib.parse
import urllib.request
from typing import Any

import pytest

from accounts.throttles import LOCK_AFTER_FAILURES
from tests.support.stack import stack_for_test

pytestmark = [
    pytest.mark.server,
    pytest.mark.django_db(transaction=True),
    pytest.mark.stack(redis_db=4, servers=1, worker=False, THROTTLE_REGISTER="3/hour"),
]
RIGHT = "correct-horse-battery"


def _post(
    url: str, body: dict[str, Any], headers: dict[str, str] | None = None
) -> tuple[int, dict[str, Any], Any]:
    request = urllib.request.Request(
        url,
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", **(headers or {})},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as r:
            return r.status, json.load(r), r.headers
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"{}"), e.headers


def _token(base: str, username: str, password: str, forwarded_for: str) -> tuple[int, dict[str, Any], Any]:
    body = {"username": username, "password": password}
    return _post(f"{base}/api/accounts/token/", body, {"X-Forwarded-For": forwarded_for})


def test_a_client_that_writes_x_forwarded_for_is_still_one_client(stack, make_user) -> None:
    base = stack.url()
    make_user("fay")
    codes = [_token(base, "fay", "wrong-password", f"203.0.113.{i}")[0] for i in range(LOCK_AFTER_FAILURES)]
    assert codes == [401] * LOCK_AFTER_FAILURES
    status, body, headers = _token(base, "fay", RIGHT, "198.51.100.99")
    assert status == 429 and body["code"] == "locked" and int(headers["Retry-After"]) > 0

    made = [
        _post(
            f"{base}/api/accounts/register/",
            {"username": f"spoof{i}", "password": RIGHT},
            {"X-Forwarded-For": f"203.0.113.{i}"},
        )[0]
        for i in range(4)
    ]
    assert made == [201, 201, 201, 429]  # THROTTLE_REGISTER=3/hour for this one address


def _admin_try(
    opener: Any, base: str, username: str, password: str, forwarded_for: str
) -> tuple[int, str, Any]:
    """A browser at the admin's sign-in page: its form (and CSRF token), then the POST."""
    with opener.open(f"{base}/admin/login/", timeout=10) as r:
        csrf = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', r.read().decode())[1]
    form = urllib.parse.urlencode(
        {"csrfmiddlewaretoken": csrf, "username": username, "password": password, "next": "/admin/"}
    ).encode()
    request = urllib.request.Request(
        f"{base}/admin/login/",
        data=form,
        headers={"X-Forwarded-For": forwarded_for, "Referer": f"{base}/admin/login/"},
        method="POST",
    )
    try:
        with opener.open(request, timeout=10) as r:
            return r.status, r.read().decode(), r.headers
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode(), e.headers


def test_the_admin_sign_in_counts_towards_the_same_lockout(stack, make_user) -> None:
    from django.contrib.auth import get_user_model

    base = stack.url()
    get_user_model().objects.create_superuser("boss", password=RIGHT)
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
    for i in range(LOCK_AFTER_FAILURES):
        status, page, _ = _admin_try(opener, base, "boss", "wrong-password", f"203.0.113.{i}")
        assert status == 200 and "errornote" in page
    status, page, headers = _admin_try(opener, base, "boss", RIGHT, "198.51.100.1")
    assert status == 429 and int(headers["Retry-After"]) > 0
    assert "Too many wrong passwords" in page
    assert _token(base, "boss", RIGHT, "198.51.100.2")[1]["code"] == "locked"  # and elsewhere too


def test_behind_a_trusted_proxy_the_client_is_the_address_the_proxy_saw(make_user) -> None:
    """Here 127.0.0.1 is the load balancer: it appends the address it saw to whatever the client
    sent; the entries left of it are the client's own words."""
    make_user("fay")
    with stack_for_test(
        "test_proxy_servers_trusted", redis_db=3, servers=1, worker=False, TRUSTED_PROXIES="127.0.0.1"
    ) as trusted:
        base = trusted.url()
        codes = [
            _token(base, "fay", "wrong-password", f"203.0.113.{i}, 198.51.100.7")[0]
            for i in range(LOCK_AFTER_FAILURES)
        ]
        assert codes == [401] * LOCK_AFTER_FAILURES
        assert _token(base, "fay", RIGHT, "203.0.113.200, 198.51.100.7")[1]["code"] == "locked"
        status, body, _ = _token(base, "fay", RIGHT, "198.51.100.8")  # fay herself, elsewhere
        assert status == 200 and body["token"]
