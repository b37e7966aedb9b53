"""Aiming on the table in Chromium: after choosing Hare Cumi the opponents' seats are the targets
(a protected seat says why it is not one), and a volley shows on the table whom it is aimed at,
for the player, a spectator on the watch page and the replay viewer.

The deal (tests/support/decks.py: AIM_ON_THE_TABLE): bot 1 plays Hare looking right (protected),
bot 2 aims its Hare Cumi at the person, who evades it; bot 3 plays Hare Zada; then the person's
turn, with bots 2 and 3 as targets and bot 1 protected."""

from __future__ import annotations

import json
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from bench.stored_games import long_game, store_game
from tests.browser.ui import read, sign_in, start_against_bots, wait_loaded
from tests.support.decks import AIM_ON_THE_TABLE, STACKED

DESKTOP = {"width": 1280, "height": 800}
DEAL = AIM_ON_THE_TABLE  # what happens, turn by turn, is written beside it
SITE_ENV = {"GAME_SHUFFLE": STACKED, "DECK_TOP": ",".join(DEAL.deck_top())}

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SEATS = """() => Array.from(document.querySelectorAll('#players .seat')).map(s => ({
  seat: Number(s.dataset.seat), aim: s.dataset.aim || '', title: s.title, label: s.getAttribute('aria-label'),
  badge: (s.querySelector('.aim-badge') || {}).textContent || '' }))"""


def line(page: Any) -> dict[str, str] | None:
    return page.evaluate(
        """() => { const l = document.querySelector('svg.volley-line');
          return l ? {attacker: l.dataset.attacker, target: l.dataset.target} : null; }"""
    )


def test_aim_by_the_seats_and_the_volley_shown_to_player_spectator_and_replay(
    site: Any, browser: Any, screenshots: Path
) -> None:
    base = site.url(0)
    name = f"carol_n{int(time.time()) % 100000}"
    _, game = start_against_bots(base, name, bots=3)

    ctx = browser.new_context(viewport=DESKTOP)
    ctx.set_default_timeout(10_000)
    page = ctx.new_page()
    sign_in(page, base, name)
    page.goto(f"{base}/games/{game}/")
    wait_loaded(page)
    watch = browser.new_page(viewport=DESKTOP)
    watch.set_default_timeout(10_000)
    watch.goto(f"{base}/watch/{game}/")

    # Bot 2 aims its Hare Cumi at the person: the person's own seat says so, with an arrow from bot 2...
    page.wait_for_selector("#prompt[data-kind='volley']")
    mine = page.locator("#me .seat.aimed")
    assert mine.get_attribute("data-aimed") == "1"
    assert mine.locator(".aimed-badge").inner_text() == "Aimed at"
    assert "Bot 3 · normal aims Hare Cumi at" in (mine.get_attribute("title") or "")
    assert line(page) == {"attacker": "2", "target": "0"}
    page.screenshot(path=str(screenshots / "aim-volley-at-me-1280x800.png"))
    # ...and so does the spectator's table.
    watch.wait_for_selector("#replay .rp-seat.aimed[data-seat='0']")
    assert line(watch) == {"attacker": "2", "target": "0"}
    watch.screenshot(path=str(screenshots / "aim-volley-watch-1280x800.png"))

    page.click("#hand button.card[data-card='taptap']")  # evade
    page.wait_for_selector("#prompt[data-kind='turn']")
    assert page.locator(".seat.aimed").count() == 0 and line(page) is None
    watch.wait_for_selector("#replay .rp-seat.aimed", state="detached")

    # Choosing Hare Cumi makes the opponents' seats the targets; the protected one says why not.
    assert page.locator("#players .seat[data-aim]").count() == 0
    page.click("#hand button.card[data-card='cumi']")
    page.wait_for_selector("#players .seat[data-aim='ok']")
    seats = {s["seat"]: s for s in page.evaluate(SEATS)}
    assert {s: seats[s]["aim"] for s in seats} == {1: "protected", 2: "ok", 3: "ok"}
    assert seats[1]["badge"] == "Protected"
    assert "protected from moral damage until their next turn: not a target" in seats[1]["title"]
    assert seats[1]["title"] in seats[1]["label"]  # said to screen readers too
    assert seats[3]["badge"] == "Aim here" and seats[3]["title"] == "Aim your Hare Cumi at Bot 4 · normal"
    assert "Protected: Bot 2 · normal." in page.inner_text("#prompt-text")
    # The target buttons stay, one per legal target, each naming its seat.
    targets = page.locator("#prompt-buttons button[data-action^='target-']")
    assert [targets.nth(i).get_attribute("data-seat") for i in range(targets.count())] == ["2", "3"]
    page.screenshot(path=str(screenshots / "aim-choose-1280x800.png"))

    # A protected seat cannot be aimed at: pressing it sends nothing and says why.
    seq = read(page)["seq"]
    page.click("#players .seat[data-seat='1']")
    tip = page.locator("#card-tip")
    tip.wait_for(state="visible")
    assert "protected from moral damage" in tip.inner_text()
    assert read(page)["seq"] == seq and page.locator("#players .seat[data-aim='ok']").count() == 2

    # Pressing a target's seat aims the chosen Hare Cumi at it.
    page.click("#players .seat[data-seat='3']")
    page.wait_for_selector("#log li:has-text('You played Hare Cumi at Bot 4 · normal')")
    assert page.locator("#players .seat[data-aim]").count() == 0

    # Once bot 3 has answered, the spectator steps back to the moment it was asked: the table
    # shows the volley at it.
    watch.wait_for_selector("#replay-log li:has-text('Bot 4 · normal evaded with Hare Taptap')")
    watch.locator("#replay-log li", has_text="Bot 4 · normal must answer Hare Cumi from").click()
    watch.wait_for_selector("#watch-live", state="visible")  # stepped back: new events leave it there
    watch.wait_for_selector("#replay .rp-seat.aimed[data-seat='3']")
    assert line(watch) == {"attacker": "0", "target": "3"}
    assert watch.get_attribute("#replay .rp-seat.aimed", "aria-label").endswith(
        f"{name} aims Hare Cumi at Bot 4 · normal"
    )
    watch.screenshot(path=str(screenshots / "aim-volley-watch-stepped-back-1280x800.png"))
    watch.close()
    ctx.close()


