"""Friends, challenges and blocks in Chromium, through a real server and worker: A and B follow
each other; A sees B come online in the lobby's friends panel, challenges B (a bot takes the third
seat), and B's open pages show the challenge at once; B accepts on one of them and every page of
both goes to the game. C, whom A blocked, gets a clear refusal when challenging A and never sees A
online. English on a desktop, Czech on a phone (its friends panel is in the menu)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from accounts.services import user_register
from games.models import Game, Seat
from tests.browser.ui import PASSWORD, sign_in

REDIS_DB = 12
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def new_page(browser: Any, viewport: dict[str, int], lang: str) -> Any:
    options: dict[str, Any] = {"viewport": viewport}
    if viewport == PHONE:
        options |= {"has_touch": True, "is_mobile": True}
    if lang == "cs":
        options |= {"locale": "cs-CZ", "extra_http_headers": {"Accept-Language": "cs"}}
    return browser.new_context(**options).new_page()


def click_relation(page: Any, base: str, name: str, action: str) -> None:
    page.goto(f"{base}/players/{name}/")
    with page.expect_navigation():
        page.click(f"button[name=action][value={action}]")


def open_friends(page: Any) -> Any:
    """The friends panel: the lobby's, or on a phone the one in the menu (opened first)."""
    toggle = page.locator("#nav-toggle")
    if toggle.is_visible():
        if toggle.get_attribute("aria-expanded") != "true":
            toggle.click()
        return page.locator(".nav-friends")
    return page.locator(".lobby-friends")


def play(browser: Any, base: str, shots: Path, viewport: dict[str, int], lang: str, tag: str) -> None:
    a_name, b_name, c_name = f"alena{tag}", f"bedrich{tag}", f"cyril{tag}"
    for name in (a_name, b_name, c_name):
        user_register(username=name, password=PASSWORD)
    a, b, b2, c = (new_page(browser, viewport, lang) for _ in range(4))
    sign_in(a, base, a_name)
    assert a.get_attribute("html", "lang") == lang
    click_relation(a, base, b_name, "follow")
    click_relation(a, base, c_name, "block")

    # A's lobby is open while B comes online: the panel says so at once.
    a.goto(f"{base}/lobby/")
    panel = open_friends(a)
    panel.locator(".friends-none").wait_for()
    sign_in(b, base, b_name)
    click_relation(b, base, a_name, "follow")  # friends now: B, online, is on A's panel at once
    panel = open_friends(a)
    friend = panel.locator(f'.friend[data-name="{b_name}"]')
    friend.wait_for(timeout=10_000)
    a.screenshot(path=shots / f"challenges-{lang}-{tag}-friend-online.png", full_page=viewport == DESKTOP)

    # B has a second page open elsewhere on the site (no socket of its own: the person's own).
    b2.context.add_cookies(b.context.cookies())
    b2.goto(f"{base}/replays/")
    b.goto(f"{base}/lobby/")
    unread = int(b2.locator(".nav-bell").get_attribute("data-unread") or 0)

    friend.locator('a[href^="/challenges/new/"]').click()
    a.wait_for_url(re.compile(r"/challenges/new/"))
    assert a.input_value("#id_people") == b_name
    a.select_option("#id_seats", "3")
    a.screenshot(path=shots / f"challenges-{lang}-{tag}-form.png", full_page=True)
    a.click("#challenge-form button[type=submit]")
    a.wait_for_url(re.compile(r"/challenges/\d+/$"))
    challenge_id = int(a.url.rstrip("/").split("/")[-1])

    for page in (b, b2):
        offer = page.locator(f'.challenge-offer[data-challenge="{challenge_id}"]')
        offer.wait_for(timeout=10_000)
        assert a_name in offer.inner_text()
    b2.screenshot(path=shots / f"challenges-{lang}-{tag}-offer.png")
    assert int(b2.locator(".nav-bell").get_attribute("data-unread") or 0) == unread + 1  # and a notification
    a.screenshot(path=shots / f"challenges-{lang}-{tag}-waiting.png", full_page=True)

    b2.locator(f'.challenge-offer[data-challenge="{challenge_id}"] .challenge-accept').click()
    game_url = re.compile(r"/games/\d+/$")
    for page in (a, b, b2):
        page.wait_for_url(game_url, timeout=15_000)
    game = Game.objects.get(pk=int(a.url.rstrip("/").split("/")[-1]))
    seats = list(
        Seat.objects.filter(table=game.table).order_by("number").values_list("user__username", "is_bot")
    )
    assert seats == [(a_name, False), (b_name, False), (None, True)]
    assert b.url == a.url == b2.url
    b.wait_for_selector("#game[data-loading='']", timeout=15_000)
    b.screenshot(path=shots / f"challenges-{lang}-{tag}-at-the-table.png")

    # C, blocked by A: never sees A online, and a challenge is refused in words.
    sign_in(c, base, c_name)
    c.goto(f"{base}/players/?q={a_name}")
    row = c.locator(f'.people-list li[data-name="{a_name}"]')
    row.wait_for()
    assert row.locator(".online-dot").count() == 0
    c.goto(f"{base}/players/?q={b_name}")
    assert c.locator(f'.people-list li[data-name="{b_name}"] .online-dot').count() == 1  # B is seen online
    c.goto(f"{base}/challenges/new/?to={a_name}")
    c.select_option("#id_seats", "3")
    c.click("#challenge-form button[type=submit]")
    error = c.locator(".form-errors")
    error.wait_for()
    words = error.inner_text()
    expected = (
        "Tento hráč od vás výzvy nepřijímá."
        if lang == "cs"
        else "This player does not accept challenges from you."
    )
    assert expected in words, words
    c.screenshot(path=shots / f"challenges-{lang}-{tag}-refused.png", full_page=True)
    for page in (a, b, b2, c):
        page.context.close()


def test_friends_challenge_and_block_on_a_desktop_in_english(
    browser: Any, site: Any, screenshots: Path
) -> None:
    play(browser, site.url(), screenshots, DESKTOP, "en", "d")


def test_friends_challenge_and_block_on_a_phone_in_czech(browser: Any, site: Any, screenshots: Path) -> None:
    play(browser, site.url(), screenshots, PHONE, "cs", "p")
