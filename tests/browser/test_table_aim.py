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

from tests.browser.ui import api, person, read, sign_in, wait_loaded
from tests.support.decks import AIM_ON_THE_TABLE, STACKED
from tests.support.stored_games import long_game, store_game

REDIS_DB = 14
DESKTOP = {"width": 1280, "height": 800}
DEAL = AIM_ON_THE_TABLE  # what happens, turn by turn, is written beside it
SITE_ENV = {"GAME_SHUFFLE": STACKED, "DECK_TOP": ",".join(DEAL.deck_top())}

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SEATS = """() => Array.from(document.querySelectorAll('#players .seat')).map(s => ({
  seat: Number(s.dataset.seat), aim: s.dataset.aim || '', title: s.title, label: s.getAttribute('aria-label'),
  badge: (s.querySelector('.aim-badge') || {}).textContent || '' }))"""


def start_aim_game(base: str, name: str) -> int:
    """A person at seat 0 and three normal bots; long timers, so the game waits for the person."""
    token = person(base, name)
    table = api(
        base,
        token,
        "/api/tables/",
        {"seats": 4, "turn_timer": 600, "reaction_timer": 600, "discard_timer": 600},
    )
    for _ in range(3):
        api(base, token, f"/api/tables/{table['id']}/add-bot/")
    return int(api(base, token, f"/api/tables/{table['id']}/start/")["current_game"])


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
    game = start_aim_game(base, name)

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
    assert "Not a target now: Bot 2 · normal (protected)." in page.inner_text("#prompt-text")
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
