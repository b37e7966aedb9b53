"""A rated game's end screen in Chromium: each person's overall rating before and after the game,
pushed as the game ends while the page is open, and the same after a reload (in Czech too): the
figures the ratings recorded."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from games.models import GameSeat
from ratings.models import RatingChange
from tests.browser.ui import api, person, sign_in, wait_loaded
from tests.factories import seat_1_to_the_brink

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOWN = """() => Array.from(document.querySelectorAll('#rating-changes li.rating-change')).map(li => ({
  seat: Number(li.dataset.seat), before: Number(li.dataset.before), after: Number(li.dataset.after),
  text: li.innerText,
}))"""


def _recorded(game_id: int) -> list[dict[str, int]]:
    seats = {s.user_id: s.seat for s in GameSeat.objects.filter(game_id=game_id)}
    rows = RatingChange.objects.filter(rated_game__game_id=game_id, pool="all")
    return sorted(
        ({"seat": seats[c.user_id], "before": c.display_before, "after": c.display_after} for c in rows),
        key=lambda c: c["seat"],
    )


def _figures(page: Any) -> list[dict[str, int]]:
    page.wait_for_selector("#end-ratings:not([hidden]) #rating-changes li.rating-change")
    return [{k: row[k] for k in ("seat", "before", "after")} for row in page.evaluate(SHOWN)]


def test_a_rated_games_end_screen_shows_each_persons_rating_before_and_after(
    site: Any, browser: Any, screenshots: Path
) -> None:
    base = site.url(0)
    run = int(time.time()) % 100000
    people = [f"rate{run}{letter}" for letter in "abc"]
    tokens = [person(base, name) for name in people]
    timers = {"turn_timer": 600, "reaction_timer": 600, "discard_timer": 600}
    table = api(base, tokens[0], "/api/tables/", {"seats": 3, "rated": True, **timers})
    for token in tokens[1:]:
        api(base, token, f"/api/tables/{table['id']}/join/", {"invite_code": table["invite_code"]})
    game_id = api(base, tokens[0], f"/api/tables/{table['id']}/start/")["current_game"]
    names = {s.seat: s.user.username for s in GameSeat.objects.filter(game_id=game_id).select_related("user")}
    seat_1_to_the_brink(game_id)  # the three play on by their own commands: a contested, rated game

    context = browser.new_context(viewport={"width": 1100, "height": 900})
    context.set_default_timeout(10000)
    page = context.new_page()
    sign_in(page, base, names[0])
    page.goto(f"{base}/games/{game_id}/")
    wait_loaded(page)
    assert page.is_hidden("#end")
    # Seat 1 takes the volley that puts it out: the game ends, and the page is told the ratings.
    api(base, tokens[1], f"/api/games/{game_id}/commands/", {"client_cmd_id": "last", "react": "none"})
    live = _figures(page)
    recorded = _recorded(game_id)
    assert len(recorded) == 3 and live == recorded, (live, recorded)
    rows = page.evaluate(SHOWN)
    me = next(r for r in rows if r["seat"] == 0)
    diff = me["after"] - me["before"]
    assert f"{names[0]} (you)" in me["text"] and f"{me['before']} → {me['after']}" in me["text"], me
    assert (f"+{diff}" if diff > 0 else f"−{-diff}" if diff < 0 else "±0") in me["text"], me
    page.screenshot(path=str(screenshots / "end-screen-ratings.png"), full_page=True)

    page.reload()
    wait_loaded(page)
    assert _figures(page) == recorded
    context.close()

    czech = browser.new_context(
        viewport={"width": 1100, "height": 900}, locale="cs-CZ", extra_http_headers={"Accept-Language": "cs"}
    )
    czech.set_default_timeout(10000)
    page = czech.new_page()
    sign_in(page, base, names[2])
    page.goto(f"{base}/games/{game_id}/")
    wait_loaded(page)
    assert _figures(page) == recorded
    assert page.inner_text("#end-ratings-title") == "Změny hodnocení"
    page.screenshot(path=str(screenshots / "end-screen-ratings-cs.png"), full_page=True)
    czech.close()
