"""Notifications: a new follower is told, the bell counts what is unread on every page, and the
list marks them read."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def test_a_new_follower_is_told_once_and_the_list_marks_it_read(make_user: Any, client_for: Any) -> None:
    dana, emil = make_user("dana"), make_user("emil")
    dana_api, emil_api = client_for(dana), client_for(emil)
    dana_api.post("/api/relations/follows/emil/")
    dana_api.post("/api/relations/follows/emil/")  # again: not a new follower
    got = emil_api.get("/api/notifications/").json()
    assert got["unread"] == 1
    [n] = got["notifications"]
    assert (n["kind"], n["text"], n["url"], n["read"]) == (
        "follower",
        "dana follows you.",
        "/players/dana/",
        False,
    )
    assert dana_api.get("/api/notifications/").json() == {"unread": 0, "notifications": []}
    assert emil_api.post("/api/notifications/read/", {"ids": [n["id"]]}, format="json").json() == {
        "marked": 1
    }
    assert emil_api.get("/api/notifications/").json()["unread"] == 0
    r = emil_api.post("/api/notifications/read/", {"ids": "all"}, format="json")
    assert r.status_code == 400
    assert Client().get("/api/notifications/").status_code == 401


def test_the_bell_counts_unread_on_every_page_until_the_list_is_opened(make_user: Any) -> None:
    dana, emil, olga = make_user("dana"), make_user("emil"), make_user("olga")
    for follower in (dana, olga):
        page = Client()
        page.force_login(follower)
        page.post("/players/emil/relation/", {"action": "follow"})
    page = Client()
    page.force_login(emil)
    for path in ("/lobby/", "/players/dana/", "/tournaments/"):
        html = page.get(path).content.decode()
        assert 'class="nav-bell" data-unread="2"' in html, path
    html = page.get("/notifications/").content.decode()
    assert html.count('class="unread"') == 2 and "olga follows you." in html
    assert 'data-unread="0"' in page.get("/lobby/").content.decode()
    assert Client().get("/notifications/").status_code == 302
