"""The rating pages as a player sees them: a profile's rating chart and statistics, the
leaderboard, and ratings in the lobby's rows."""

from __future__ import annotations

import random
from typing import Any

import pytest

from accounts.services import user_register
from games.services.tables import TableSettings, table_create
from ratings.models import Rating
from tests.browser.ui import PASSWORD as SIGN_IN_PASSWORD
from tests.browser.ui import go_by_header, sign_in
from tests.factories import next_game, play_out, start_table

pytestmark = pytest.mark.browser
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


def test_follow_and_block_from_the_profile(site: Any, browser: Any, screenshots: Any) -> None:
    """Dana follows Emil from his profile; Emil, on a phone in Czech, sees that she follows him,
    follows back (friends) and then blocks her; her next Follow is refused in words."""
    for name in ("dana", "emil"):
        user_register(username=name, password=SIGN_IN_PASSWORD)
    ctx = browser.new_context(
        viewport={"width": 390, "height": 844},
        is_mobile=True,
        has_touch=True,
        locale="cs-CZ",
        extra_http_headers={"Accept-Language": "cs"},
    )
    emil = ctx.new_page()
    sign_in(emil, site.url(), "emil")
    # A page with no socket of its own: the bell opens the person's (which, opened late, would
    # still start from the count as it is then).
    emil.goto(f"{site.url()}/players/emil/")
    assert emil.locator(".nav-toggle-count").count() == 0

    dana = browser.new_context().new_page()
    sign_in(dana, site.url(), "dana")
    dana.goto(f"{site.url()}/players/emil/")
    dana.click("form.relation-actions button[value=follow]")
    dana.wait_for_selector("form.relation-actions button[value=unfollow]")
    assert dana.locator(".relations").get_attribute("data-followers") == "1"
    dana.screenshot(path=str(screenshots / "relations-profile-followed.png"), full_page=True)

    # Emil's open page hears of his new follower at once: the count on his menu button.
    emil.wait_for_selector(".nav-toggle-count")
    assert emil.locator(".nav-toggle-count").inner_text().startswith("1")
    assert "nových oznámení" in (emil.locator(".nav-toggle-count").text_content() or "")  # the page's words
    emil.screenshot(path=str(screenshots / "notifications-live-cs-phone.png"))
    emil.goto(f"{site.url()}/players/dana/")
    assert "Sleduje vás" in emil.locator(".relations").inner_text()
    emil.click("form.relation-actions button[value=follow]")
    emil.wait_for_selector("[data-relation=friends]")
    assert emil.locator("[data-relation=friends]").inner_text() == "Přátelé"
    emil.screenshot(path=str(screenshots / "relations-profile-friends-cs-phone.png"), full_page=True)
    emil.click("form.relation-actions button[value=block]")
    emil.wait_for_selector("form.relation-actions button[value=unblock]")
    assert emil.locator(".relations").get_attribute("data-followers") == "0"

    dana.reload()
    assert dana.locator("form.relation-actions button[value=follow]").count() == 1  # no sign of the block
    dana.click("form.relation-actions button[value=follow]")
    dana.wait_for_selector("text=This player does not accept that from you.")
    dana.screenshot(path=str(screenshots / "relations-profile-refused.png"), full_page=True)

    # Finding people: from the lobby's search, and on the phone through the menu's Players page.
    dana.goto(f"{site.url()}/lobby/")
    dana.fill("#people-q-lobby", "EM")
    dana.press("#people-q-lobby", "Enter")
    dana.wait_for_selector(".people-found a[href='/players/emil/']")
    dana.screenshot(path=str(screenshots / "relations-people-found.png"), full_page=True)
    emil.goto(f"{site.url()}/lobby/")
    go_by_header(emil, "/players/")
    emil.wait_for_selector("#blocking")
    assert emil.locator(".people-mine").inner_text().count("dana") == 1  # blocked, no longer followed
    emil.screenshot(path=str(screenshots / "relations-people-cs-phone.png"), full_page=True)
