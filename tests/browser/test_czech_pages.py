"""The Czech site in Chromium through its live updates: the lobby while tables are created, sat at,
given bots, and a game starts and ends (its rows re-rendered each time), a table's page as it
changes, and the leaderboard. No English is left anywhere but in names.

The game is dealt on purpose (tests/support/decks.py: SHORT_GAME_FOR_ONE): eight turns with a
person and two bots, so it ends soon."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest

from tests.browser.ui import Player, api, english_left, person, read, sign_in, wait_loaded, wait_newer
from tests.support.decks import SHORT_GAME_FOR_ONE, STACKED

DESKTOP = {"width": 1280, "height": 900}
DEAL = SHORT_GAME_FOR_ONE
SITE_ENV = {"GAME_SHUFFLE": STACKED, "DECK_TOP": ",".join(DEAL.deck_top())}

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# English words the site's pages use (its catalogues' words, its choices' labels, the bots' levels)
# and Czech never does; a whole word of these on a Czech page is English left over.
ENGLISH_WORDS = """
    the and of by is are you your with for from at or not any all
    table tables seat seats empty player players game games hosted between waiting progress
    turn reaction discard easy normal hard public private listed lobby invite link only
    watch live back rating rated casual leaderboard wins win draws played plays away
    open create sign register level add remove next leave closed running finished aborted
