from __future__ import annotations

import pytest
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db


def test_register_then_token_then_me():
    c = APIClient()
    r = c.post(
        "/api/accounts/register/", {"username": "ann", "password": "correct-horse-battery"}, format="json"
    )
    assert r.status_code == 201 and r.json()["token"]
    r = c.post(
        "/api/accounts/token/", {"username": "ann", "password": "correct-horse-battery"}, format="json"
    )
    assert r.status_code == 200
    c.credentials(HTTP_AUTHORIZATION=f"Token {r.json()['token']}")
    me = c.get("/api/accounts/me/").json()
    assert me["username"] == "ann" and me["stats"] == {"played": 0, "won": 0, "drawn": 0}


def test_register_errors_have_codes():
    c = APIClient()
    ok = {"username": "bob", "password": "correct-horse-battery"}
    assert c.post("/api/accounts/register/", ok, format="json").status_code == 201
    r = c.post("/api/accounts/register/", {**ok, "username": "BOB"}, format="json")
    assert r.status_code == 409 and r.json()["code"] == "username_taken"
    r = c.post("/api/accounts/register/", {"username": "carl", "password": "123"}, format="json")
    assert r.status_code == 400 and r.json()["code"] == "weak_password"
    r = c.post("/api/accounts/register/", {"username": "carl", "password": "password"}, format="json")
    assert r.json()["code"] == "weak_password"
    r = c.post("/api/accounts/register/", {"username": "no spaces!", "password": "x" * 12}, format="json")
    assert r.json()["code"] == "bad_username"
    r = c.post("/api/accounts/register/", {**ok, "username": "dan", "email": "nope"}, format="json")
    assert r.json()["code"] == "bad_email"
    r = c.post("/api/accounts/register/", {"username": "erin"}, format="json")
    assert r.status_code == 400 and r.json()["code"] == "invalid"
    r = c.post("/api/accounts/token/", {"username": "bob", "password": "wrong-wrong-wrong"}, format="json")
    assert r.status_code == 401 and r.json()["code"] == "bad_credentials"


def test_session_login_rotates_the_key_and_logout_ends_it():
    c = APIClient(enforce_csrf_checks=False)
    c.post("/api/accounts/register/", {"username": "fay", "password": "correct-horse-battery"}, format="json")
    c.get("/api/accounts/me/")
    session = c.session
    session["planted"] = True
    session.save()
    planted_key = session.session_key
    r = c.post(
        "/api/accounts/login/", {"username": "fay", "password": "correct-horse-battery"}, format="json"
    )
    assert r.status_code == 200
    assert c.cookies["sessionid"].value != planted_key
    assert c.get("/api/accounts/me/").json()["username"] == "fay"
    r = c.post(
        "/api/accounts/password/",
        {"old_password": "correct-horse-battery", "new_password": "another-good-passphrase"},
        format="json",
    )
    assert r.status_code == 204
    assert c.get("/api/accounts/me/").status_code == 200  # the session survives a password change
    assert c.post("/api/accounts/logout/").status_code == 204
    assert c.get("/api/accounts/me/").status_code in (401, 403)