def test_the_replay_viewer_shows_each_volley_aimed(site: Any, browser: Any, screenshots: Path) -> None:
    game = store_game(long_game(200, seed=5), ["ann", "bob", "cat", "dan"])
    with urllib.request.urlopen(f"{site.url()}/api/replays/{game.pk}/frames/?perspective=all") as r:
        frames = json.loads(r.read())["frames"]
    asked = [f for f in frames if f["event"]["type"] == "VolleyPending"]
    assert asked, "the stored game has no volley"
    f = asked[0]
    shooter, target, count = f["event"]["attacker"], f["event"]["target"], f["event"]["count"]
    page = browser.new_page(viewport=DESKTOP)
    page.goto(f"{site.url()}/replays/{game.pk}/?step={f['step']}")
    tile = page.locator(f"#replay .rp-seat.aimed[data-seat='{target}']")
    tile.wait_for()
    assert tile.get_attribute("data-aimed") == str(count)
    assert page.locator("#replay .rp-seat.aimed").count() == 1
    assert page.locator(f"#replay .rp-seat.aiming[data-seat='{shooter}']").count() == 1
    assert line(page) == {"attacker": str(shooter), "target": str(target)}
    page.screenshot(path=str(screenshots / "aim-replay-1280x800.png"))
    # A step later the answer has come: no volley is shown.
    page.locator("body").click(position={"x": 5, "y": 5})
    page.keyboard.press("ArrowRight")
    page.wait_for_selector("#replay .rp-seat.aimed", state="detached")
    assert line(page) is None
    page.close()


FOCUS = """() => { const a = document.activeElement;
  if (!a || a === document.body) return '';
  return a.dataset.card ? `${a.dataset.card}#${a.dataset.index}`
    : (a.dataset.action || a.id || a.tagName); }"""
LIT = "() => Array.from(document.querySelectorAll('.seat.aim-focus')).map(s => s.dataset.seat)"


def focused(page: Any) -> str:
    return str(page.evaluate(FOCUS))


def keys(page: Any, *presses: str) -> list[str]:
    """Press each key in turn; where the focus is after each."""
    out = []
    for key in presses:
        page.keyboard.press(key)
        out.append(focused(page))
    return out


