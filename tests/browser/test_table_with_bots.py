"""The table in Chromium with one person and bots: moves made while motion runs, reduced motion,
the tab's title when a decision becomes yours in a hidden tab, the game page in Czech, and the
lobby's way back to your own running game.

The deal (tests/support/decks.py: ONE_PERSON_EVADES) gives the person three decisions a round
and no damage for twelve decisions, so every part of these tests is reached, soon, in a game
still running."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from tests.browser.ui import (
    PASSWORD,
    Player,
    api,
    english_left,
    person,
    read,
    sign_in,
    wait_loaded,
    wait_newer,
)
from tests.support.decks import ONE_PERSON_EVADES, STACKED

DESKTOP = {"width": 1280, "height": 800}
DEAL = ONE_PERSON_EVADES  # what happens, round by round, is written beside it
SITE_ENV = {"GAME_SHUFFLE": STACKED, "DECK_TOP": ",".join(DEAL.deck_top())}

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_reduced_motion_moves_during_motion_and_the_title_in_a_hidden_tab(site: Any, browser: Any) -> None:
    base = site.url(0)
    run = str(int(time.time()) % 100000)
    name = f"cleo{run}"
    token = person(base, name)
    table = api(
        base,
        token,
        "/api/tables/",
        {"seats": 3, "turn_timer": 600, "reaction_timer": 600, "discard_timer": 600},
    )
    for _ in range(2):
        api(base, token, f"/api/tables/{table['id']}/add-bot/")
    game = api(base, token, f"/api/tables/{table['id']}/start/")["current_game"]

    # Motion on: cards fly while the person keeps playing; no move waits for an animation.
    ctx = browser.new_context(viewport=DESKTOP)
    ctx.set_default_timeout(8000)
    page = ctx.new_page()
    sign_in(page, base, name)
    page.goto(f"{base}/games/{game}/")
    wait_loaded(page)
    player = Player(page, seat=0, friend=1)
    flights = 0
    moved_while_flying = 0
    end = time.monotonic() + 40
    while time.monotonic() < end and not read(page)["over"] and player.moves < 6:
        flying = page.locator("#fx .flying-card").count()
        flights = max(flights, flying)
        if read(page)["kind"]:
            seq = read(page)["seq"]
            player.act()
            if flying or page.locator("#fx .flying-card").count():
                moved_while_flying += int(read(page)["seq"] > seq)
        else:
            wait_newer(page)  # the next move or decision, or half a second
    assert player.moves >= 6 and not read(page)["over"], (player.moves, read(page))
    assert flights > 0, "no card was seen travelling"
    assert moved_while_flying > 0, "no move was made while cards were moving"
    ctx.close()

    # Reduced motion: nothing travels, and the game still plays.
    ctx = browser.new_context(viewport=DESKTOP, reduced_motion="reduce")
    ctx.set_default_timeout(8000)
    page = ctx.new_page()
    sign_in(page, base, name)
    page.goto(f"{base}/games/{game}/")
    wait_loaded(page)
    page.evaluate("""() => {
        window.__flew = 0;
        new MutationObserver((m) => { for (const r of m) window.__flew += r.addedNodes.length; })
          .observe(document.getElementById('fx'), {childList: true});
    }""")
    player = Player(page, seat=0, friend=1)
    end = time.monotonic() + 20
    seq = read(page)["seq"]
    while time.monotonic() < end and not read(page)["over"] and player.moves < 3:
        if not player.act():
            wait_newer(page)  # the next move or decision, or half a second
    ui = read(page)
    assert player.moves >= 3 and ui["seq"] > seq and not ui["over"], (player.moves, ui)
    assert page.evaluate("window.__flew") == 0
    assert page.evaluate("matchMedia('(prefers-reduced-motion: reduce)').matches")
    assert page.evaluate("document.getAnimations().length") == 0  # no CSS animation runs either

    # A hidden tab: when a decision becomes this player's, the title and the icon say so.
    page.evaluate("""() => {
        Object.defineProperty(document, 'hidden', {configurable: true, get: () => true});
        Object.defineProperty(document, 'visibilityState', {configurable: true, get: () => 'hidden'});
        document.dispatchEvent(new Event('visibilitychange'));
        window.__titles = [document.title];
        new MutationObserver(() => window.__titles.push(document.title)).observe(
          document.querySelector('title'), {childList: true, characterData: true, subtree: true});
    }""")
    end = time.monotonic() + 30
    while time.monotonic() < end and not read(page)["over"]:
        titles = page.evaluate("window.__titles")
        if any(not t.startswith("●") for t in titles) and titles[-1].startswith("●"):
            break
        if not player.act():
            wait_newer(page)  # the next move or decision, or half a second
    titles = page.evaluate("window.__titles")
    assert any(not t.startswith("●") for t in titles) and titles[-1].startswith("●"), titles
    assert page.get_attribute("#favicon", "href").endswith("/static/img/turn.svg")
    ctx.close()


def test_the_game_page_in_czech_has_no_english_left_but_names(
    site: Any, browser: Any, screenshots: Path
) -> None:
    base = site.url(0)
    name = f"dana{int(time.time()) % 100000}"
    token = person(base, name)
    table = api(base, token, "/api/tables/", {"seats": 3, "turn_timer": 600, "reaction_timer": 600})
    for _ in range(2):
        api(base, token, f"/api/tables/{table['id']}/add-bot/")
    game = api(base, token, f"/api/tables/{table['id']}/start/")["current_game"]
    ctx = browser.new_context(viewport=DESKTOP, locale="cs-CZ", extra_http_headers={"Accept-Language": "cs"})
    ctx.set_default_timeout(8000)
    page = ctx.new_page()
    page.goto(f"{base}/accounts/login/")
    assert page.get_attribute("html", "lang") == "cs"
    page.fill("#id_username", name)
    page.fill("#id_password", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url(f"{base}/lobby/")
    page.goto(f"{base}/games/{game}/")
    wait_loaded(page)
    player = Player(page, seat=0, friend=1)
    end = time.monotonic() + 25
    while time.monotonic() < end and player.moves < 4 and not read(page)["over"]:
        if not player.act():
            wait_newer(page)  # the next move or decision, or half a second
    page.wait_for_function(
        "() => document.getElementById('game').dataset.mine !== '' || !document.getElementById('end').hidden"
    )
    page.screenshot(path=str(screenshots / "table-desktop-czech.png"))
    text = page.inner_text("body")
    assert "Průběh hry" in text
    assert english_left(text) == []
    # Single words the sentence check cannot catch: the bots' levels in their names (the socket
    # sends the server's labels whatever the reader's language), the seats' labels, and the word
    # on the button of a turn with nothing to play.
    names = page.locator("#players .seat-name-text").all_inner_texts()
    assert sorted(n for n in names if n.startswith("Bot")) == ["Bot 2 · běžný", "Bot 3 · běžný"], names
    labels = page.locator("#players .presence, #me .presence").all_inner_texts()
    assert labels.count("počítač") == 2 and not {"bot", "online", "offline"} & set(labels), labels
    assert page.evaluate("gettext('Pass')") == "Pasovat"
    assert not any(word in text for word in ("· easy", "· normal", "· hard", "online", "offline")), text
    ctx.close()


def test_the_lobby_offers_your_own_running_game_to_go_back_to(site: Any, browser: Any) -> None:
    base = site.url(0)
    name = f"Eve{int(time.time()) % 100000}"
    token = person(base, name)
    table = api(base, token, "/api/tables/", {"seats": 2, "turn_timer": 600, "reaction_timer": 600})
    api(base, token, f"/api/tables/{table['id']}/add-bot/")
    game = api(base, token, f"/api/tables/{table['id']}/start/")["current_game"]
    watcher = browser.new_page()
    watcher.goto(f"{base}/lobby/")
    row = f".table-item[data-table='{table['id']}'] a.watch-link"
    watcher.wait_for_selector(row)
    assert watcher.get_attribute(row, "href") == f"/watch/{game}/"  # someone else watches
    ctx = browser.new_context()
    ctx.set_default_timeout(8000)
    page = ctx.new_page()
    sign_in(page, base, name)
    page.wait_for_selector(f"{row}.mine")
    assert page.get_attribute(row, "href") == f"/games/{game}/"
    assert page.inner_text(row) == "Back to your game"
    watcher.close()
    ctx.close()
