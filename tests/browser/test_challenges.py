"""Friends, challenges and blocks in Chromium, through a real server and worker: A and B follow
each other; A sees B come online in the lobby's friends panel, challenges B (a bot takes the third
seat), and B's open pages show the challenge at once; B's browser, subscribed to web push, gets
the challenge from the worker at the test's push service, which decrypts it as the browser would,
and B's service worker, given it through the DevTools protocol, shows it; B accepts on one of
the pages and every page of both goes to the game. C, whom A blocked, gets a clear refusal when
challenging A and never sees A online. English on a desktop, Czech on a phone (its friends panel
is in the menu)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from accounts.models import Preference
from accounts.services import user_register
from games.models import Game, Seat
from tests.browser.ui import PASSWORD, sign_in
from tests.support.browser_push import WorkerPush, push_manager_at
from tests.support.pushservice import BrowserKeys, PushService, push_service
from webpush.management.commands.vapid_keys import vapid_key_pair

DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
PUBLIC_KEY, PRIVATE_KEY = vapid_key_pair()
SITE_ENV = {
    "VAPID_PUBLIC_KEY": PUBLIC_KEY,
    "VAPID_PRIVATE_KEY": PRIVATE_KEY,
    "VAPID_SUBJECT": "mailto:push@harehra.test",
    "PUSH_SERVICE_HOSTS": "127.0.0.1",
    "PUSH_SERVICE_HTTP": "1",
}
PUSHED = {
    "en": "{name} challenges you to a game.",
    "cs": "{name} vás vyzývá ke hře.",
}

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


def subscribe_to_push(page: Any, base: str, lang: str) -> None:
    """The notifications page's switch, on: the browser subscribes and the site keeps it."""
    page.goto(f"{base}/notifications/")
    page.locator("#push-switch").wait_for(state="visible")  # the worker is ready
    page.locator("#push-switch input").check()
    done = {
        "en": "even with the site closed",
        "cs": "i když je web zavřený",
    }[lang]
    page.locator("#push-switch .push-status", has_text=done).wait_for()


def play(
    browser: Any, base: str, shots: Path, viewport: dict[str, int], lang: str, tag: str, service: PushService
) -> None:
    a_name, b_name, c_name = f"alena{tag}", f"bedrich{tag}", f"cyril{tag}"
    b_user = [user_register(username=n, password=PASSWORD) for n in (a_name, b_name, c_name)][1]
    # B chose the language: a push has no browser to ask which.
    Preference.objects.update_or_create(user=b_user, defaults={"language": lang})
    a, b, b2, c = (new_page(browser, viewport, lang) for _ in range(4))
    b_keys = BrowserKeys()
    push_manager_at(b.context, base, service.endpoint(f"push/{b_name}"), b_keys)
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

    # B's browser takes pushes: the device B accepts on is another.
    subscribe_to_push(b, base, lang)
    b.screenshot(path=shots / f"challenges-{lang}-{tag}-push-on.png")
    worker = WorkerPush(b, base)

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

    # The worker pushes the challenge to B's browser, which shows it.
    [received] = service.wait_for(1, timeout=20)
    assert received.path == f"/push/{b_name}"
    message = json.loads(b_keys.decrypt(received.body))
    challenge_url = f"/challenges/{challenge_id}/"
    assert message["title"] == "Harehra Online"
    assert message["body"] == PUSHED[lang].format(name=a_name)
    assert message["url"] == challenge_url
    worker.deliver(message)
    assert worker.wait_shown() == [
        {"title": "Harehra Online", "body": message["body"], "tag": message["tag"], "url": challenge_url}
    ]

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


@pytest.fixture
def service() -> Iterator[PushService]:
    """The push service B's browser is subscribed at (what it received is the test's own)."""
    with push_service() as s:
        yield s


def test_friends_challenge_and_block_on_a_desktop_in_english(
    browser: Any, site: Any, screenshots: Path, service: PushService
) -> None:
    play(browser, site.url(), screenshots, DESKTOP, "en", "d", service)


def test_friends_challenge_and_block_on_a_phone_in_czech(
    browser: Any, site: Any, screenshots: Path, service: PushService
) -> None:
    play(browser, site.url(), screenshots, PHONE, "cs", "p", service)
