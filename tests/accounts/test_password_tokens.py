"""Changing a password ends every API token but the one that made the change."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db
OLD, NEW = "correct-horse-battery", "a-new-hare-77"


def _me(token: str) -> int:
    return APIClient(HTTP_AUTHORIZATION=f"Token {token}").get("/api/accounts/me/").status_code


def _refused(token: str) -> bool:
    r = APIClient(HTTP_AUTHORIZATION=f"Token {token}").get("/api/accounts/me/")
    return r.status_code == 403 and r.json()["detail"] == "Invalid token."


def _token(username: str, password: str) -> str:
    r = APIClient().post("/api/accounts/token/", {"username": username, "password": password}, format="json")
    return str(r.json()["token"])


def test_a_change_on_the_page_ends_the_accounts_token(make_user) -> None:
    make_user("ann", password=OLD)
    stolen = _token("ann", OLD)
    assert _me(stolen) == 200
    page = Client()
    page.post("/accounts/login/", {"username": "ann", "password": OLD})
    form = {"old_password": OLD, "new_password1": NEW, "new_password2": NEW}
    assert page.post("/accounts/password/", form).status_code == 302
    assert _refused(stolen)
    fresh = _token("ann", NEW)
    assert fresh != stolen and _me(fresh) == 200


def test_a_change_through_the_api_with_the_session_ends_the_token(make_user) -> None:
    make_user("ann", password=OLD)
    stolen = _token("ann", OLD)
    browser = APIClient()
    browser.login(username="ann", password=OLD)
    r = browser.post("/api/accounts/password/", {"old_password": OLD, "new_password": NEW}, format="json")
    assert r.status_code == 204
    assert _refused(stolen)


def test_the_token_that_makes_the_change_keeps_working(make_user) -> None:
    make_user("ann", password=OLD)
    token = _token("ann", OLD)
    api = APIClient(HTTP_AUTHORIZATION=f"Token {token}")
    r = api.post("/api/accounts/password/", {"old_password": OLD, "new_password": NEW}, format="json")
    assert r.status_code == 204
    assert _me(token) == 200
    wrong = api.post(
        "/api/accounts/password/", {"old_password": OLD, "new_password": "x-" + NEW}, format="json"
    )
    assert wrong.status_code == 401 and _me(token) == 200  # a refused change ends nothing
