"""A phone (390 x 844) in Chromium: the header folds behind a menu button, a replay opened at a
moment keeps its step buttons on the screen, and the list of keys leaves the hand in view during a
timed decision."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from analysis.services import analysis_run
from bench.stored_games import long_game, store_game
from tests.browser.ui import sign_in, start_against_bots, wait_loaded

PHONE = {"width": 390, "height": 844}

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _phone(browser: Any) -> Any:
    ctx = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    ctx.set_default_timeout(10_000)
    return ctx


def _header_height(page: Any) -> float:
    return page.evaluate("document.querySelector('.site-header').getBoundingClientRect().height")


def _on_screen(page: Any, selector: str) -> bool:
    box = page.locator(selector).bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"]


def test_the_header_folds_behind_a_menu_button(site: Any, browser: Any, screenshots: Path) -> None:
    base = site.url(0)
    name = f"Pia{int(time.time()) % 100000}"
    _, game = start_against_bots(base, name, bots=1)
    ctx = _phone(browser)
    page = ctx.new_page()
    page.goto(f"{base}/lobby/")
    toggle = page.locator("#nav-toggle")
    # Closed: one line (it took three, about 175 px of 844), the links out of sight.
    assert _header_height(page) < 70
    assert toggle.get_attribute("aria-expanded") == "false"
    assert page.locator('#site-menu a[href="/leaderboard/"]').is_hidden()
    page.screenshot(path=str(screenshots / "phone-header-closed-390.png"))

    toggle.click()
    assert toggle.get_attribute("aria-expanded") == "true"
    for href in ("/lobby/", "/tournaments/", "/leaderboard/", "/replays/"):
        assert page.locator(f'#site-menu a[href="{href}"]').is_visible()
    assert page.locator("#site-menu a", has_text="Sign in").is_visible()
    page.screenshot(path=str(screenshots / "phone-header-open-390.png"))
    page.locator('#site-menu a[href="/leaderboard/"]').click()
    page.wait_for_url(f"{base}/leaderboard/")
    assert page.get_attribute("#nav-toggle", "aria-expanded") == "false"  # a new page, closed

    # By keyboard: Enter opens, Tab reaches the links, Escape closes and gives the focus back.
    page.focus("#nav-toggle")
    page.keyboard.press("Enter")
    assert page.get_attribute("#nav-toggle", "aria-expanded") == "true"
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.getAttribute('href')") == "/lobby/"
    page.keyboard.press("Escape")
    assert page.get_attribute("#nav-toggle", "aria-expanded") == "false"
    assert page.evaluate("document.activeElement.id") == "nav-toggle"
    assert page.locator('#site-menu a[href="/lobby/"]').is_hidden()
    page.keyboard.press("Space")
    assert page.get_attribute("#nav-toggle", "aria-expanded") == "true"
    page.locator("main").click(position={"x": 5, "y": 5})  # a tap elsewhere closes it
    assert page.get_attribute("#nav-toggle", "aria-expanded") == "false"

    # Signed in, on the game page too (its table's link and "Sign out" are in the menu).
    sign_in(page, base, name)
    page.goto(f"{base}/games/{game}/")
    wait_loaded(page)
    assert _header_height(page) < 70
    page.click("#nav-toggle")
    assert page.locator("#site-menu a.nav-user").inner_text() == name
    assert page.locator("#site-menu button", has_text="Sign out").is_visible()
    ctx.close()

    # A wide screen keeps the links in one row, no button.
    wide = browser.new_page(viewport={"width": 1280, "height": 800})
    wide.goto(f"{base}/lobby/")
    assert wide.locator("#nav-toggle").is_hidden()
    assert wide.locator('#site-menu a[href="/leaderboard/"]').is_visible()
    assert _header_height(wide) < 70
    wide.close()

    # In Czech the button says so.
    cs = browser.new_context(viewport=PHONE, locale="cs-CZ", extra_http_headers={"Accept-Language": "cs"})
    page = cs.new_page()
    page.goto(f"{base}/")
    assert page.inner_text("#nav-toggle").strip() == "Nabídka"
    cs.close()


def test_a_moment_link_keeps_the_step_buttons_on_the_screen(
    site: Any, browser: Any, screenshots: Path
) -> None:
    stored = store_game(long_game(200, seed=5), ["ann", "bob", "cat", "dan"])
    # With its analysis: the page scrolled to the log's line again once the verdicts were drawn.
    analysis_run(stored.pk, playouts=2)
    ctx = _phone(browser)
    page = ctx.new_page()
    step = 150
    page.goto(f"{site.url(0)}/replays/{stored.pk}/?step={step}")
    page.wait_for_selector("#replay .rp-seat")
    page.wait_for_function(f"() => document.getElementById('replay').dataset.step === '{step}'")
    page.wait_for_selector("#analysis-chart svg")
    # Any scroll the page makes is done: neither the page nor the log moved over two frames.
    page.wait_for_function(
        """() => new Promise((done) => {
          const log = document.getElementById('replay-log'), at = [scrollY, log.scrollTop];
          requestAnimationFrame(() => requestAnimationFrame(
            () => done(at[0] === scrollY && at[1] === log.scrollTop)));
        })"""
    )
    # The step buttons, on the screen (the page used to scroll down to the log's line).
    for action in ("prev", "next", "play"):
        assert _on_screen(page, f'.replay-toolbar [data-action="{action}"]'), action
    # The log shows the moment's line, scrolled within itself.
    shown = page.evaluate(
        f"""() => {{ const log = document.getElementById('replay-log').getBoundingClientRect();
          const li = document.querySelector('#replay-log li[data-step="{step}"]').getBoundingClientRect();
          return li.top >= log.top - 1 && li.bottom <= log.bottom + 1; }}"""
    )
    assert shown
    page.screenshot(path=str(screenshots / "phone-replay-moment-390.png"))
    page.click('.replay-toolbar [data-action="next"]')
    assert page.get_attribute("#replay", "data-step") == str(step + 1)
    ctx.close()


def test_the_key_list_leaves_the_hand_in_view(site: Any, browser: Any, screenshots: Path) -> None:
    base = site.url(0)
    name = f"Kim{int(time.time()) % 100000}"
    _, game = start_against_bots(base, name, bots=1)
    ctx = _phone(browser)
    page = ctx.new_page()
    sign_in(page, base, name)
    page.goto(f"{base}/games/{game}/")
    wait_loaded(page)
    page.wait_for_selector("#prompt:not([hidden])[data-kind]", timeout=20_000)  # a timed decision
    page.wait_for_selector("#hand button.card")
    page.click("#keys-help")
    page.locator("#keys-panel").wait_for(state="visible")
    boxes = page.evaluate(
        """() => Object.fromEntries(
          ['keys-panel', 'hand', 'prompt', 'prompt-buttons', 'turn-info'].map((id) => {
          const r = document.getElementById(id).getBoundingClientRect();
          return [id, {top: r.top, bottom: r.bottom, left: r.left, right: r.right, height: r.height}]; }))"""
    )
    panel = boxes["keys-panel"]
    for other in ("hand", "prompt", "prompt-buttons", "turn-info"):
        box = boxes[other]
        if box["height"] == 0:
            continue
        apart = panel["bottom"] <= box["top"] or box["bottom"] <= panel["top"]
        apart = apart or panel["right"] <= box["left"] or box["right"] <= panel["left"]
        assert apart, (other, panel, box)
    hand = boxes["hand"]
    assert hand["top"] >= 0 and hand["bottom"] <= PHONE["height"], hand
    page.screenshot(path=str(screenshots / "phone-keys-390.png"))
    page.keyboard.press("Escape")
    page.locator("#keys-panel").wait_for(state="hidden")
    ctx.close()
