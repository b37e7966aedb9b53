"""Whole replays built on the server are throttled per person and per address: the frames API and
the pages that build the same (replay, embed, watch), and imports (each a whole document checked by
the rules). A refusal is 429 `throttled` with Retry-After; an API's in JSON, a page's a page."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient
from rest_framework.throttling import SimpleRateThrottle

from games.models import Game
from tests.factories import finished_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def rates(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(
        SimpleRateThrottle,
        "THROTTLE_RATES",
        {
            **SimpleRateThrottle.THROTTLE_RATES,
            "replay_frames": "3/min",
            "replay_frames_address": "5/min",
            "replay_import": "2/min",
            "replay_import_address": "3/min",
        },
    )


@pytest.fixture
def game(two: list[Any]) -> Game:
    return finished_game(two, seed=3, rated=False, replay_access="public")


def _api(address: str, user: Any | None = None) -> APIClient:
    c = APIClient(REMOTE_ADDR=address)
    if user is not None:
        c.force_authenticate(user)
    return c


def _frames(client: APIClient, game: Game) -> Any:
    return client.get(f"/api/replays/{game.pk}/frames/?perspective=spectator")


def _refused(r: Any) -> None:
    assert r.status_code == 429, r.content
    assert r.json()["code"] == "throttled" and int(r["Retry-After"]) > 0


def test_frames_per_person_whatever_their_address(
    rates: None, game: Game, make_user: Callable[..., Any]
) -> None:
    eve = make_user("eve")
    assert [_frames(_api(f"10.1.0.{i}", eve), game).status_code for i in range(3)] == [200] * 3
    _refused(_frames(_api("10.1.0.9", eve), game))
    assert _frames(_api("10.1.0.9"), game).status_code == 200  # someone else at that address


def test_frames_per_address_whoever_asks(rates: None, game: Game, make_user: Callable[..., Any]) -> None:
    signed_out = [_frames(_api("10.2.0.1"), game).status_code for _ in range(4)]
    assert signed_out == [200, 200, 200, 429]  # a client signed out is its address
    # Many accounts at one address share its own bound (5 a minute: the 4 above counted there too).
    accounts = [_frames(_api("10.2.0.1", make_user(f"acct{i}")), game).status_code for i in range(3)]
    assert accounts == [200, 429, 429]
    assert _frames(_api("10.2.0.2"), game).status_code == 200  # another address


def test_the_pages_that_build_a_whole_replay_count_with_the_frames(
    rates: None, game: Game, make_user: Callable[..., Any]
) -> None:
    browser = Client(REMOTE_ADDR="10.3.0.1")
    for url in (f"/replays/{game.pk}/", f"/embed/replays/{game.pk}/", f"/watch/{game.pk}/"):
        assert browser.get(url).status_code == 200
    page = browser.get(f"/replays/{game.pk}/")
    assert page.status_code == 429 and int(page["Retry-After"]) > 0
    assert page["Content-Type"].startswith("text/html")
    assert "Too many" in page.content.decode()
    _refused(_frames(_api("10.3.0.1"), game))


def test_imports_per_person_and_per_address(rates: None, game: Game, make_user: Callable[..., Any]) -> None:
    document = APIClient().get(f"/api/replays/{game.pk}/export/").json()

    def imported(address: str, user: Any | None = None) -> Any:
        return _api(address, user).post("/api/replays/import/", document, format="json")

    eve = make_user("eve")
    assert [imported(f"10.4.0.{i}", eve).status_code for i in range(2)] == [200, 200]
    _refused(imported("10.4.0.9", eve))  # eve, wherever she is
    assert imported("10.4.0.9").status_code == 200  # signed out at that address: its own count
    assert imported("10.4.0.9", make_user("dan")).status_code == 200
    _refused(imported("10.4.0.9", make_user("ivy")))  # the address's 3 a minute, whoever asks
    # A refused import is not checked at all: a broken document is refused for the rate first.
    r = _api("10.4.0.9").post("/api/replays/import/", {"format": "nonsense"}, format="json")
    _refused(r)
