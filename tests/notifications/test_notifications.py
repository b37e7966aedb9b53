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


@pytest.mark.django_db(transaction=True)
def test_the_person_who_asked_for_an_analysis_is_told_when_it_is_ready(make_user: Any, settings: Any) -> None:
    from django.utils import timezone

    from analysis.models import AnalysisRequest, RequestStatus
    from analysis.services import analysis_work
    from harehra.analysis import ANALYSIS_VERSION
    from notifications.models import Notification
    from tests.factories import finished_game

    settings.ANALYSIS_PLAYOUTS = 2
    ann, bob = make_user("ann"), make_user("bob")
    asked, automatic = (
        finished_game([ann, bob], seed=3, rated=False),
        finished_game([ann, bob], seed=4, rated=False),
    )
    now = timezone.now()
    AnalysisRequest.objects.create(
        game=asked, version=ANALYSIS_VERSION, requested_by=ann, status=RequestStatus.QUEUED,
        asked_at=now, updated_at=now,
    )  # fmt: skip
    analysis_work(asked.pk)
    analysis_work(automatic.pk)  # nobody asked: nobody is told
    told = list(Notification.objects.values_list("user_id", "kind", "data"))
    assert told == [(ann.pk, "analysis_ready", {"game": asked.pk})]
    page = Client()
    page.force_login(ann)
    html = page.get("/notifications/").content.decode()
    assert f"The analysis you asked for, of game {asked.pk}, is ready." in html
    assert f'href="/replays/{asked.pk}/"' in html
