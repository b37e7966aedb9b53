"""Following and blocking, through the API and the profile page's buttons."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection, transaction
from django.test import Client
from rest_framework.throttling import SimpleRateThrottle

from relations.selectors import SEARCH_AT_MOST, people_named
from tests.factories import create_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def people(make_user: Any, client_for: Any) -> tuple[Any, ...]:
    a, b, c = make_user("alena"), make_user("bedrich"), make_user("cyril")
    return (a, b, c, client_for(a), client_for(b), client_for(c))


def test_two_follows_make_friends_and_either_unfollow_ends_it(people: tuple[Any, ...]) -> None:
    *_, ca, cb, _ = people
    r = ca.post("/api/relations/follows/bedrich/")
    assert r.status_code == 200
    assert r.json() == {"following": True, "follower": False, "friends": False, "blocking": False}
    assert cb.post("/api/relations/follows/alena/").json()["friends"] is True
    assert ca.get("/api/relations/").json() == {
        "following": ["bedrich"],
        "followers": ["bedrich"],
        "friends": ["bedrich"],
        "blocking": [],
    }
    assert ca.post("/api/relations/follows/bedrich/").status_code == 200  # again: no change
    assert cb.delete("/api/relations/follows/alena/").json() == {
        "following": False,
        "follower": True,
        "friends": False,
        "blocking": False,
    }
    assert ca.get("/api/relations/").json()["friends"] == []


def test_following_nobody_or_oneself_is_a_clear_error(people: tuple[Any, ...]) -> None:
    ca = people[3]
    r = ca.post("/api/relations/follows/nobody-at-all/")
    assert (r.status_code, r.json()["code"]) == (404, "not_found")
    r = ca.post("/api/relations/follows/alena/")
    assert (r.status_code, r.json()["code"]) == (400, "self_relation")
    assert Client().post("/api/relations/follows/alena/").status_code == 401


def test_a_block_ends_both_follows_and_refuses_a_follow_back(people: tuple[Any, ...]) -> None:
    *_, ca, cb, _ = people
    ca.post("/api/relations/follows/bedrich/")
    cb.post("/api/relations/follows/alena/")
    assert ca.post("/api/relations/blocks/bedrich/").json() == {
        "following": False,
        "follower": False,
        "friends": False,
        "blocking": True,
    }
    r = cb.post("/api/relations/follows/alena/")
    assert (r.status_code, r.json()["code"]) == (403, "blocked")
    # The blocked one is never told more than the refusal: their own view shows no block.
    assert cb.get("/api/relations/").json() == {
        "following": [],
        "followers": [],
        "friends": [],
        "blocking": [],
    }
    r = ca.post("/api/relations/follows/bedrich/")
    assert (r.status_code, r.json()["code"]) == (409, "you_block")
    assert ca.delete("/api/relations/blocks/bedrich/").json()["blocking"] is False
    assert cb.post("/api/relations/follows/alena/").status_code == 200


def test_a_blocked_person_may_not_sit_at_the_blockers_table(people: tuple[Any, ...]) -> None:
    *_, ca, cb, cc = people
    table = create_table(ca, seats=3)
    ca.post("/api/relations/blocks/bedrich/")
    r = cb.post(f"/api/tables/{table['id']}/join/", {}, format="json")
    assert (r.status_code, r.json()["code"]) == (403, "blocked_by_host")
    assert cc.post(f"/api/tables/{table['id']}/join/", {}, format="json").status_code == 200


def test_follows_are_throttled_per_person(people: tuple[Any, ...], monkeypatch: Any, make_user: Any) -> None:
    monkeypatch.setattr(
        SimpleRateThrottle, "THROTTLE_RATES", {**SimpleRateThrottle.THROTTLE_RATES, "follow": "2/day"}
    )
    ca = people[3]
    for name in ("bedrich", "cyril"):
        assert ca.post(f"/api/relations/follows/{name}/").status_code == 200
    make_user("dana")
    r = ca.post("/api/relations/follows/dana/")
    assert (r.status_code, r.json()["code"]) == (429, "throttled")
    assert "Retry-After" in r
    assert ca.delete("/api/relations/follows/cyril/").status_code == 200  # unfollowing is never refused


def test_the_profile_buttons_follow_and_block(people: tuple[Any, ...]) -> None:
    a, b, *_ = people
    page = Client()
    page.force_login(a)
    html = page.get("/players/bedrich/").content.decode()
    assert 'value="follow"' in html and 'value="block"' in html
    r = page.post("/players/bedrich/relation/", {"action": "follow"})
    assert (r.status_code, r["Location"]) == (302, "/players/bedrich/")
    html = page.get("/players/bedrich/").content.decode()
    assert 'value="unfollow"' in html and 'data-followers="1"' in html
    page.post("/players/bedrich/relation/", {"action": "block"})
    html = page.get("/players/bedrich/").content.decode()
    assert 'value="unblock"' in html and 'data-followers="0"' in html
    # The one blocked sees no sign of it on the blocker's page, and is refused with words.
    other = Client()
    other.force_login(b)
    html = other.get("/players/alena/").content.decode()
    assert 'value="follow"' in html and "unblock" not in html
    html = other.post("/players/alena/relation/", {"action": "follow"}, follow=True).content.decode()
    assert "does not accept that from you" in html
    assert other.post("/players/alena/relation/", {"action": "dance"}).status_code == 400


def test_people_are_found_by_the_start_of_their_name(people: tuple[Any, ...], make_user: Any) -> None:
    *_, ca, cb, _ = people
    make_user("Bedla")
    make_user("abel")
    cb.post("/api/relations/follows/alena/")
    r = ca.get("/api/relations/people/", {"q": "be"})
    assert r.status_code == 200
    assert r.json()["people"] == [
        {"name": "Bedla", "following": False, "follower": False, "me": False, "online": False},
        {"name": "bedrich", "following": False, "follower": True, "me": False, "online": False},
    ]
    assert [p["name"] for p in ca.get("/api/relations/people/", {"q": "A"}).json()["people"]] == [
        "abel",
        "alena",
    ]
    # LIKE's wildcards are the name's characters, not patterns.
    assert ca.get("/api/relations/people/", {"q": "_"}).json()["people"] == []
    for bad in ("", " ", "x" * 151):
        r = ca.get("/api/relations/people/", {"q": bad})
        assert (r.status_code, r.json()["code"]) == (400, "bad_query")


def test_the_search_is_answered_by_its_index() -> None:
    with transaction.atomic(), connection.cursor() as cur:
        cur.execute("SET LOCAL enable_seqscan = off")  # a test's table is small enough to scan
        plan = people_named("al")[:SEARCH_AT_MOST].explain()
    assert "relations_username_upper_prefix" in plan
    assert "Sort" not in plan  # the index gives the order too


def test_the_people_page_finds_and_lists_friends(people: tuple[Any, ...]) -> None:
    a, *_ = people
    page = Client()
    page.force_login(a)
    page.post("/players/bedrich/relation/", {"action": "follow"})
    html = page.get("/players/", {"q": "bed"}).content.decode()
    assert 'href="/players/bedrich/"' in html and "you follow" in html
    assert 'href="/players/cyril/"' not in html.split('id="following"')[0]
    html = page.get("/lobby/").content.decode()
    assert 'action="/players/"' in html
