"""A private table's invitee watches its game: the invite the table page accepts opens the game
page, the watch page, the live socket, the replay API and the game API too (one rule:
games.access.access_game_view), signed in or not; without it each of them answers 404."""

from __future__ import annotations

import asyncio
import json
import random
import re
from collections.abc import Callable
from typing import Any

import pytest
from channels.testing import WebsocketCommunicator
from django.test import Client

from games.models import Game, GameStatus
from tests.factories import play_out, start_table
from tests.support.sockets import game_socket


def _private_game(make_user: Callable[..., Any], **settings: Any) -> Game:
    return start_table([make_user(), make_user()], rated=False, visibility="private", **settings)


def _pages(game: Game) -> list[str]:
    return [
        f"/games/{game.pk}/",
        f"/watch/{game.pk}/",
        f"/api/games/{game.pk}/",
        f"/api/games/{game.pk}/events/",
        f"/api/replays/{game.pk}/",
        f"/api/replays/{game.pk}/frames/",
        f"/api/replays/{game.pk}/watchers/",
    ]


def _invited(user: Any | None, game: Game) -> Client:
    """A browser that opened the invite link (as the table page shows it to the host) and pressed
    "Watch the game"."""
    c = Client()
    if user is not None:
        c.force_login(user)
    page = c.get(f"/tables/{game.table_id}/?invite={game.table.invite_code}")
    assert page.status_code == 200
    link = re.search(r'href="([^"]+)" id="go-to-game"', page.content.decode())
    assert link is not None and link.group(1) == f"/games/{game.pk}/"
    assert "Watch the game" in page.content.decode()
    return c


@pytest.mark.django_db
@pytest.mark.parametrize("signed_in", [False, True], ids=["signed-out", "signed-in"])
def test_an_invitee_without_a_seat_watches_a_private_tables_game(
    make_user: Callable[..., Any], signed_in: bool
) -> None:
    game = _private_game(make_user)
    who = make_user() if signed_in else None
    c = _invited(who, game)
    for url in _pages(game):
        r = c.get(url)
        assert r.status_code == 200, (url, r.status_code)
    page = c.get(f"/games/{game.pk}/").content.decode()
    assert '"seat": null' in page  # a spectator's view: no hand
    view = c.get(f"/api/games/{game.pk}/").json()
    assert view["view"]["hand"] is None and view["legal"] == []
    frames = c.get(f"/api/replays/{game.pk}/frames/").json()
    assert frames["perspective"] == "spectator"
    # Back on the table page without the link, the same browser still holds the invite.
    assert c.get(f"/tables/{game.table_id}/").status_code == 200


@pytest.mark.django_db
def test_without_the_invite_a_private_tables_game_stays_hidden(make_user: Callable[..., Any]) -> None:
    game = _private_game(make_user)
    stranger = Client()
    stranger.force_login(make_user())
    wrong = Client()
    assert wrong.get(f"/tables/{game.table_id}/?invite=not-the-code").status_code == 404
    for c in (Client(), stranger, wrong):
        for url in _pages(game):
            assert c.get(url).status_code == 404, url
        assert c.get(f"/games/{game.pk}/?invite=not-the-code").status_code == 404
    # An invite of another table opens this one's game to nobody.
    other = _private_game(make_user)
    c = _invited(None, other)
    for url in _pages(game):
        assert c.get(url).status_code == 404, url


