"""Table flows and their errors through the REST API."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from games.models import Game
from tests.factories import create_table, post

pytestmark = pytest.mark.django_db


@pytest.fixture
def host(make_user, client_for):
    return client_for(make_user())


@pytest.fixture
def guest(make_user, client_for):
    return client_for(make_user())


def test_create_join_bots_and_start(host, guest):
    table = create_table(host, seats=4, turn_timer=45)
    assert table["turn_timer"] == 45 and table["reaction_timer"] == 10
    assert [s["name"] for s in table["seat_list"]][1:] == [None, None, None]
    tid = table["id"]
    assert post(guest, f"/api/tables/{tid}/join/", {"seat": 2}).status_code == 200
    r = post(guest, f"/api/tables/{tid}/join/")
    assert r.status_code == 409 and r.json()["code"] == "already_seated"
    r = post(guest, f"/api/tables/{tid}/add-bot/")
    assert r.status_code == 403 and r.json()["code"] == "not_host"
    r = post(host, f"/api/tables/{tid}/start/")
    assert r.status_code == 409 and r.json()["code"] == "seats_empty"
    assert post(host, f"/api/tables/{tid}/add-bot/", {"seat": 1}).status_code == 200
    r = post(host, f"/api/tables/{tid}/add-bot/", {"seat": 1})
    assert r.status_code == 409 and r.json()["code"] == "seat_taken"
    assert post(host, f"/api/tables/{tid}/add-bot/").status_code == 200
    r = post(host, f"/api/tables/{tid}/remove-bot/", {"seat": 2})
    assert r.status_code == 409 and r.json()["code"] == "no_bot"
    r = post(host, f"/api/tables/{tid}/start/")
    assert r.status_code == 200, r.content
    game = Game.objects.get(pk=r.json()["current_game"])
    assert game.players == 4 and game.shuffler == 0 and game.status == "running"
    assert [gs.is_bot for gs in game.game_seats.all()] == [False, True, False, True]
    r = post(host, f"/api/tables/{tid}/start/")
    assert r.status_code == 409 and r.json()["code"] == "already_started"
    r = post(guest, f"/api/tables/{tid}/leave/")
    assert r.status_code == 200
    assert game.game_seats.get(seat=2).bot_playing is True


def test_bad_settings_are_refused_with_codes(host):
    assert host.post("/api/tables/", {"seats": 5}, format="json").json()["code"] == "bad_settings"
    r = host.post("/api/tables/", {"seats": 5, "packs": ["big-warren"]}, format="json")
    assert r.status_code == 201
    assert host.post("/api/tables/", {"seats": 9}, format="json").json()["code"] == "invalid"
    assert host.post("/api/tables/", {"packs": ["nope"]}, format="json").json()["code"] == "bad_settings"
    assert host.post("/api/tables/", {"visibility": "secret"}, format="json").json()["code"] == "invalid"
    assert host.post("/api/tables/", "[]", content_type="application/json").status_code == 400
    assert APIClient().post("/api/tables/", {}, format="json").json()["code"] == "not_authenticated"


def test_private_tables_need_the_invite_link(host, guest):
    table = create_table(host, seats=2, visibility="private")
    tid = table["id"]
    assert table["invite_code"]
    assert tid not in [t["id"] for t in guest.get("/api/tables/").json()]
    assert guest.get(f"/api/tables/{tid}/").status_code == 404
    r = post(guest, f"/api/tables/{tid}/join/")
    assert r.status_code == 404 and r.json()["code"] == "not_found"
    r = post(guest, f"/api/tables/{tid}/join/", {"invite_code": table["invite_code"]})
    assert r.status_code == 200
    assert guest.get(f"/api/tables/{tid}/").json()["invite_code"] == table["invite_code"]


def test_lobby_lists_open_public_tables(host, guest):
    table = create_table(host, seats=3)
    listed = guest.get("/api/tables/").json()
    assert table["id"] in [t["id"] for t in listed]
    assert all(t["visibility"] == "public" for t in listed)
    assert listed[0]["invite_code"] is None


def test_full_table_and_bad_seat(host, guest, make_user, client_for):
    tid = create_table(host, seats=2)["id"]
    r = post(guest, f"/api/tables/{tid}/join/", {"seat": 7})
    assert r.status_code == 400
    assert post(guest, f"/api/tables/{tid}/join/").status_code == 200
    third = client_for(make_user())
    r = post(third, f"/api/tables/{tid}/join/")
    assert r.status_code == 409 and r.json()["code"] == "table_full"
    r = post(third, f"/api/tables/{tid}/leave/")
    assert r.status_code == 403 and r.json()["code"] == "not_seated"


def test_openapi_schema_and_docs(host):
    r = host.get("/api/schema/")
    assert r.status_code == 200
    body = r.content.decode()
    for route in ("/api/tables/{id}/join/", "/api/games/{id}/commands/", "/api/accounts/register/"):
        assert route in body
    docs = host.get("/api/docs/")
    assert docs.status_code == 200
    assert b"cdn." not in docs.content  # Swagger UI is served by the site itself


def test_nul_characters_are_refused_not_a_500(host):
    for url in (
        "/api/replays/?player=%00",
        "/api/accounts/users/a%00b/",
        "/players/a%00b/",
        "/replays/a%00b/",
    ):
        r = host.get(url)
        assert r.status_code == 400, url
    assert host.get("/api/replays/?offset=99999999999999999999").json()["code"] == "bad_integer"


def test_a_table_everyone_left_mid_game_closes_when_its_game_ends(host, guest):
    from games.models import Table
    from games.services.moves import game_abort

    tid = create_table(host, seats=2)["id"]
    post(host, f"/api/tables/{tid}/add-bot/")
    game_id = post(host, f"/api/tables/{tid}/start/").json()["current_game"]
    assert post(host, f"/api/tables/{tid}/leave/").status_code == 200
    game_abort(game=Game.objects.get(pk=game_id), actor_id=None)
    assert Table.objects.get(pk=tid).status == "closed"
    r = post(host, f"/api/tables/{tid}/add-bot/")
    assert (r.status_code, r.json()["code"]) == (409, "table_closed"), r.json()
    assert tid not in [t["id"] for t in guest.get("/api/tables/").json()]


def test_bot_levels_per_seat_and_for_players_who_leave(host, guest):
    table = create_table(host, seats=3, away_bot_level="hard")
    tid = table["id"]
    assert table["away_bot_level"] == "hard"
    r = post(host, f"/api/tables/{tid}/add-bot/", {"seat": 1, "level": "genius"})
    assert r.status_code == 400 and r.json()["code"] == "invalid"
    r = post(host, f"/api/tables/{tid}/add-bot/", {"seat": 1, "level": "easy"})
    assert r.status_code == 200
    seats = r.json()["seat_list"]
    assert seats[1]["bot_level"] == "easy" and seats[1]["name"] == "Bot 2 · easy"
    assert post(host, f"/api/tables/{tid}/add-bot/", {"seat": 2}).json()["seat_list"][2]["name"] == (
        "Bot 3 · normal"
    )
    lobby = host.get("/lobby/?fragment=1").content.decode()
    assert "Bot 2 · easy" in lobby and "Bot 3 · normal" in lobby
    assert post(host, f"/api/tables/{tid}/remove-bot/", {"seat": 2}).status_code == 200
    assert post(guest, f"/api/tables/{tid}/join/", {"seat": 2}).status_code == 200
    r = post(host, f"/api/tables/{tid}/start/")
    game = Game.objects.get(pk=r.json()["current_game"])
    assert [(gs.is_bot, gs.bot_level) for gs in game.game_seats.all()] == [
        (False, "hard"),
        (True, "easy"),
        (False, "hard"),
    ]
    labels = host.get(f"/api/games/{game.pk}/").json()
    assert "Bot 2 · easy" in str(labels)
    assert post(guest, f"/api/tables/{tid}/leave/").status_code == 200
    seat = game.game_seats.get(seat=2)
    assert seat.bot_playing is True and seat.bot_level == "hard"
    r = host.post("/api/tables/", {"away_bot_level": "godlike"}, format="json")
    assert r.status_code == 400 and r.json()["code"] == "invalid"


def test_the_table_page_offers_a_level_with_each_bot(make_user, client_for):
    from django.test import Client

    user = make_user()
    table = create_table(client_for(user), seats=2)
    browser = Client()
    browser.force_login(user)
    page = browser.get(f"/tables/{table['id']}/").content.decode()
    assert '<select name="level">' in page and 'value="hard"' in page
    r = browser.post(f"/tables/{table['id']}/add-bot/", {"seat": 1, "level": "hard"})
    assert r.status_code == 302
    page = browser.get(f"/tables/{table['id']}/").content.decode()
    assert "Bot 2 · hard" in page
