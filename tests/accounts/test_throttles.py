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

    monkeypatch.setattr(
        SimpleRateThrottle,
        "THROTTLE_RATES",
        {**SimpleRateThrottle.THROTTLE_RATES, "sign_in": "8/min", "register": "3/hour"},
    )
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


def _page_sign_in(client: Client, username: str, password: str, address: str):
    return client.post("/accounts/login/", {"username": username, "password": password}, REMOTE_ADDR=address)


def test_wrong_passwords_from_many_addresses_lock_the_account_for_unknown_browsers(make_user):
    from accounts.throttles import ACCOUNT_LOCK_AFTER_FAILURES

    make_user("fay")
    make_user("gus")
    fays_laptop = Client()
    assert _page_sign_in(fays_laptop, "fay", RIGHT, "192.0.2.1").status_code == 302  # a browser she uses
    # Below the lock per address from each of them, but many addresses together.
    per_address = LOCK_AFTER_FAILURES - 1
    for i in range(ACCOUNT_LOCK_AFTER_FAILURES):
        assert _token("fay", "wrong-password", address=f"10.1.{i // per_address}.1").status_code == 401
    r = _token("fay", RIGHT, address="10.2.0.1")  # a new address: the account is locked all the same
    assert r.status_code == 429 and r.json()["code"] == "locked"
    assert 0 < int(r["Retry-After"]) <= 15 * 60
    assert _page_sign_in(Client(), "fay", RIGHT, "10.2.0.2").status_code == 429
    assert _token("gus", RIGHT, address="10.2.0.1").status_code == 200  # other accounts are not locked
    # The browser fay signed in with before may still sign in, from anywhere.
    assert _page_sign_in(fays_laptop, "fay", RIGHT, "10.3.0.1").status_code == 302


def test_a_known_browser_has_a_lock_of_its_own(make_user):
    from accounts.throttles import ACCOUNT_LOCK_AFTER_FAILURES

    make_user("fay")
    browser = Client()
    assert _page_sign_in(browser, "fay", RIGHT, "192.0.2.1").status_code == 302
    browser.post("/accounts/logout/")
    for i in range(ACCOUNT_LOCK_AFTER_FAILURES):
        _token("fay", "wrong-password", address=f"10.1.{i}.1")
    # Its cookie passes the account's lock, but not forever: wrong passwords from it lock it too,
    # whatever address it comes from.
    for i in range(LOCK_AFTER_FAILURES):
        assert _page_sign_in(browser, "fay", "wrong-password", f"10.4.{i}.1").status_code == 200
    assert _page_sign_in(browser, "fay", RIGHT, "10.5.0.1").status_code == 429


def test_a_device_cookie_for_another_account_or_forged_is_no_key(make_user):
    from accounts.devices import COOKIE
    from accounts.throttles import ACCOUNT_LOCK_AFTER_FAILURES

    make_user("fay")
    make_user("gus")
    gus_browser = Client()
    assert _page_sign_in(gus_browser, "gus", RIGHT, "192.0.2.1").status_code == 302
    for i in range(ACCOUNT_LOCK_AFTER_FAILURES):
        _token("fay", "wrong-password", address=f"10.1.{i}.1")
    assert _page_sign_in(gus_browser, "fay", RIGHT, "10.6.0.1").status_code == 429
    forged = Client()
    forged.cookies[COOKIE] = gus_browser.cookies[COOKIE].value.replace("gus", "fay")
    assert _page_sign_in(forged, "fay", RIGHT, "10.6.0.2").status_code == 429


def test_an_account_lock_ends_by_itself(make_user, monkeypatch):
    import time

    from accounts import throttles

    make_user("fay")
    for i in range(throttles.ACCOUNT_LOCK_AFTER_FAILURES):
        _token("fay", "wrong-password", address=f"10.1.{i}.1")
    assert _token("fay", RIGHT, address="10.2.0.1").status_code == 429
    later = time.time() + throttles.LOCK_SECONDS + 1
    monkeypatch.setattr(throttles.time, "time", lambda: later)
    assert _token("fay", RIGHT, address="10.2.0.1").status_code == 200


ADMIN_LOGIN = "/admin/login/?next=/admin/"


def _admin(client: Client, username: str, password: str, address: str = "10.0.0.1"):
    return client.post(ADMIN_LOGIN, {"username": username, "password": password}, REMOTE_ADDR=address)


def test_the_admin_sign_in_shares_the_lockout(django_user_model):
    django_user_model.objects.create_superuser("boss", password=RIGHT)
    c = Client()
    for _ in range(LOCK_AFTER_FAILURES):
        r = _admin(c, "boss", "wrong-password")
        assert r.status_code == 200 and "Please enter the correct username and password" in r.content.decode()
    r = _admin(c, "boss", RIGHT)  # the right password no longer helps from here
    assert r.status_code == 429 and 0 < int(r["Retry-After"]) <= 15 * 60
    assert "Too many wrong passwords for this account" in r.content.decode()
    assert 'id="login-form"' in r.content.decode()  # the admin's own page, to try again later
    assert _token("boss", RIGHT, address="10.0.0.1").json()["code"] == "locked"
    # ... and wrong passwords elsewhere lock the admin's door too.
    for _ in range(LOCK_AFTER_FAILURES):
        _token("boss", "wrong-password", address="10.0.0.2")
    assert _admin(Client(), "boss", RIGHT, address="10.0.0.2").status_code == 429
    r = _admin(Client(), "boss", RIGHT, address="10.0.0.3")
    assert r.status_code == 302 and r["Location"] == "/admin/"


def test_the_admin_sign_in_is_throttled_per_address(django_user_model, monkeypatch):
    from rest_framework.throttling import SimpleRateThrottle

    monkeypatch.setattr(
        SimpleRateThrottle,
        "THROTTLE_RATES",
        {**SimpleRateThrottle.THROTTLE_RATES, "sign_in": "3/min", "register": "3/hour"},
    )
    django_user_model.objects.create_superuser("boss", password=RIGHT)
    codes = [_admin(Client(), f"nobody{i}", "wrong-password").status_code for i in range(4)]
    assert codes == [200, 200, 200, 429]
    r = _admin(Client(), "boss", RIGHT)
    assert r.status_code == 429 and int(r["Retry-After"]) > 0
    assert "Too many attempts from here" in r.content.decode()
    assert _token("boss", RIGHT).status_code == 429  # one count for every way to sign in


def test_the_lockout_says_its_wait_in_minutes(make_user):
    from accounts.throttles import wait_words

    make_user("hal")
    for _ in range(LOCK_AFTER_FAILURES):
        _page_sign_in(Client(), "hal", "wrong-password", "10.7.0.1")
    page = _page_sign_in(Client(), "hal", RIGHT, "10.7.0.1")
    assert page.status_code == 429 and int(page["Retry-After"]) > 14 * 60
    assert "Try again in 15 minutes." in page.content.decode()
    assert "seconds" not in page.content.decode()
    czech = Client(HTTP_ACCEPT_LANGUAGE="cs").post(
        "/accounts/login/", {"username": "hal", "password": RIGHT}, REMOTE_ADDR="10.7.0.1"
    )
    assert "Zkuste to znovu za 15 minut." in czech.content.decode()
    assert _token("hal", RIGHT, address="10.7.0.1").json()["detail"].endswith("try again in 15 minutes")
    said = [wait_words(s) for s in (1, 45, 60, 61, 899, 900)]
    assert said == ["1 second", "45 seconds", "1 minute", "2 minutes", "15 minutes", "15 minutes"]
