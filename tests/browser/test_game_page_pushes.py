"""The game page in Chromium renders a whole game from its socket's pushes alone.

The game is dealt on purpose (tests/support/decks.py: SHORT_GAME_FOR_ONE): eight turns with a
skip forwarded round the table, a volley evaded, volleys taken with discards, Houses and two
eliminations, instead of a random game of any length."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from games.models import Game
from tests.browser.ui import Player, read, sign_in, start_against_bots, wait_loaded, wait_newer
from tests.support.decks import SHORT_GAME_FOR_ONE, STACKED

DEAL = SHORT_GAME_FOR_ONE  # what happens, turn by turn, is written beside it
SITE_ENV = {"GAME_SHUFFLE": STACKED, "DECK_TOP": ",".join(DEAL.deck_top())}

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_whole_game_against_bots_is_rendered_from_pushes_alone(
    site: Any, browser: Any, screenshots: Path
) -> None:
    """After the page has loaded, the game is played to its end with no HTTP request per move: the
    page renders every move from what its socket pushes. Only card pictures are asked for again
    as cards are drawn, and those are static files the browser may keep (Cache-Control)."""
    base = site.url(0)
    name = f"erin{int(time.time()) % 100000}"
    _, game = start_against_bots(base, name, bots=2)
    page = browser.new_page()
    page.set_default_timeout(8000)
    sign_in(page, base, name)
    requests: list[tuple[str, str]] = []
    page.on("request", lambda r: requests.append((r.resource_type, r.url)))
    kept: dict[str, str] = {}
    page.on("response", lambda r: kept.__setitem__(r.url, r.headers.get("cache-control", "")))
    page.goto(f"{base}/games/{game}/")
    first = wait_loaded(page)
    page.wait_for_load_state("networkidle")
    loaded = len(requests)
    player = Player(page, seat=0, friend=1)
    last_change, last_seq = time.monotonic(), first["seq"]
    while not read(page)["over"]:
        if not player.act():
            wait_newer(page)  # the next move or decision, or half a second
        seq = read(page)["seq"]
        if seq != last_seq:
            last_change, last_seq = time.monotonic(), seq
        assert time.monotonic() - last_change < 45, f"the game froze at seq {seq}"
    page.screenshot(path=str(screenshots / "game-over-from-pushes.png"), full_page=True)
    moves = read(page)["seq"] - first["seq"]
    assert player.moves >= len(DEAL.people) and moves >= 40, (player.moves, moves)
    assert read(page)["seq"] == Game.objects.get(pk=game).last_seq  # the page showed the last event
    assert page.locator("#end-title").inner_text() == "Bot 3 · normal won!"
    during = requests[loaded:]
    # The tab's icon changes with whose decision it is (a static file the browser keeps).
    icons = ("/static/img/turn.svg", "/static/img/favicon.svg")
    assert [url for kind, url in during if kind != "image" and not url.endswith(icons)] == []
    pictures = [url for kind, url in during if kind == "image"]
    # Card pictures, and the table's own (the shield): static files the browser keeps.
    static_svg = ("/static/cards/", "/static/img/")
    assert all(url.endswith(".svg") and any(p in url for p in static_svg) for url in pictures)
    assert len(set(pictures)) <= 12
    assert all("max-age=" in kept[url] and "max-age=0" not in kept[url] for url in pictures)
    page.close()
