"""The rating pages as a player sees them: a profile's rating chart and statistics, the
leaderboard, and ratings in the lobby's rows."""

from __future__ import annotations

import random
from typing import Any

import pytest

from accounts.services import user_register
from games.services.tables import TableSettings, table_create
from ratings.models import Rating
from tests.factories import next_game, play_out, start_table

pytestmark = pytest.mark.browser
REDIS_DB = 13
PASSWORD = "correct-horse-battery"


@pytest.fixture(autouse=True)
def _orm_beside_playwright(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


def test_profile_leaderboard_and_lobby_show_ratings(site: Any, browser: Any, screenshots: Any) -> None:
    alice, bob, carol = (user_register(username=n, password=PASSWORD) for n in ("alice", "bob", "carol"))
    rng = random.Random(9)
    game = play_out(start_table([alice, bob, carol]), rng)
    for _ in range(5):
        game = play_out(next_game(game), rng)
    table_create(host=alice, settings=TableSettings(seats=3))  # an open table in the lobby
    rating = Rating.objects.get(user=alice, pool="all")
    assert rating.games == 6

    page = browser.new_context().new_page()
    page.goto(f"{site.url()}/players/alice/")
    assert page.locator("[data-rating]").inner_text() == str(rating.display)
    assert page.locator(".rating-chart circle.rating-dot").count() == 7  # the start and six games
    assert page.locator(".game-list .placing").count() == 6
    page.screenshot(path=str(screenshots / "ratings-profile.png"), full_page=True)

    page.goto(f"{site.url()}/leaderboard/")
    names = page.locator(".leaderboard tbody td:nth-child(2)").all_inner_texts()
    assert sorted(names) == ["alice", "bob", "carol"]
    shown = [int(t.rstrip("?")) for t in page.locator(".leaderboard tbody td.rating").all_inner_texts()]
    assert shown == sorted(shown, reverse=True)
    page.screenshot(path=str(screenshots / "ratings-leaderboard.png"), full_page=True)

    page.goto(f"{site.url()}/lobby/")
    page.wait_for_selector(".seat-rating")
    assert page.locator(".seat-rating").first.inner_text().rstrip("?") == str(rating.display)
    page.screenshot(path=str(screenshots / "ratings-lobby.png"), full_page=True)