@pytest.mark.django_db
def test_api_clients_name_the_invite(make_user: Callable[..., Any], client_for: Callable[[Any], Any]) -> None:
    game = _private_game(make_user)
    code = game.table.invite_code
    api = client_for(make_user())
    assert api.get(f"/api/games/{game.pk}/").status_code == 404
    assert api.get(f"/api/games/{game.pk}/?invite={code}").status_code == 200
    assert api.get(f"/api/games/{game.pk}/events/?invite={code}").status_code == 200
    assert api.get(f"/api/replays/{game.pk}/frames/?invite={code}").status_code == 200
    assert api.get(f"/api/games/{game.pk}/?invite=wrong").status_code == 404
    # Any text may come as a code: one that is not ASCII is a wrong code, never a server error.
    assert api.get(f"/api/games/{game.pk}/?invite=\u00e9\U0001f600").status_code == 404
    joined = api.post(
        f"/api/tables/{game.table_id}/join/", {"seat": 1, "invite_code": "k\u00f3d\u0094"}, format="json"
    )
    assert joined.status_code in (403, 404, 409) and joined.json()["code"]
    assert api.get(f"/api/replays/{game.pk}-\u00e9/frames/").status_code == 404


@pytest.mark.django_db
def test_once_over_the_game_follows_its_replay_setting_invite_or_not(make_user: Callable[..., Any]) -> None:
    """The invite lets its holder watch the game live; its replay is then the replay setting's."""
    game = _private_game(make_user, replay_access="players")
    c = _invited(None, game)
    assert c.get(f"/watch/{game.pk}/").status_code == 200
    game = play_out(game, random.Random(3))
    assert game.status == GameStatus.FINISHED
    for url in (f"/games/{game.pk}/", f"/replays/{game.pk}/", f"/api/replays/{game.pk}/frames/"):
        assert c.get(url).status_code == 404, url


async def _first(comm: WebsocketCommunicator) -> dict[str, Any]:
    """The socket's first message; a refused socket is accepted, then closed: {"closed": code}."""
    assert (await comm.connect())[0]
    out = await comm.receive_output(timeout=5)
    if out["type"] == "websocket.close":
        return {"closed": out["code"]}
    return dict(json.loads(out["text"]))


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("end_lingering_connections")  # the socket's threads keep connections
def test_the_invitees_browser_opens_the_games_live_socket(make_user: Callable[..., Any]) -> None:
    game = _private_game(make_user)
    c = _invited(None, game)
    assert c.get(f"/games/{game.pk}/").status_code == 200
    session = c.cookies["sessionid"].value

    async def run() -> None:
        stranger = await _first(game_socket(game.pk))
        assert stranger == {"closed": 4403}
        assert await _first(game_socket(game.pk, invite="not-the-code")) == {"closed": 4403}
        invited = game_socket(game.pk, invite=game.table.invite_code)
        for comm in (game_socket(game.pk, session=session), invited):
            state = await _first(comm)
            assert state["type"] == "state", state
            assert state["view"]["hand"] is None and state["legal"] == []
            await comm.disconnect()

    asyncio.run(run())


@pytest.mark.django_db
def test_an_invite_that_cannot_be_one_is_no_invite_not_an_error(
    make_user: Callable[..., Any], client_for: Callable[[Any], Any]
) -> None:
    """Anything may come as `?invite=` (control characters, text that is not ASCII): it is no
    invite, so the answer is the one for no invite, never a 500."""
    game = _private_game(make_user)
    api = client_for(make_user())
    page = Client()
    page.force_login(make_user())
    # What a fuzzer sent (Ë, ESC, a 4-byte letter): no invite, so not found.
    odd = "bD%C3%8B%1B%F0%BC%A0%8Bi%C3%B9"
    for path in (f"/api/tables/{game.table_id}/", f"/api/games/{game.pk}/", f"/api/games/{game.pk}/events/"):
        response = api.get(f"{path}?invite={odd}")
        assert response.status_code == 404, (path, response.status_code)
        assert response.json()["code"] == "not_found"
    assert page.get(f"/tables/{game.table_id}/?invite={odd}").status_code == 404
    assert page.get(f"/games/{game.pk}/?invite={odd}").status_code == 404
    # A NUL: the request itself is refused, with its code.
    response = api.get(f"/api/tables/{game.table_id}/?invite=a%00b")
    assert (response.status_code, response.json()["code"]) == (400, "bad_request")
