"""The replay viewer and live watching in Chromium, against a real server process."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

import pytest

from tests.support.decks import SEAT_ZERO_SKIPPED, STACKED
from tests.support.stack import Stack
from tests.support.stored_games import long_game, store_game

pytestmark = [pytest.mark.browser]
REDIS_DB = 11
# The live game's deal (the stored games are dealt in this process): the bots play sixteen turns
# before the away host's seat is first asked anything, so the game moves at the bots' pace.
SITE_ENV = {"GAME_SHUFFLE": STACKED, "DECK_TOP": ",".join(SEAT_ZERO_SKIPPED.deck_top())}


def _stored_game(min_events: int = 300) -> Any:
    return store_game(long_game(min_events, seed=3), ["ann", "bob", "cat", "dan"])


def _step(page: Any) -> int:
    return int(page.get_attribute("#replay", "data-step"))


def _frames(site: Stack, game_id: int, perspective: str = "all") -> list[dict[str, Any]]:
    with urllib.request.urlopen(f"{site.url()}/api/replays/{game_id}/frames/?perspective={perspective}") as r:
        return json.loads(r.read())["frames"]


def _open(browser: Any, url: str) -> Any:
    page = browser.new_page()
    page.goto(url)
    page.wait_for_selector("#replay .rp-seat")
    return page


def test_step_through_a_replay_by_keyboard_and_slider(site: Stack, browser: Any, screenshots: Any) -> None:
    game = _stored_game()
    frames = _frames(site, game.pk)
    turns = [f["step"] for f in frames if f["event"]["type"] == "TurnStarted"]
    page = _open(browser, f"{site.url()}/replays/{game.pk}/")
    assert "Replay:" in page.title()
    assert page.get_attribute('meta[property="og:description"]', "content")
    assert _step(page) == 0
    page.locator("body").click(position={"x": 5, "y": 5})
    page.keyboard.press("ArrowRight")
    assert _step(page) == 1
    assert page.inner_text("#replay-event") == frames[1]["text"]
    page.keyboard.press("Shift+ArrowRight")
    assert _step(page) == turns[1]
    page.keyboard.press("PageDown")
    assert _step(page) == turns[2]
    page.keyboard.press("PageUp")
    assert _step(page) == turns[1]
    page.keyboard.press("ArrowLeft")
    assert _step(page) == turns[1] - 1
    page.keyboard.press("End")
    assert _step(page) == len(frames) - 1
    assert page.inner_text("#replay-event") == frames[-1]["text"]
    page.keyboard.press("Home")
    assert _step(page) == 0
    # The slider, the log and the chart jump too.
    page.locator("#replay-slider").fill("40")
    assert _step(page) == 40
    assert page.inner_text("#replay-event") == frames[40]["text"]
    assert page.get_attribute("#replay-log li.rp-current", "data-step") == "40"
    page.locator('#replay-log li[data-step="12"]').click()
    assert _step(page) == 12
    chart = page.locator("#replay-chart svg")
    chart.scroll_into_view_if_needed()
    box = chart.bounding_box()
    chart.click(position={"x": box["width"] * 0.5, "y": box["height"] / 2})
    assert abs(_step(page) - round(0.5 * (len(frames) - 1))) <= 2
    # Play and pause with the space bar.
    page.locator("body").click(position={"x": 5, "y": 5})
    page.keyboard.press("Home")
    page.keyboard.press("Space")
    page.wait_for_function("() => document.querySelector('#replay').dataset.step !== '0'", timeout=5000)
    page.keyboard.press("Space")
    assert page.get_attribute("#replay-play", "aria-pressed") == "false"
    # Every hand is shown for a finished game by default.
    page.keyboard.press("End")
    assert (
        page.locator(".rp-hand").count()
        + page.locator(".rp-hidden").count()
        + page.locator(".rp-seat.eliminated").count()
        == 4
    )
    # One describer: the viewer's log says every step as the server's frames do.
    assert page.locator("#replay-log li").all_inner_texts() == [f["text"] for f in frames]
    assert page.locator(".rp-seat .card-art").count() > 0  # the table shows the card art
    page.screenshot(path=str(screenshots / "replay-viewer.png"), full_page=True)
    page.close()


def test_shared_step_link_and_perspectives(site: Stack, browser: Any) -> None:
    game = _stored_game()
    frames = _frames(site, game.pk, "seat:1")
    page = _open(browser, f"{site.url()}/replays/{game.pk}/?step=25&perspective=seat:1")
    assert _step(page) == 25
    assert page.get_attribute("#replay", "data-perspective") == "seat:1"
    assert page.inner_text("#replay-event") == frames[25]["text"]
    # Only seat 1's hand is shown, and as it was then.
    hands = page.locator(".rp-hand")
    assert hands.count() == 1 and hands.first.get_attribute("data-seat") == "1"
    shown = [li.get_attribute("data-card") for li in hands.first.locator("li").all()]
    assert shown == frames[25]["state"]["hand"]
    # Switch perspective: the step stays, the hands follow.
    page.select_option("#replay-perspective", "spectator")
    page.wait_for_function("() => document.querySelector('#replay').dataset.perspective === 'spectator'")
    assert _step(page) == 25 and page.locator(".rp-hand").count() == 0
    page.select_option("#replay-perspective", "all")
    page.wait_for_function("() => document.querySelector('#replay').dataset.perspective === 'all'")
    assert page.locator(".rp-hand").count() >= 1 and _step(page) == 25
    page.locator("body").click(position={"x": 5, "y": 5})
    page.keyboard.press("ArrowRight")
    link = page.input_value("#replay-link")
    assert "step=26" in link and "perspective=all" in link
    page.click("#replay-copy")
    page.wait_for_selector("#replay-copied:text('copied')")
    other = _open(browser, link)
    assert _step(other) == 26 and other.get_attribute("#replay", "data-perspective") == "all"
    other.close()
    page.close()


def _api(site: Stack, path: str, body: Any = None, token: str | None = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(f"{site.url()}{path}", data=data, method="POST" if data else "GET")
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Token {token}")
    with urllib.request.urlopen(request) as r:
        return json.loads(r.read())


def test_watch_a_live_game_as_a_spectator(site: Stack, browser: Any, screenshots: Any) -> None:
    token = _api(site, "/api/accounts/register/", {"username": "hosty", "password": "correct-horse-battery"})[
        "token"
    ]
    table = _api(site, "/api/tables/", {"seats": 4, "turn_timer": 5}, token)
    # The host's own seat is played by a bot too: leave it to a bot by adding bots everywhere else,
    # then start; the host is away, so the timer's autopilot (and soon a bot) plays seat 0, once
    # the deal asks it anything (SEAT_ZERO_SKIPPED: not in the first sixteen turns).
    for _ in range(3):
        _api(site, f"/api/tables/{table['id']}/add-bot/", {}, token)
    started = _api(site, f"/api/tables/{table['id']}/start/", {}, token)
    game_id = started["current_game"]
    page = _open(browser, f"{site.url()}/watch/{game_id}/")
    first = _step(page)
    # Bots move: the table follows live.
    page.wait_for_function(
        f"() => Number(document.querySelector('#replay').dataset.step) > {first + 3}", timeout=60_000
    )
    assert page.locator(".rp-hand").count() == 0  # a spectator sees no hand
    page.wait_for_function(
        "() => Number(document.querySelector('#watch-count').dataset.count) >= 1", timeout=15_000
    )
    # Step back through the events so far; new events do not move the view; back to live.
    page.locator("body").click(position={"x": 5, "y": 5})
    page.keyboard.press("Home")
    assert _step(page) == 0
    assert page.is_visible("#watch-live")
    seen = int(page.get_attribute("#replay-slider", "max") or 0)
    page.wait_for_function(  # a new event arrives while the viewer looks back
        f"() => Number(document.querySelector('#replay-slider').max) > {seen}", timeout=15_000
    )
    assert _step(page) == 0
    page.click("#watch-live")
    page.wait_for_function(
        "() => Number(document.querySelector('#replay').dataset.step) === "
        "Number(document.querySelector('#replay-slider').max)"
    )
    options = page.locator("#replay-perspective option")
    assert options.count() == 1 and options.first.get_attribute("value") == "spectator"
    page.screenshot(path=str(screenshots / "replay-watch.png"), full_page=True)
    page.close()


def test_a_private_tables_invitee_watches_from_the_invite_link(
    site: Stack, browser: Any, screenshots: Any
) -> None:
    """Someone with the invite link and no seat presses "Watch the game" and watches, on the game
    page and the watch page, as a spectator (their browser's session keeps the invite)."""
    token = _api(site, "/api/accounts/register/", {"username": "hostp", "password": "correct-horse-battery"})[
        "token"
    ]
    table = _api(site, "/api/tables/", {"seats": 4, "turn_timer": 5, "visibility": "private"}, token)
    for _ in range(3):
        _api(site, f"/api/tables/{table['id']}/add-bot/", {}, token)
    game_id = _api(site, f"/api/tables/{table['id']}/start/", {}, token)["current_game"]
    context = browser.new_context()
    page = context.new_page()
    assert page.goto(f"{site.url()}/watch/{game_id}/").status == 404  # not without the invite
    page.goto(f"{site.url()}/tables/{table['id']}/?invite={table['invite_code']}")
    page.click("#go-to-game")
    page.wait_for_url(f"**/games/{game_id}/")
    page.wait_for_selector("#game[data-loading='']", timeout=15_000)
    seq = int(page.get_attribute("#game", "data-seq") or 0)
    page.wait_for_function(  # the live socket follows the bots' moves
        f"() => Number(document.getElementById('game').dataset.seq || 0) > {seq}", timeout=60_000
    )
    assert page.locator("#hand button.card").count() == 0  # a spectator holds no hand
    page.screenshot(path=str(screenshots / "invitee-game.png"), full_page=True)
    page.goto(f"{site.url()}/watch/{game_id}/")
    page.wait_for_selector("#replay .rp-seat")
    first = _step(page)
    page.wait_for_function(
        f"() => Number(document.querySelector('#replay').dataset.step) > {first}", timeout=60_000
    )
    page.screenshot(path=str(screenshots / "invitee-watch.png"), full_page=True)
    context.close()
