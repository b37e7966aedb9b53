"""End to end in Chromium: two people register, meet at a table with bots, and play a game dealt on
purpose through the UI: a Hare Cumi answered with Hare Taptap, a Strom skip forwarded with Strom."""

from __future__ import annotations

import itertools
import time
from pathlib import Path
from typing import Any

import pytest

from games.eventlog import events_with_seq
from games.models import Game
from tests.browser.ui import press, read, wait_loaded
from tests.support.decks import STACKED, TAPTAP_AND_STROM

PASSWORD = "hare-tree-house-42"
DEAL = TAPTAP_AND_STROM  # what happens, move by move, is written beside it
SITE_ENV = {"GAME_SHUFFLE": STACKED, "DECK_TOP": ",".join(DEAL.deck_top())}
# How long a person waits for their next decision: the bots' moves before it (0.3 s each) and the
# socket's round trips, with room for a slow, shared machine.
DECISION_TIMEOUT_MS = 20000
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


def wait_seq_past(page: Any, seq: int) -> None:
    """Wait until the page shows an event after `seq` (the move it sent went through)."""
    shown = "seq => Number(document.getElementById('game').dataset.seq) > seq"
    page.wait_for_function(shown, arg=seq, timeout=DECISION_TIMEOUT_MS)


def decide(page: Any, seat: int, kind: str, command: dict[str, Any], keys: bool) -> None:
    """Make `command` through the page's controls once the page asks this seat for a `kind` decision:
    with the mouse, or with `keys` by focusing each control and pressing Enter (cards) or Space
    (buttons)."""
    page.wait_for_selector(
        f"#game[data-mine='{kind}'][data-awaiting='{kind}:{seat}']", timeout=DECISION_TIMEOUT_MS
    )
    seq = read(page)["seq"]

    def use(selector: str, key: str) -> None:
        if keys:
            press(page, selector, key)
        else:
            page.click(selector)

    if "play" in command:
        card = command["play"][0]
        for n in range(len(command["play"])):
            use(f"#hand button.card[data-card='{card}'] >> nth={n}", "Enter")
        if card == "cumi":
            use(f"#prompt-buttons button[data-action='target-{command['target']}']", "Space")
    elif command["react"] == "none":
        use("#prompt-buttons button[data-action='decline']", "Space")
    else:
        use(f"#hand button.card[data-card='{command['react']}']", "Enter")
    wait_seq_past(page, seq)


def test_two_people_play_a_dealt_game_through_the_ui(site: Any, browser: Any, screenshots: Path) -> None:
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
    bob.wait_for_selector(".seat-card.mine[data-seat='1']")

    # The host adds two bots, one by mouse and one by keyboard, and starts.
    ann.wait_for_selector(f"text=bob{run}", timeout=10000)
    ann.click(".seat-card[data-seat='2'] button:has-text('Add a bot')")
    ann.wait_for_selector(".seat-card[data-seat='2'] >> text=Bot 3")
    press(ann, ".seat-card[data-seat='3'] button:has-text('Add a bot')", "Enter")
    ann.wait_for_selector(".seat-card[data-seat='3'] >> text=Bot 4")
    ann.click("button:has-text('Start the game')")
    ann.wait_for_url(f"{base}/games/*/")
    bob.wait_for_url(f"{base}/games/*/", timeout=10000)  # the table page takes Bob to the game
    for page in (ann, bob):
        wait_loaded(page)
    assert bob.url == ann.url
    hand = bob.locator("#hand button.card")
    dealt = [hand.nth(i).get_attribute("data-card") for i in range(hand.count())]
    assert sorted(dealt) == sorted(DEAL.hands[1])

    # The people's moves, in order; the bots' between them are their own (see the deal).
    pages = {0: ann, 1: bob}
    for i, (seat, kind, command) in enumerate(DEAL.people):
        taptap = command.get("react") == "taptap"
        if taptap:  # a still picture of the table just after: no card in flight over a seat
            bob.emulate_media(reduced_motion="reduce")
        decide(pages[seat], seat, kind, command, keys=i % 2 == 1)
        if taptap:
            shot = screenshots / "game-in-progress.png"
            bob.screenshot(path=str(shot), full_page=True, animations="disabled")
            bob.emulate_media(reduced_motion="no-preference")
    ann.emulate_media(reduced_motion="reduce")  # out since turn 5, Ann watches the end; a still picture of it

    for page in (ann, bob):
        page.wait_for_selector("#end:not([hidden])", timeout=DECISION_TIMEOUT_MS)
    assert ann.locator("#end-title").inner_text() == "Bot 4 · normal won!"
    assert ann.locator("#replay-link").get_attribute("href").startswith("/replays/")
    ann.screenshot(path=str(screenshots / "end.png"), full_page=True, animations="disabled")

    # The log holds both reactions, as the game's record does.
    game = Game.objects.get(table_id=table_id)
    events = [e for _, e in events_with_seq(game)]
    reactions = [(e["seat"], e["card"], e["kind"]) for e in events if e["type"] == "ReactionPlayed"]
    assert reactions == [(2, "strom", "skip"), (1, "taptap", "volley")]
    assert [e["seat"] for e in events if e["type"] == "PlayerEliminated"] == [0, 1, 2]
    assert events[-1]["type"] == "GameEnded" and events[-1]["winner"] == 3

    # Each page said so in words, to its reader.
    ann_log, bob_log = ann.locator("#log").inner_text(), bob.locator("#log").inner_text()
    for log in (ann_log, bob_log):
        assert "Bot 3 · normal forwarded the skip with Strom" in log, log
        # The skip is said once, as it ends: who forwarded it, then who is skipped.
        assert "Bot 3 · normal forwarded the skip with Strom; Bot 4 · normal is skipped" in log, log
        assert "loses the turn" not in log and "may forward the skip" not in log
    assert f"bob{run} evaded with Hare Taptap" in ann_log
    assert "you evaded with Hare Taptap" in bob_log

    # The table page keeps the series score and who shuffles next (seat 1, R13).
    ann.goto(f"{base}/tables/{table_id}/")
    assert ann.locator(".series").inner_text().startswith("1 game played")
    assert ann.locator(".seat-card[data-seat='1'] .badge:has-text('shuffles the next game')").count() == 1
    assert ann.locator(".seat-card .badge:has-text('shuffles the next game')").count() == 1
