"""The site's game pages: they render, their forms validate, and nothing hidden leaks into the HTML."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from games.eventlog import load_state
from games.models import Game, Table
from harehra import view_for

pytestmark = pytest.mark.django_db


def signed_in(user: Any) -> Client:
    c = Client()
    c.force_login(user)
    return c


def test_home_and_lobby_render() -> None:
    c = Client()
    home = c.get("/")
    assert home.status_code == 200
    html = home.content.decode()
    assert "Play now" in html
    for card in ("right", "left", "house", "strom", "cumi", "taptap", "zada", "mini"):
        assert f"cards/{card}.svg" in html
    lobby = c.get("/lobby/")
    assert lobby.status_code == 200
    assert "Open tables" in lobby.content.decode()


def test_the_lobby_and_table_pages_follow_their_sockets_and_poll_nothing(make_user: Any) -> None:
    from games.selectors import lobby_html
    from games.services.tables import TableSettings, table_create

    host = make_user()
    private = table_create(host=host, settings=TableSettings(seats=2, visibility="private"))
    public = table_create(host=host, settings=TableSettings(seats=2))
    c = Client()
    lobby = c.get("/lobby/").content.decode()
    assert 'data-socket="/ws/lobby/?lang=en"' in lobby and "js/pages/lobby.js" in lobby
    assert f'data-table="{public.pk}"' in lobby and f'data-table="{private.pk}"' not in lobby
    # The list a lobby socket sends when it (re)connects is the page's own.
    assert c.get("/lobby/?fragment=1").content.decode() == lobby_html()
    invited = c.get(f"/tables/{private.pk}/?invite={private.invite_code}").content.decode()
    assert f'data-socket="/ws/tables/{private.pk}/?invite={private.invite_code}"' in invited
    assert f'data-fragment="/tables/{private.pk}/?fragment=1&amp;invite={private.invite_code}"' in invited
    for page in (lobby, invited):
        assert "data-poll" not in page and "poll.js" not in page


def test_static_cards_and_js_catalog_are_served() -> None:
    c = Client()
    assert c.get("/jsi18n/").status_code == 200


def test_create_table_form_validates(make_user: Any) -> None:
    c = signed_in(make_user())
    r = c.post("/tables/new/", {"seats": "9", "mini": "-1", "turn_timer": "abc"})
    assert r.status_code == 400
    html = r.content.decode()
    assert "Select a valid choice" in html
    assert "Error:" in html
    r = c.post(
        "/tables/new/",
        {
            "seats": "6",
            "mini": "0",
            "turn_timer": "30",
            "reaction_timer": "10",
            "discard_timer": "10",
            "visibility": "public",
            "replay_access": "public",
        },
    )
    assert r.status_code == 400
    assert "Big Warren" in r.content.decode()
    r = c.post(
        "/tables/new/",
        {
            "seats": "3",
            "packs": ["big-warren"],
            "mini": "2",
            "turn_timer": "20",
            "reaction_timer": "5",
            "discard_timer": "6",
            "visibility": "private",
            "replay_access": "link",
        },
    )
    assert r.status_code == 302
    table = Table.objects.get()
    assert r["Location"] == f"/tables/{table.pk}/"
    assert (table.seats, table.packs, table.mini, table.turn_timer, table.visibility) == (
        3,
        ["big-warren"],
        2,
        20,
        "private",
    )


def test_create_table_needs_sign_in() -> None:
    r = Client().post("/tables/new/", {"seats": "2"})
    assert r.status_code == 302 and "/accounts/login/" in r["Location"]


def test_table_page_host_controls_and_private_invite(make_user: Any) -> None:
    host, guest, stranger = make_user("hosty"), make_user("guesty"), make_user("strangy")
    hc = signed_in(host)
    hc.post(
        "/tables/new/",
        {
            "seats": "3",
            "mini": "0",
            "turn_timer": "30",
            "reaction_timer": "10",
            "discard_timer": "10",
            "visibility": "private",
            "replay_access": "public",
        },
    )
    table = Table.objects.get()
    page = hc.get(f"/tables/{table.pk}/").content.decode()
    assert "Add a bot" in page and table.invite_code in page
    # a stranger without the invite sees nothing; with it, they may sit
    assert signed_in(stranger).get(f"/tables/{table.pk}/").status_code == 404
    gc = signed_in(guest)
    invited = gc.get(f"/tables/{table.pk}/?invite={table.invite_code}")
    assert invited.status_code == 200 and "Sit here" in invited.content.decode()
    r = gc.post(f"/tables/{table.pk}/join/", {"seat": "1", "invite_code": table.invite_code})
    assert r.status_code == 302
    assert table.seat_set.get(number=1).user_id == guest.pk
    # starting with an empty seat is refused in words, not a 500
    r = hc.post(f"/tables/{table.pk}/start/", follow=True)
    assert r.status_code == 200 and "every seat must be filled" in r.content.decode()
    hc.post(f"/tables/{table.pk}/add-bot/", {"seat": "2"})
    assert table.seat_set.get(number=2).is_bot
    # bad input never makes a 500
    assert hc.post(f"/tables/{table.pk}/remove-bot/", {"seat": "x"}).status_code == 302
    assert hc.post(f"/tables/{table.pk}/remove-bot/", {"seat": "0"}, follow=True).status_code == 200
    assert hc.post(f"/tables/{table.pk}/fly/").status_code == 404
    assert gc.post(f"/tables/{table.pk}/start/", follow=True).status_code == 200  # not the host: words
    r = hc.post(f"/tables/{table.pk}/start/")
    game = Game.objects.get()
    assert r["Location"] == f"/games/{game.pk}/"
    page = gc.get(f"/tables/{table.pk}/?fragment=1").content.decode()
    assert f"/games/{game.pk}/" in page


def test_game_page_never_holds_another_seats_cards(make_user: Any) -> None:
    host, guest = make_user(), make_user()
    hc, gc = signed_in(host), signed_in(guest)
    hc.post(
        "/tables/new/",
        {
            "seats": "2",
            "mini": "0",
            "turn_timer": "30",
            "reaction_timer": "10",
            "discard_timer": "10",
            "visibility": "public",
            "replay_access": "public",
        },
    )
    table = Table.objects.get()
    gc.post(f"/tables/{table.pk}/join/", {})
    hc.post(f"/tables/{table.pk}/start/")
    game = Game.objects.get()
    state = load_state(game)
    for client, seat in ((hc, 0), (gc, 1), (Client(), None)):
        r = client.get(f"/games/{game.pk}/")
        assert r.status_code == 200
        html = r.content.decode()
        config = re.search(r'<script id="game-config" type="application/json">(.*?)</script>', html, re.S)
        assert config is not None
        assert '"hand"' not in config.group(1)
        assert '"draw_pile"' not in html
        assert f'"seat": {seat if seat is not None else "null"}' in config.group(1)
    # the seat's own view (what the socket sends) is the only place cards appear
    assert view_for(state, 1)["hand"] == list(state.hands[1])
    assert Client().get("/games/999999/").status_code == 404


def test_profile_page(make_user: Any) -> None:
    make_user("profiled")
    r = Client().get("/players/profiled/")
    assert r.status_code == 200
    html = r.content.decode()
    assert "Games played" in html and "No games yet." in html
    assert Client().get("/players/nobody-here/").status_code == 404


def test_rough_edges_a_new_player_hits(make_user: Any) -> None:
    from games.services.tables import TableSettings, table_create

    host = make_user()
    private = table_create(host=host, settings=TableSettings(seats=2, visibility="private"))
    c = Client()
    # A signed-out visitor following an invite: the refreshed panel's sign-in and register links
    # come back to the page itself, never to its ?fragment=1.
    panel = c.get(f"/tables/{private.pk}/?fragment=1&invite={private.invite_code}").content.decode()
    links = re.findall(r'href="/accounts/(?:login|register)/\?next=([^"]+)"', panel)
    assert len(links) == 2
    assert all("fragment" not in x and x.startswith("/tables/") and "invite" in x for x in links)
    # Registering from the home page's header lands in the lobby (the default), not back home.
    home = c.get("/").content.decode()
    assert 'href="/accounts/register/"' in home and 'next=%2F"' not in home
    # The replay list is in the navigation.
    assert 'href="/replays/"' in home
    # The host cannot press "Start the game" while seats are empty.
    page = signed_in(host).get(f"/tables/{private.pk}/").content.decode()
    start = re.search(r'<button type="submit" class="button primary"[^>]*>Start the game', page)
    assert start and "disabled" in start.group(0)
    # A missing page is the site's own, styled and with a way on.
    missing = c.get("/no-such-page/")
    assert missing.status_code == 404
    body = missing.content.decode()
    assert "site.css" in body and 'href="/lobby/"' in body


def test_the_server_error_page_is_styled() -> None:
    from django.template.loader import render_to_string

    html = render_to_string("500.html")
    assert "site.css" in html and 'href="/lobby/"' in html
