"""Account pages: register, sign in and out, change password; clear errors, never a 500."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

pytestmark = pytest.mark.django_db


def test_register_signs_in_and_goes_to_the_lobby() -> None:
    c = Client()
    assert c.get("/accounts/register/").status_code == 200
    r = c.post(
        "/accounts/register/",
        {"username": "newbie", "password1": "hare-tree-house-42", "password2": "hare-tree-house-42"},
    )
    assert r.status_code == 302 and r["Location"] == "/lobby/"
    assert get_user_model().objects.filter(username="newbie").exists()
    assert "newbie" in c.get("/lobby/").content.decode()


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({"username": "", "password1": "x", "password2": "x"}, "This field is required"),
        (
            {"username": "bad name!", "password1": "hare-tree-house-42", "password2": "hare-tree-house-42"},
            "letters, digits",
        ),
        ({"username": "ok", "password1": "hare-tree-house-42", "password2": "other-one-99"}, "differ"),
        ({"username": "ok", "password1": "123", "password2": "123"}, "too short"),
        (
            {
                "username": "ok",
                "email": "nope",
                "password1": "hare-tree-house-42",
                "password2": "hare-tree-house-42",
            },
            "valid email",
        ),
        ({"username": "x" * 200, "password1": "a", "password2": "a"}, "at most 30"),
    ],
)
def test_register_errors_are_clear(data: dict[str, str], words: str) -> None:
    r = Client().post("/accounts/register/", data)
    assert r.status_code == 200
    assert words in r.content.decode()


def test_register_taken_username(make_user: Any) -> None:
    make_user("taken")
    r = Client().post(
        "/accounts/register/",
        {"username": "TAKEN", "password1": "hare-tree-house-42", "password2": "hare-tree-house-42"},
    )
    assert "That username is taken." in r.content.decode()


def test_sign_in_rotates_the_session_and_signs_out(make_user: Any) -> None:
    make_user("ann", password="correct-horse-battery")
    c = Client()
    c.get("/accounts/login/")
    c.session.save()
    before = c.session.session_key
    bad = c.post("/accounts/login/", {"username": "ann", "password": "wrong"})
    assert "Wrong username or password." in bad.content.decode()
    r = c.post(
        "/accounts/login/", {"username": "ann", "password": "correct-horse-battery", "next": "/players/ann/"}
    )
    assert r.status_code == 302 and r["Location"] == "/players/ann/"
    assert c.session.session_key != before
    evil = c.post(
        "/accounts/login/",
        {"username": "ann", "password": "correct-horse-battery", "next": "https://evil.example/"},
    )
    assert evil["Location"] == "/lobby/"
    assert c.get("/accounts/logout/").status_code == 405
    r = c.post("/accounts/logout/")
    assert r.status_code == 302
    assert "_auth_user_id" not in c.session


def test_change_password(make_user: Any) -> None:
    user = make_user("bob", password="correct-horse-battery")
    c = Client()
    assert c.get("/accounts/password/").status_code == 302  # sign in first
    c.force_login(user)
    r = c.post(
        "/accounts/password/",
        {"old_password": "nope", "new_password1": "a-new-hare-77", "new_password2": "a-new-hare-77"},
    )
    assert "The current password is wrong." in r.content.decode()
    r = c.post(
        "/accounts/password/",
        {"old_password": "correct-horse-battery", "new_password1": "short", "new_password2": "short"},
    )
    assert "too short" in r.content.decode()
    r = c.post(
        "/accounts/password/",
        {
            "old_password": "correct-horse-battery",
            "new_password1": "a-new-hare-77",
            "new_password2": "a-new-hare-77",
        },
    )
    assert r.status_code == 302
    user.refresh_from_db()
    assert user.check_password("a-new-hare-77")
    assert c.get("/lobby/").context["user"].is_authenticated  # still signed in after the change
