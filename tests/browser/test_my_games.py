"""My games and a slow game's page in Chromium, through a real server: Ann plays three slow games
(a decision a day), one awaiting her, one awaiting Ben, one finished lately. She opens My games
from the header's menu: the game awaiting her comes first, marked, with the time left; the others
say whose decision it is. She takes a holiday on the page and goes to the game awaiting her: its
turn line says it is hers until when (past the holiday), its chat that she is on holiday until
when. The game awaiting Ben says it is his until when. English and Czech, each on a desktop and
on a phone (the link is in the menu there); screenshots in test-output/screenshots/my-games-*.png."""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

import pytest

from accounts.services import user_register
from tests.browser.ui import PASSWORD, english_left, go_by_header, sign_in, wait_loaded
from tests.factories import play_out
from tests.games.slow_tables import play_until_awaits, slow_game

REDIS_DB = 13
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
WORDS = {
    "en": {
        "yours": "Your decision",
        "waiting": "Waiting for",
        "pace": "Slow · 1 day a decision",
        "holiday": "You are on holiday until",
        "chat": "is on holiday until",
        "play": "Play",
        "until": "until",
    },
    "cs": {
        "yours": "Vaše rozhodnutí",
        "waiting": "Čeká se na",
        "pace": "Pomalá · 1 den na rozhodnutí",
        "holiday": "Máte dovolenou do",
        "chat": "má dovolenou do",
        "play": "Hrát",
        "until": "do",
    },
}

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _page(browser: Any, viewport: dict[str, int], lang: str) -> Any:
    options: dict[str, Any] = {"viewport": viewport}
    if viewport == PHONE:
        options |= {"has_touch": True, "is_mobile": True}
    if lang == "cs":
        options |= {"locale": "cs-CZ", "extra_http_headers": {"Accept-Language": "cs"}}
    context = browser.new_context(**options)
    context.set_default_timeout(15_000)
    return context.new_page()


def look(browser: Any, base: str, screenshots: Path, viewport: dict[str, int], lang: str) -> None:
    stamp = int(time.time() * 1000) % 10_000_000
    names = ("Ann", "Ben", "Cara")
    ann, ben, cara = (user_register(username=f"{n}{stamp}", password=PASSWORD) for n in names)
    mine = play_until_awaits(slow_game([ann, ben, cara]), ann, waits=True)
    theirs = play_until_awaits(slow_game([ben, ann]), ben, waits=True)
    play_out(slow_game([ann, cara]), random.Random(7))
    words, shot = WORDS[lang], f"my-games-{'desktop' if viewport == DESKTOP else 'phone'}-{lang}"

    page = _page(browser, viewport, lang)
    sign_in(page, base, ann.username)
    go_by_header(page, "/games/mine/")
    page.wait_for_url(f"{base}/games/mine/")
    if viewport == DESKTOP:  # the header's links, "My games" among them, keep to one row
        assert page.evaluate("document.querySelector('.site-header').getBoundingClientRect().height") < 70
    cards = page.locator("#my-games > li")
    assert cards.count() == 2
    first = cards.nth(0)
    assert first.get_attribute("data-game") == str(mine.pk) and first.get_attribute("data-yours") == "true"
    assert words["yours"] in first.inner_text() and words["pace"] in first.inner_text()
    assert first.locator("a.button").inner_text() == words["play"]
    second = page.locator(f'#my-games > li[data-game="{theirs.pk}"]')
    assert words["waiting"] in second.inner_text() and ben.username in second.inner_text()
    assert page.locator("#my-games-finished > li").count() == 1
    if lang == "cs":
        assert english_left(page.locator("main").inner_text()) == []
    page.screenshot(path=str(screenshots / f"{shot}.png"), full_page=True)

    page.fill("#holiday-days", "3")
    with page.expect_navigation():
        page.locator("#holiday button[type=submit]").click()
    assert words["holiday"] in page.locator("#holiday-on").inner_text()
    page.screenshot(path=str(screenshots / f"{shot}-holiday.png"), full_page=True)

    with page.expect_navigation():
        first.locator("a.my-game-link").click()
    wait_loaded(page)
    # The turn line: hers, until a day and a time (no count of seconds), past the holiday.
    line = page.locator("#turn-text")
    assert f" · {words['until']} " in line.inner_text() and "second" not in line.inner_text()
    assert line.evaluate("e => e.scrollWidth <= e.clientWidth"), "the turn line is cut"
    notice = page.locator("#chat-log li.chat-notice").first
    notice.wait_for()
    assert words["chat"] in notice.inner_text()
    page.locator("#log li").first.wait_for()  # the game's log, read after the page opens
    if lang == "cs":
        assert english_left(page.locator("main").inner_text()) == []
    page.screenshot(path=str(screenshots / f"{shot}-game.png"), full_page=viewport == DESKTOP)
    if viewport == PHONE:  # the chat is far below the table there
        notice.scroll_into_view_if_needed()
        page.screenshot(path=str(screenshots / f"{shot}-game-chat.png"))

    # Ben's decision, as Ann sees it: whose it is and until when.
    page.goto(f"{base}/games/{theirs.pk}/")
    wait_loaded(page)
    page.locator("#log li").first.wait_for()
    said = line.inner_text()
    assert said.startswith(ben.username), said
    assert f" · {words['until']} " in said, said
    assert line.evaluate("e => e.scrollWidth <= e.clientWidth"), "the turn line is cut"
    if lang == "cs":
        assert english_left(page.locator("main").inner_text()) == []
    page.screenshot(path=str(screenshots / f"{shot}-theirs.png"), full_page=viewport == DESKTOP)
    page.context.close()


def test_my_games_on_a_desktop_in_english(site: Any, browser: Any, screenshots: Path) -> None:
    look(browser, site.url(0), screenshots, DESKTOP, "en")


def test_my_games_on_a_desktop_in_czech(site: Any, browser: Any, screenshots: Path) -> None:
    look(browser, site.url(0), screenshots, DESKTOP, "cs")


def test_my_games_on_a_phone_in_english(site: Any, browser: Any, screenshots: Path) -> None:
    look(browser, site.url(0), screenshots, PHONE, "en")


def test_my_games_on_a_phone_in_czech(site: Any, browser: Any, screenshots: Path) -> None:
    look(browser, site.url(0), screenshots, PHONE, "cs")
