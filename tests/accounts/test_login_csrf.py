"""Login CSRF: a foreign page cannot sign a visitor's browser in to the attacker's account."""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db
CREDENTIALS = {"username": "fay", "password": "correct-horse-battery"}


def test_a_session_sign_in_without_the_csrf_token_is_refused(make_user):
    make_user("fay")
    browser = Client(enforce_csrf_checks=True)
    r = browser.post("/api/accounts/login/", CREDENTIALS, HTTP_ORIGIN="https://evil.example")
    assert r.status_code == 403 and r.json()["code"] == "csrf_failed"
    assert "sessionid" not in r.cookies
    r = browser.post("/api/accounts/login/", CREDENTIALS, content_type="application/json")
    assert r.status_code == 403 and r.json()["code"] == "csrf_failed"
    assert "sessionid" not in r.cookies


def test_a_session_sign_in_with_the_csrf_token_works_and_tokens_need_none(make_user):
    make_user("fay")
    browser = Client(enforce_csrf_checks=True)
    browser.get("/accounts/login/")  # the page sets the csrftoken cookie
    token = browser.cookies["csrftoken"].value
    r = browser.post(
        "/api/accounts/login/", CREDENTIALS, content_type="application/json", HTTP_X_CSRFTOKEN=token
    )
    assert r.status_code == 200 and "sessionid" in r.cookies
    program = Client(enforce_csrf_checks=True)
    r = program.post("/api/accounts/token/", CREDENTIALS, content_type="application/json")
    assert r.status_code == 200 and r.json()["token"]
