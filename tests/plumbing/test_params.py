"""Whole numbers in URLs, query strings and socket parameters: only ASCII digits, else a 400."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest
from channels.testing import WebsocketCommunicator
from django.test import Client
from rest_framework.test import APIClient

from accounts.services import user_token
from games.models import Game, GameStatus
from games.services.tables import TableSettings, table_create, table_join, table_start
from harehra_site.asgi import application
from plumbing.params import is_count, parse_count


def test_unicode_digits_are_not_counts() -> None:
    for raw in ("²", "³", "١٢", "１", "-1", "+1", " 1", "1 ", "1_0", "1234567890", ""):
        assert not is_count(raw), raw
    assert parse_count("0", "n") == 0 and parse_count("999999999", "n") == 999_999_999
    assert parse_count(None, "n", 7) == 7 and parse_count("", "n", 7) == 7


@pytest.fixture
def finished(make_user: Callable[..., Any]) -> Game:
    users = [make_user(), make_user()]
    table = table_create(host=users[0], settings=TableSettings(seats=2, replay_access="public"))
    table_join(table=table, user=users[1])
    game = table_start(table=table, user=users[0])
    Game.objects.filter(pk=game.pk).update(status=GameStatus.FINISHED, result="draw")
    return game


@pytest.mark.django_db
def test_unicode_digits_get_a_400_or_404_never_a_500(finished: Game) -> None:
    api = APIClient()
    g = finished.pk
    for url in (
        f"/api/games/{g}/events/?after=%C2%B2",
        "/api/replays/?limit=²",
        "/api/replays/?offset=¹",
        f"/api/replays/{g}/frames/?from=²",
        f"/api/replays/{g}/frames/?to=³",
    ):
        r = api.get(url)
        assert r.status_code == 400, (url, r.status_code)
        assert r.json()["code"] == "bad_integer", url
    for tail in ("³/", "²/frames/", "²/export/", "²/watchers/"):
        url = "/api/replays/" + tail
        r = api.get(url)
        assert r.status_code == 404 and r.json()["code"] == "not_found", (url, r.status_code)
    assert Client().get("/replays/²/").status_code == 404
    assert Client().get(f"/replays/{g}/?step=²").status_code == 200


@pytest.mark.django_db(transaction=True)
def test_a_socket_given_unicode_digits_after_gets_the_state(make_user: Callable[..., Any]) -> None:
    users = [make_user(), make_user()]
    table = table_create(host=users[0], settings=TableSettings(seats=2))
    table_join(table=table, user=users[1])
    game = table_start(table=table, user=users[0])
    token = user_token(user=users[0])

    async def run() -> dict[str, Any]:
        comm = WebsocketCommunicator(
            application,
            f"/ws/games/{game.pk}/?token={token}&after=%C2%B2",
            headers=[(b"origin", b"http://localhost")],
        )
        connected, _ = await comm.connect()
        assert connected
        message = await comm.receive_json_from(timeout=5)
        await comm.disconnect()
        return message

    assert asyncio.run(run())["type"] == "state"
