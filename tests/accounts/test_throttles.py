"""Sign-in, token and registration throttles (429 with Retry-After), and the account lockout."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from accounts.throttles import LOCK_AFTER_FAILURES

pytestmark = pytest.mark.django_db
RIGHT = "correct-horse-battery"


def _token(username: str, password: str, address: str = "10.0.0.1"):
    body = {"username": username, "password": password}
    return APIClient().post("/api/accounts/token/", body, format="json", REMOTE_ADDR=address)


def test_wrong_passwords_lock_that_address_out_of_that_account_only(make_user):
    make_user("fay")
    make_user("gus")
    for _ in range(LOCK_AFTER_FAILURES):
        assert _token("fay", "wrong-password").status_code == 401
    r = _token("fay", RIGHT)  # the right password no longer helps from here
    assert r.status_code == 429 and r.json()["code"] == "locked"
    assert 0 < int(r["Retry-After"]) <= 15 * 60
    assert _token("FAY", RIGHT).status_code == 429  # usernames are case-insensitive
    assert _token("fay", RIGHT, address="10.0.0.2").status_code == 200  # fay herself, elsewhere
    assert _token("gus", RIGHT).status_code == 200  # another account from the same address


def test_a_lock_ends_by_itself(make_user, monkeypatch):
    import time

    from accounts import throttles

    make_user("fay")
    for _ in range(LOCK_AFTER_FAILURES):
        _token("fay", "wrong-password")
    assert _token("fay", RIGHT).status_code == 429
    later = time.time() + throttles.LOCK_SECONDS + 1
    monkeypatch.setattr(throttles.time, "time", lambda: later)
    assert _token("fay", RIGHT).status_code == 200


def test_sign_in_tries_and_registrations_from_one_address_are_throttled(monkeypatch):
    from rest_framework.throttling import SimpleRateThrottle

    monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES", {"sign_in": "8/min", "register": "3/hour"})
    codes = [_token(f"nobody{i}", "wrong-password").status_code for i in range(10)]
    assert codes[:8] == [401] * 8 and codes[8:] == [429, 429]
    r = _token("nobody", "x")
    assert int(r["Retry-After"]) > 0 and r.json()["code"] == "throttled"
    page = Client(REMOTE_ADDR="10.0.0.1").post("/accounts/login/", {"username": "a", "password": "b"})
    assert page.status_code == 429 and int(page["Retry-After"]) > 0

    api = APIClient(REMOTE_ADDR="10.9.9.9")
    made = [
        api.post("/api/accounts/register/", {"username": f"new{i}", "password": RIGHT}, format="json")
        for i in range(4)
    ]
    assert [r.status_code for r in made] == [201, 201, 201, 429] and "Retry-After" in made[3]
    form = {"username": "viaform", "password1": RIGHT, "password2": RIGHT}
    assert Client(REMOTE_ADDR="10.9.9.9").post("/accounts/register/", form).status_code == 429
    assert Client(REMOTE_ADDR="10.9.9.8").post("/accounts/register/", form).status_code == 302
