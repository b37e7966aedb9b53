"""Challenges through the API and the pages: who may be challenged, answers, starting with bots,
expiry, the throttle, the rematch, and the friends panel with its presence and blocks."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone
from rest_framework.throttling import SimpleRateThrottle

from accounts.models import Preference
from challenges.models import Challenge
from challenges.services import challenges_expire
from games.models import Game, GameStatus, Seat, Table, TableStatus
from games.services.moves import game_abort
from notifications.models import Notification
from relations.online import online_arrive, online_renew

pytestmark = pytest.mark.django_db


@pytest.fixture
def sent(monkeypatch: Any) -> list[tuple[str, dict[str, Any]]]:
    """Every message handed to the channel layer, as (group, message)."""
    got: list[tuple[str, dict[str, Any]]] = []
    monkeypatch.setattr("plumbing.publish._send", lambda group, message: got.append((group, message)))
    return got


@pytest.fixture
def people(make_user: Any, client_for: Any) -> dict[str, Any]:
    users = {name: make_user(name) for name in ("alena", "bedrich", "cyril", "dana")}
    return {"users": users, **{name: client_for(u) for name, u in users.items()}}


def friends(p: dict[str, Any], a: str, b: str) -> None:
    assert p[a].post(f"/api/relations/follows/{b}/").status_code == 200
    assert p[b].post(f"/api/relations/follows/{a}/").status_code == 200


def challenge(client: Any, to: list[str], **settings: Any) -> Any:
    body = {"to": to, "seats": 3, "turn_timer": 30, "rated": False, **settings}
    return client.post("/api/challenges/", body, format="json")


def of_type(sent: list[tuple[str, dict[str, Any]]], kind: str) -> list[tuple[str, dict[str, Any]]]:
    return [(g, m) for g, m in sent if m["type"] == kind]


def test_friends_only_by_default_then_the_challenged_is_told_at_once(
    people: dict[str, Any], sent: Any, django_capture_on_commit_callbacks: Any
) -> None:
    r = challenge(people["alena"], ["bedrich"])
    assert (r.status_code, r.json()["code"]) == (403, "friends_only")
    friends(people, "alena", "bedrich")
    with django_capture_on_commit_callbacks(execute=True):
        r = challenge(people["alena"], ["bedrich"])
    assert r.status_code == 201, r.content
    body = r.json()
    assert (body["from"], body["to"], body["status"], body["mine"]) == ("alena", ["bedrich"], "pending", True)
    bedrich = people["users"]["bedrich"]
    [(group, offer)] = of_type(sent, "challenge.offered")
    assert group == f"user.{bedrich.pk}"
    assert (offer["challenge"], offer["from"], offer["seats"], offer["rematch"]) == (
        body["id"],
        "alena",
        3,
        False,
    )
    notes = people["bedrich"].get("/api/notifications/").json()["notifications"]
    assert (notes[0]["kind"], notes[0]["text"], notes[0]["url"]) == (
        "challenge",
        "alena challenges you to a game.",
        f"/challenges/{body['id']}/",
    )
    seen = people["bedrich"].get(f"/api/challenges/{body['id']}/").json()
    assert (seen["mine"], seen["my_answer"]) == (False, "pending")
    assert people["cyril"].get(f"/api/challenges/{body['id']}/").status_code == 404


def test_the_challenged_persons_setting_decides_and_a_block_refuses_either_way(
    people: dict[str, Any],
) -> None:
    users = people["users"]
    Preference.objects.update_or_create(user=users["alena"], defaults={"challenges_from": "anyone"})
    assert challenge(people["cyril"], ["alena"]).status_code == 201  # anyone: no friendship needed
    assert people["alena"].post("/api/relations/blocks/cyril/").status_code == 200
    r = challenge(people["cyril"], ["alena"])
    assert (r.status_code, r.json()["code"]) == (403, "blocked")
    r = challenge(people["alena"], ["cyril"])
    assert (r.status_code, r.json()["code"]) == (409, "you_block")
    Preference.objects.update_or_create(user=users["dana"], defaults={"challenges_from": "nobody"})
    friends(people, "alena", "dana")
    r = challenge(people["alena"], ["dana"])
    assert (r.status_code, r.json()["code"]) == (403, "not_accepting")
    r = challenge(people["alena"], ["alena"])
    assert (r.status_code, r.json()["code"]) == (400, "self_challenge")
    r = challenge(people["alena"], ["nobody-at-all"])
    assert (r.status_code, r.json()["code"]) == (404, "not_found")
    r = challenge(people["alena"], ["bedrich", "cyril", "dana"], seats=3)
    assert (r.status_code, r.json()["code"]) == (400, "too_many_people")
    r = challenge(people["alena"], ["dana"], seats=9)
    assert r.status_code == 400
    assert Client().post("/api/challenges/", {}, content_type="application/json").status_code == 401


def test_everyone_accepting_starts_the_table_with_bots_in_the_seats_left(
    people: dict[str, Any], sent: Any, django_capture_on_commit_callbacks: Any
) -> None:
    friends(people, "alena", "bedrich")
    friends(people, "alena", "cyril")
    cid = challenge(people["alena"], ["bedrich", "cyril"], seats=4).json()["id"]
    with django_capture_on_commit_callbacks(execute=True):
        r = people["bedrich"].post(f"/api/challenges/{cid}/accept/")
    assert (r.json()["status"], r.json()["game"]) == ("pending", None)
    # The challenge answered no longer waits on the person's bell; the others' still does.
    unread = Notification.objects.filter(kind="challenge", read_at__isnull=True, data__challenge=cid)
    users = people["users"]
    assert set(unread.values_list("user_id", flat=True)) == {users["cyril"].pk}
    again = people["bedrich"].post(f"/api/challenges/{cid}/accept/")
    assert (again.status_code, again.json()["code"]) == (409, "already_answered")
    sent.clear()
    with django_capture_on_commit_callbacks(execute=True):
        r = people["cyril"].post(f"/api/challenges/{cid}/accept/")
    body = r.json()
    assert body["status"] == "started" and body["game"] is not None
    game = Game.objects.get(pk=body["game"])
    assert game.status == GameStatus.RUNNING
    seats = {
        s.number: (s.user.get_username() if s.user else None, s.is_bot)
        for s in Seat.objects.filter(table=game.table).select_related("user")
    }
    assert seats == {0: ("alena", False), 1: ("bedrich", False), 2: ("cyril", False), 3: (None, True)}
    assert game.table.host.get_username() == "alena" and game.table.rated is False
    told = {g: m["url"] for g, m in of_type(sent, "challenge.started")}
    users = people["users"]
    assert told == {f"user.{users[n].pk}": f"/games/{game.pk}/" for n in ("alena", "bedrich", "cyril")}


def test_the_challenger_starts_with_bots_where_nobody_answered(
    people: dict[str, Any], sent: Any, django_capture_on_commit_callbacks: Any
) -> None:
    friends(people, "alena", "bedrich")
    friends(people, "alena", "cyril")
    cid = challenge(people["alena"], ["bedrich", "cyril"]).json()["id"]
    people["bedrich"].post(f"/api/challenges/{cid}/accept/")
    r = people["bedrich"].post(f"/api/challenges/{cid}/start/")
    assert (r.status_code, r.json()["code"]) == (403, "not_challenger")
    with django_capture_on_commit_callbacks(execute=True):
        r = people["alena"].post(f"/api/challenges/{cid}/start/")
    game = Game.objects.get(pk=r.json()["game"])
    seats = [(s.user_id, s.is_bot) for s in Seat.objects.filter(table=game.table).order_by("number")]
    users = people["users"]
    assert seats == [(users["alena"].pk, False), (users["bedrich"].pk, False), (None, True)]
    changed = [g for g, m in of_type(sent, "challenge.changed") if m["status"] == "started"]
    assert changed == [f"user.{users['cyril'].pk}"]  # not seated: told it is over, not sent there
    r = people["cyril"].post(f"/api/challenges/{cid}/accept/")
    assert (r.status_code, r.json()["code"]) == (409, "challenge_over")


def test_declined_by_all_cancelled_or_expired_it_ends_without_a_table(
    people: dict[str, Any], sent: Any, django_capture_on_commit_callbacks: Any
) -> None:
    friends(people, "alena", "bedrich")
    tables = Table.objects.count()
    cid = challenge(people["alena"], ["bedrich"]).json()["id"]
    assert people["bedrich"].post(f"/api/challenges/{cid}/decline/").json()["status"] == "declined"
    cid = challenge(people["alena"], ["bedrich"]).json()["id"]
    assert people["bedrich"].post(f"/api/challenges/{cid}/cancel/").status_code == 403
    assert people["alena"].post(f"/api/challenges/{cid}/cancel/").json()["status"] == "cancelled"
    cid = challenge(people["alena"], ["bedrich"]).json()["id"]
    Challenge.objects.filter(pk=cid).update(expires_at=timezone.now() - timedelta(seconds=1))
    r = people["bedrich"].post(f"/api/challenges/{cid}/accept/")
    assert (r.status_code, r.json()["code"]) == (409, "challenge_over")
    with django_capture_on_commit_callbacks(execute=True):
        assert challenges_expire() == 1
    assert challenges_expire() == 0
    assert Challenge.objects.get(pk=cid).status == "expired"
    assert {m["status"] for _, m in of_type(sent, "challenge.changed")} == {"expired"}
    assert Table.objects.count() == tables
    listed = people["bedrich"].get("/api/challenges/").json()["challenges"]
    assert [c["status"] for c in listed] == ["expired", "cancelled", "declined"]


def test_challenges_are_throttled_per_person(people: dict[str, Any], monkeypatch: Any) -> None:
    monkeypatch.setattr(
        SimpleRateThrottle, "THROTTLE_RATES", {**SimpleRateThrottle.THROTTLE_RATES, "challenge": "2/min"}
    )
    friends(people, "alena", "bedrich")
    for _ in range(2):
        assert challenge(people["alena"], ["bedrich"]).status_code == 201
    r = challenge(people["alena"], ["bedrich"])
    assert (r.status_code, r.json()["code"]) == (429, "throttled")
    assert people["alena"].get("/api/challenges/").status_code == 200  # reading is never refused


def test_a_rematch_offers_the_same_people_the_tables_next_game(
    people: dict[str, Any], sent: Any, django_capture_on_commit_callbacks: Any
) -> None:
    friends(people, "alena", "bedrich")
    cid = challenge(people["alena"], ["bedrich"]).json()["id"]
    first = Game.objects.get(pk=people["bedrich"].post(f"/api/challenges/{cid}/accept/").json()["game"])
    r = people["bedrich"].post(f"/api/challenges/rematch/{first.pk}/")
    assert (r.status_code, r.json()["code"]) == (409, "game_running")
    game_abort(game=first, actor_id=None)
    assert Table.objects.get(pk=first.table_id).status == TableStatus.BETWEEN
    r = people["cyril"].post(f"/api/challenges/rematch/{first.pk}/")
    assert (r.status_code, r.json()["code"]) == (403, "not_seated")
    with django_capture_on_commit_callbacks(execute=True):
        r = people["bedrich"].post(f"/api/challenges/rematch/{first.pk}/")
    assert r.status_code == 201, r.content
    offer = r.json()
    assert (offer["rematch"], offer["to"], offer["table"]) == (True, ["alena"], first.table_id)
    assert people["bedrich"].post(f"/api/challenges/rematch/{first.pk}/").json()["id"] == offer["id"]
    [(group, message)] = of_type(sent, "challenge.offered")
    assert group == f"user.{people['users']['alena'].pk}" and message["rematch"] is True
    started = people["alena"].post(f"/api/challenges/{offer['id']}/accept/").json()
    second = Game.objects.get(pk=started["game"])
    assert (second.table_id, second.number) == (first.table_id, 2)  # the same series
    r = people["bedrich"].post(f"/api/challenges/rematch/{first.pk}/")
    assert (r.status_code, r.json()["code"]) == (409, "next_game_started")


def test_the_friends_panel_shows_friends_online_where_the_viewer_may_watch(
    people: dict[str, Any], sent: Any, django_capture_on_commit_callbacks: Any
) -> None:
    users = people["users"]
    friends(people, "alena", "bedrich")
    friends(people, "alena", "dana")
    assert people["alena"].get("/api/challenges/friends/").json() == {"friends": []}
    online_renew([users["dana"].pk])
    with django_capture_on_commit_callbacks(execute=True):
        assert online_arrive(users["bedrich"].pk) is True
        assert online_arrive(users["bedrich"].pk) is False  # already online: nobody told again
    assert [(g, m["name"]) for g, m in of_type(sent, "friend.online")] == [
        (f"user.{users['alena'].pk}", "bedrich")
    ]
    r = people["bedrich"].post("/api/tables/", {"seats": 2, "visibility": "private"}, format="json")
    assert r.status_code == 201
    people["dana"].post("/api/tables/", {"seats": 2}, format="json")
    public = Table.objects.get(host=users["dana"])
    got = people["alena"].get("/api/challenges/friends/").json()["friends"]
    assert got == [
        {"name": "bedrich", "table": None, "game": None},  # a private table is not said
        {"name": "dana", "table": public.pk, "game": None},
    ]
    # A block: the blocker leaves the blocked person's panel at once, and is never seen online.
    online_renew([users["alena"].pk])
    sent.clear()
    with django_capture_on_commit_callbacks(execute=True):
        assert people["alena"].post("/api/relations/blocks/bedrich/").status_code == 200
    gone = {(g, m["name"]) for g, m in of_type(sent, "friend.gone")}
    assert gone == {(f"user.{users['bedrich'].pk}", "alena"), (f"user.{users['alena'].pk}", "bedrich")}
    assert people["bedrich"].get("/api/challenges/friends/").json() == {"friends": []}
    panel = Client()
    panel.force_login(users["alena"])
    html = panel.get("/friends/panel/").content.decode()
    assert 'data-name="dana"' in html and "bedrich" not in html
    assert "/challenges/new/?to=dana" in html and f"/tables/{public.pk}/" in html


def test_people_search_says_who_is_online_but_not_the_blocker(people: dict[str, Any]) -> None:
    users = people["users"]
    online_renew([users["alena"].pk])
    found = people["dana"].get("/api/relations/people/?q=al").json()["people"]
    assert found == [{"name": "alena", "following": False, "follower": False, "me": False, "online": True}]
    people["alena"].post("/api/relations/blocks/cyril/")
    found = people["cyril"].get("/api/relations/people/?q=al").json()["people"]
    assert found[0]["online"] is False


def test_the_pages_challenge_answer_and_take_both_to_the_game(people: dict[str, Any]) -> None:
    friends(people, "alena", "bedrich")
    users = people["users"]
    a, b = Client(), Client()
    a.force_login(users["alena"])
    b.force_login(users["bedrich"])
    page = a.get("/challenges/new/?to=bedrich")
    assert page.status_code == 200 and 'value="bedrich"' in page.content.decode()
    form = {"people": "bedrich", "seats": "3", "mini": "0", "turn_timer": "30", "reaction_timer": "10"}
    form |= {"discard_timer": "10", "visibility": "public", "replay_access": "public", "rated": "0"}
    form |= {"bot_level": "easy", "away_bot_level": "normal"}
    r = a.post("/challenges/new/", form)
    assert r.status_code == 302, r.content.decode()[:3000]
    url = r["Location"]
    assert "bedrich" in a.get(url).content.decode()
    listed = b.get("/challenges/").content.decode()
    assert "alena challenges you" in listed
    r = b.post(url + "accept/")
    game = Game.objects.get(pk=int(r["Location"].strip("/").split("/")[-1]))
    assert r["Location"] == f"/games/{game.pk}/"
    assert Seat.objects.get(table=game.table, number=2).bot_level == "easy"
    refused = Client()
    refused.force_login(users["cyril"])
    r = refused.post("/challenges/new/", {**form, "people": "alena"})
    assert r.status_code == 400 and "friends only" in r.content.decode()
    lobby = a.get("/lobby/").content.decode()
    assert 'id="friends-online"' in lobby


def test_who_may_challenge_you_is_your_setting(people: dict[str, Any]) -> None:
    assert people["bedrich"].get("/api/challenges/settings/").json() == {"challenges_from": "friends"}
    r = people["bedrich"].post("/api/challenges/settings/", {"challenges_from": "anyone"}, format="json")
    assert r.json() == {"challenges_from": "anyone"}
    assert challenge(people["alena"], ["bedrich"]).status_code == 201
    r = people["bedrich"].post("/api/challenges/settings/", {"challenges_from": "everyone"}, format="json")
    assert r.status_code == 400
    page = Client()
    page.force_login(people["users"]["bedrich"])
    assert page.post("/challenges/settings/", {"challenges_from": "nobody"}).status_code == 302
    r = challenge(people["alena"], ["bedrich"])
    assert (r.status_code, r.json()["code"]) == (403, "not_accepting")
    assert 'value="nobody" selected' in page.get("/challenges/").content.decode()


def test_two_people_becoming_friends_appear_on_each_others_panel_if_online(
    people: dict[str, Any], sent: Any, django_capture_on_commit_callbacks: Any
) -> None:
    users = people["users"]
    online_renew([users["bedrich"].pk])
    people["alena"].post("/api/relations/follows/bedrich/")
    assert of_type(sent, "friend.online") == []  # not friends yet
    with django_capture_on_commit_callbacks(execute=True):
        people["bedrich"].post("/api/relations/follows/alena/")
    assert [(g, m["name"]) for g, m in of_type(sent, "friend.online")] == [
        (f"user.{users['alena'].pk}", "bedrich")
    ]


def test_the_banners_words_come_with_every_page_in_its_language(people: dict[str, Any]) -> None:
    page = Client()
    page.force_login(people["users"]["alena"])
    html = page.get("/replays/").content.decode()
    assert 'data-offer="%(name)s challenges you to a table of %(seats)s."' in html
    html = page.get("/replays/", HTTP_ACCEPT_LANGUAGE="cs").content.decode()
    assert 'data-offer="%(name)s vás vyzývá ke stolu pro %(seats)s."' in html


def test_the_game_pages_rematch_button_offers_it_and_the_offer_page_says_so(people: dict[str, Any]) -> None:
    friends(people, "alena", "bedrich")
    cid = challenge(people["alena"], ["bedrich"]).json()["id"]
    first = Game.objects.get(pk=people["bedrich"].post(f"/api/challenges/{cid}/accept/").json()["game"])
    page = Client()
    page.force_login(people["users"]["alena"])
    html = page.get(f"/games/{first.pk}/").content.decode()
    assert f'action="/games/{first.pk}/rematch/"' in html and 'id="rematch"' in html
    game_abort(game=first, actor_id=None)
    r = page.post(f"/games/{first.pk}/rematch/")
    offer = Challenge.objects.get(rematch=True, table_id=first.table_id)
    assert r["Location"] == f"/challenges/{offer.pk}/"
    other = Client()
    other.force_login(people["users"]["bedrich"])
    html = other.get(f"/challenges/{offer.pk}/").content.decode()
    assert "alena offers a rematch" in html and 'id="challenge-accept"' in html
    r = other.post(f"/challenges/{offer.pk}/accept/")
    assert r["Location"] == f"/games/{Game.objects.get(table_id=first.table_id, number=2).pk}/"