"""
ENGLISH = set(ENGLISH_WORDS.split())
# What may stay as it is: the brand, the cards' names and the people's names (added per test).
KEPT = ("Harehra Online", "Harehra", "Hare Cumi", "Hare Taptap", "Hare Mini", "Hare Zada", "Strom")


def english_on(text: str, names: list[str]) -> list[str]:
    """English on a Czech page: the catalogues' English sentences, and English words, once the
    names that stay as they are have been taken out."""
    for kept in sorted([*KEPT, *names], key=len, reverse=True):
        text = text.replace(kept, " ")
    words = sorted({w for w in re.findall(r"[A-Za-z]+", text) if w.lower() in ENGLISH})
    return english_left(text) + words


def test_the_czech_lobby_table_page_and_leaderboard_stay_czech_through_live_updates(
    site: Any, browser: Any, screenshots: Path
) -> None:
    base = site.url(0)
    run = int(time.time()) % 100000
    dana, carol, bob = f"dana{run}", f"carol{run}", f"bob{run}"
    names = [dana, carol, bob]
    tokens = {n: person(base, n) for n in names}
    ctx = browser.new_context(viewport=DESKTOP, locale="cs-CZ", extra_http_headers={"Accept-Language": "cs"})
    ctx.set_default_timeout(8000)
    lobby = ctx.new_page()
    sign_in(lobby, base, dana)  # signing in lands on the lobby
    assert lobby.get_attribute("html", "lang") == "cs"
    lobby.wait_for_selector("#lobby-tables[data-synced='1']")

    # Tables are made, sat at and given bots by others while the Czech lobby watches.
    theirs = api(base, tokens[carol], "/api/tables/", {"seats": 3, "away_bot_level": "hard"})["id"]
    their_row = f"li.table-item[data-table='{theirs}']"
    lobby.wait_for_selector(their_row)
    api(base, tokens[bob], f"/api/tables/{theirs}/join/")
    lobby.wait_for_selector(f"{their_row} >> text={bob}")
    api(base, tokens[carol], f"/api/tables/{theirs}/add-bot/", {"level": "easy"})
    lobby.wait_for_selector(f"{their_row} >> text=Bot 3")
    text = lobby.inner_text("#lobby-tables")
    assert english_on(text, names) == [], text
    assert "Bot 3 · snadný" in text, text

    # Dana's own table with two bots: its page follows it, then the game is played to its end.
    timers = {"turn_timer": 600, "reaction_timer": 600}
    mine = api(base, tokens[dana], "/api/tables/", {"seats": 3, **timers})["id"]
    my_row = f"li.table-item[data-table='{mine}']"
    for _ in range(2):
        api(base, tokens[dana], f"/api/tables/{mine}/add-bot/")
    lobby.wait_for_selector(f"{my_row} >> text=Bot 3")
    table = ctx.new_page()
    table.goto(f"{base}/tables/{mine}/")
    table.wait_for_selector("#table-live[data-refreshed='1']")
    assert english_on(table.inner_text("main"), names) == []
    game = api(base, tokens[dana], f"/api/tables/{mine}/start/")["current_game"]
    table.wait_for_url(f"{base}/games/{game}/")  # seated: the table's page takes her to the game
    lobby.wait_for_selector(f"{my_row} a.watch-link.mine")
    assert "Hra probíhá" in lobby.inner_text(my_row)
    assert english_on(lobby.inner_text("#lobby-tables"), names) == []
    lobby.screenshot(path=str(screenshots / "lobby-czech-live-playing.png"), full_page=True)

    wait_loaded(table)
    player = Player(table, seat=0, friend=1)
    end = time.monotonic() + 90
    while not read(table)["over"]:
        assert time.monotonic() < end, "the game did not end"
        if not player.act():
            wait_newer(table)
    table.wait_for_selector("#end:not([hidden])")
    text = table.inner_text("body")  # the end screen and the game's log, as the pushes left them
    assert english_on(text, names) == [], text
    table.screenshot(path=str(screenshots / "game-czech-over.png"), full_page=True)
    lobby.wait_for_selector(f"{my_row} .status-between")
    text = lobby.inner_text("#lobby-tables")
    assert "Mezi hrami" in text and english_on(text, names) == [], text
    lobby.screenshot(path=str(screenshots / "lobby-czech-live-between.png"), full_page=True)

    # A table's page between games, then as people come and go (each change re-fetched).
    table.goto(f"{base}/tables/{mine}/")
    table.wait_for_selector("#table-live[data-refreshed='1']")
    text = table.inner_text("main")
    assert "Mezi hrami" in text and "Veřejný (v herně)" in text and "běžný bot" in text, text
    assert english_on(text, names) == [], text
    table.goto(f"{base}/tables/{theirs}/")
    table.wait_for_selector("#table-live[data-refreshed='1']")
    api(base, tokens[bob], f"/api/tables/{theirs}/leave/")
    table.wait_for_selector("#table-live[data-refreshed='2']")
    text = table.inner_text("main")
    assert "Čeká na hráče" in text and "těžký bot" in text and bob not in text, text
    assert english_on(text, names) == [], text
    table.screenshot(path=str(screenshots / "table-czech-live.png"), full_page=True)
    text = lobby.inner_text("#lobby-tables")  # the lobby heard of that too
    assert english_on(text, names) == [], text

    # The leaderboard and its filter by table size.
    table.goto(f"{base}/leaderboard/")
    text = table.inner_text("main")
    assert "Všechny hry" in text and "2 hráči" in text, text
    assert english_on(text, names) == [], text
    table.screenshot(path=str(screenshots / "leaderboard-czech.png"), full_page=True)
    ctx.close()


def test_a_refused_import_is_said_in_czech(site: Any, browser: Any, screenshots: Path) -> None:
    """The import page's refusal is the page's own words, not the API's English detail."""
    ctx = browser.new_context(viewport=DESKTOP, locale="cs-CZ", extra_http_headers={"Accept-Language": "cs"})
    ctx.set_default_timeout(8000)
    page = ctx.new_page()
    page.goto(f"{site.url(0)}/replays/import/")
    page.fill("#replay-import-text", '{"format": "something else", "events": []}')
    page.click("#replay-import-form button[type=submit]")
    page.wait_for_function("() => document.getElementById('replay-import-error').textContent !== ''")
    said = page.inner_text("#replay-import-error")
    assert said == "Toto není export hry Harehra.", said
    assert english_on(page.inner_text("main"), []) == [], page.inner_text("main")
    page.screenshot(path=str(screenshots / "replay-import-czech-refused.png"), full_page=True)
    ctx.close()
