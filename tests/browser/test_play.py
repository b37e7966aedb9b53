"""End to end in Chromium: two people register, meet at a table with bots, and play through the UI."""

from __future__ import annotations

import itertools
import time
from pathlib import Path
from typing import Any

import pytest

from tests.browser.ui import Player, press, read, wait_loaded

REDIS_DB = 10
PASSWORD = "hare-tree-house-42"
GAME_BUDGET_SECONDS = 150  # keep playing further games until the interactions happened, at most this long
# A game that moves on nothing for longer than its longest timer (30 s) has frozen; a slow machine
# only makes a game long, so the cap on a whole game is generous.
STALL_SECONDS = 45
GAME_LIMIT_SECONDS = 300
_ids = itertools.count(1)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def register(page: Any, base: str, name: str) -> None:
    page.goto(f"{base}/accounts/register/?next=/lobby/")
    page.fill("#id_username", name)
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(f"{base}/lobby/")


def new_page(browser: Any, width: int = 1200, height: int = 900) -> Any:
    context = browser.new_context(viewport={"width": width, "height": height})
    context.set_default_timeout(8000)
    return context.new_page()


def test_two_people_play_a_series_through_the_ui(site: Any, browser: Any, screenshots: Path) -> None:
    base = site.url(0)
    run = f"{int(time.time()) % 100000}{next(_ids)}"
    ann, bob = new_page(browser), new_page(browser)
    register(ann, base, f"ann{run}")
    register(bob, base, f"bob{run}")

    # Ann creates a table with every setting from the form.
    ann.select_option("#id_seats", "4")
    ann.fill("#id_turn_timer", "30")
    ann.fill("#id_reaction_timer", "15")
    ann.fill("#id_discard_timer", "15")
    ann.select_option("#id_visibility", "public")
    ann.click("#create-table-form button[type=submit]")
    ann.wait_for_url(f"{base}/tables/*/")
    table_id = int(ann.url.rstrip("/").split("/")[-1])

    # Bob's lobby updates by itself and shows the new table.
    bob.wait_for_selector(f".table-item[data-table='{table_id}']", timeout=10000)
    bob.screenshot(path=str(screenshots / "lobby.png"), full_page=True)
    bob.click(f".table-item[data-table='{table_id}'] a")
    bob.wait_for_url(f"{base}/tables/{table_id}/")
    bob.click("button:has-text('Sit here')")
    bob.wait_for_selector(".seat-card.mine")

    # The host adds two bots, one by mouse and one by keyboard, and starts.
    ann.wait_for_selector(f"text=bob{run}", timeout=10000)
    ann.click(".seat-card[data-seat='2'] button:has-text('Add a bot')")
    ann.wait_for_selector(".seat-card[data-seat='2'] >> text=Bot 3")
    press(ann, ".seat-card[data-seat='3'] button:has-text('Add a bot')", "Enter")
    ann.wait_for_selector(".seat-card[data-seat='3'] >> text=Bot 4")
    ann.click("button:has-text('Start the game')")
    ann.wait_for_url(f"{base}/games/*/")
    bob.wait_for_url(f"{base}/games/*/", timeout=10000)  # the table page takes Bob to the game

    players = [Player(ann, seat=0, friend=1), Player(bob, seat=1, friend=0)]
    started = time.monotonic()
    games = 0
    shot_in_progress = False
    wanted = {"taptap", "strom"}
    while True:
        games += 1
        for p in players:
            wait_loaded(p.page)
        game_url = ann.url
        assert bob.url == game_url
        began = last_move = time.monotonic()
        last_seq = -1
        while True:
            acted = False
            for p in players:
                acted = p.act() or acted
            if not shot_in_progress and sum(p.moves for p in players) >= 4:
                ann.screenshot(path=str(screenshots / "game-in-progress.png"), full_page=True)
                shot_in_progress = True
            seen_by_ann, seen_by_bob = read(ann), read(bob)
            if seen_by_ann["over"] and seen_by_bob["over"]:
                break
            now = time.monotonic()
            if seen_by_ann["seq"] != last_seq:
                last_seq, last_move = seen_by_ann["seq"], now
            state = (
                f"Ann sees {seen_by_ann}, Bob sees {seen_by_bob}; clicks the page had moved past "
                f"{[p.missed for p in players]}, seats taken back {[p.reclaimed for p in players]}"
            )
            assert now - last_move < STALL_SECONDS, f"game {games} froze at seq {last_seq}: {state}"
            assert now - began < GAME_LIMIT_SECONDS, f"game {games} still running at seq {last_seq}: {state}"
            if not acted:
                ann.wait_for_timeout(60)
        assert ann.locator("#end-title").inner_text()
        assert ann.locator("#replay-link").get_attribute("href").startswith("/replays/")
        ann.screenshot(path=str(screenshots / "end.png"), full_page=True)
        seen = set().union(*(p.seen for p in players))
        if wanted <= seen or time.monotonic() - started > GAME_BUDGET_SECONDS:
            break
        # Not every deal offers a Taptap answer and a forwarded Strom: play on at the same table.
        ann.click("#next-game")
        for page in (ann, bob):
            page.wait_for_url(lambda url, old=game_url: url != old, timeout=10000)

    log = ann.locator("#log").inner_text() + bob.locator("#log").inner_text()
    assert sum(p.moves for p in players) > 0
    assert "taptap" in seen, f"no Hare Taptap answer in {games} games"
    assert "strom" in seen, f"no Strom skip forwarded in {games} games"
    assert "evaded with Hare Taptap" in log or games > 1
    # the table page keeps the series score and who shuffles next
    ann.goto(f"{base}/tables/{table_id}/")
    assert ann.locator(".series").inner_text().startswith(str(games))
    assert ann.locator(".seat-card .badge:has-text('shuffles next')").count() == 1