def test_a_whole_turn_by_keyboard_alone_aim_included(site: Any, browser: Any, screenshots: Path) -> None:
    base = site.url(0)
    name = f"kit{int(time.time()) % 100000}"
    _, game = start_against_bots(base, name, bots=3)
    ctx = browser.new_context(viewport=DESKTOP)
    ctx.set_default_timeout(10_000)
    page = ctx.new_page()
    sign_in(page, base, name)
    page.goto(f"{base}/games/{game}/")
    wait_loaded(page)

    # A volley arrives: the focus moves to it, on the card that answers it (hand: Taptap, Cumi,
    # Cumi, House, Taptap). Tab follows the decision: the cards, then "take it".
    page.wait_for_selector("#prompt[data-kind='volley']")
    page.wait_for_function("() => document.activeElement.dataset.card === 'taptap'")
    assert focused(page) == "taptap#0"
    tabbed = keys(page, "Tab", "Tab", "Tab", "Tab", "Tab")
    assert tabbed == ["cumi#1", "cumi#2", "house#3", "taptap#4", "decline"]
    assert keys(page, "ArrowUp", "ArrowRight", "ArrowLeft") == ["taptap#0", "cumi#1", "taptap#0"]
    seq = read(page)["seq"]
    page.keyboard.press("Enter")  # evade with Hare Taptap

    # Our turn (Cumi, Cumi, House, Taptap): the focus is on the first card that can be played.
    page.wait_for_selector("#prompt[data-kind='turn']")
    page.wait_for_function(f"() => Number(document.getElementById('game').dataset.seq) > {seq}")
    page.wait_for_function("() => document.activeElement.dataset.card === 'cumi'")
    assert focused(page) == "cumi#0"
    # Arrows move along the hand (wrapping round); an unusable card says why when reached.
    assert keys(page, "ArrowRight", "ArrowRight", "ArrowRight") == ["cumi#1", "house#2", "taptap#3"]
    tip = page.locator("#card-tip")
    tip.wait_for(state="visible")
    assert "only answers a Hare Cumi aimed at you" in tip.inner_text()
    assert keys(page, "ArrowRight") == ["cumi#0"]
    tip.wait_for(state="hidden")

    # Enter chooses a Hare Cumi: the seats become targets and the focus stays in the hand, where
    # another may be chosen; ↓ goes on to the targets, in seat order, each lighting up its seat.
    page.keyboard.press("Enter")
    page.wait_for_selector("#players .seat[data-aim='ok']")
    assert focused(page) == "cumi#0"
    assert page.get_attribute("#hand .card[data-index='0']", "aria-pressed") == "true"
    assert keys(page, "ArrowDown") == ["target-2"]
    assert page.evaluate(LIT) == ["2"]
    assert keys(page, "ArrowRight", "ArrowRight") == ["target-3", "cancel"]
    # Escape cancels the aim and gives the focus back to the card.
    assert keys(page, "Escape") == ["cumi#0"]
    assert page.locator("#players .seat[data-aim]").count() == 0
    assert page.inner_text("#prompt-title") == "Your turn"
    # Again: Tab runs through the cards, then the targets, then Cancel.
    page.keyboard.press("Enter")
    page.wait_for_selector("#players .seat[data-aim='ok']")
    assert keys(page, "Tab", "Tab", "Tab", "Tab", "Tab", "Tab") == [
        "cumi#1",
        "house#2",
        "taptap#3",
        "target-2",
        "target-3",
        "cancel",
    ]
    assert keys(page, "Shift+Tab") == ["target-3"]
    assert page.evaluate(LIT) == ["3"]
    page.screenshot(path=str(screenshots / "keys-aim-1280x800.png"))
    page.keyboard.press("Enter")  # one Hare Cumi at bot 3
    page.wait_for_selector("#log li:has-text('You played Hare Cumi at Bot 4 · normal')")

    # Bot 3's Strom: the skip takes the focus, on "lose my turn" (no Strom in hand).
    page.wait_for_selector("#prompt[data-kind='skip']")
    page.wait_for_function("() => document.activeElement.dataset.action === 'decline'")
    seq = read(page)["seq"]
    page.keyboard.press("Enter")
    page.wait_for_function(f"() => Number(document.getElementById('game').dataset.seq) > {seq}")
    page.wait_for_selector("#prompt[data-kind='skip']", state="detached")

    # The keys are listed behind "?", which the ? key opens too; Escape closes it.
    page.locator("body").click(position={"x": 3, "y": 300})
    page.keyboard.press("?")
    panel = page.locator("#keys-panel")
    panel.wait_for(state="visible")
    assert page.get_attribute("#keys-help", "aria-expanded") == "true"
    assert "Cancel aiming Hare Cumi." in panel.inner_text()
    page.keyboard.press("Escape")
    panel.wait_for(state="hidden")
    ctx.close()

    # In Czech too.
    cs = browser.new_context(viewport=DESKTOP, locale="cs-CZ", extra_http_headers={"Accept-Language": "cs"})
    page = cs.new_page()
    sign_in(page, base, name)
    page.goto(f"{base}/games/{game}/")
    wait_loaded(page)
    page.click("#keys-help")
    assert page.inner_text("#keys-title") == "Hraní z klávesnice"
    assert "Zrušit míření Hare Cumi." in page.inner_text("#keys-panel")
    cs.close()
