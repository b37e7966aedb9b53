"""A person creates an arena from the tournaments page in Chromium and plays it with a bot: the
form (desktop, and a Czech phone), the event page, entering by its button, the site's beat
starting it and seating her with a bot, a game played on the game page, and back to the event,
whose standings show the game. Her phone's form and event page are looked at too."""

from __future__ import annotations

import re
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone
from playwright.sync_api import Error as PlaywrightError

from accounts.services import user_register
from tests.browser.ui import PASSWORD, Player, english_left, read, sign_in, wait_newer, wait_still
from tournaments.models import EventSeat, Result, Tournament
from tournaments.services import tournament_create

pytestmark = pytest.mark.browser
# The beat's sweeps (starting the arena, seating her after her 10 s alone) every second, not every
# 5 s (bench/kit/server_settings.py).
SITE_ENV = {"BOT_DELAY_SECONDS": "0.2", "AWAY_GRACE_SECONDS": "30", "BEAT_EVERY_SECONDS": "1"}
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 360, "height": 740}
GAME = re.compile(r"/games/(\d+)/$")
PLAY_LIMIT_S = 300  # a table of 2 takes 3.5 minutes at a person's pace; here the clicks are quick


@pytest.fixture(autouse=True)
def _orm_beside_playwright(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


def _form_is_labelled(page: Any) -> None:
    """Every control of the form has its label (or its group's legend), every aria-describedby
    names an element that exists."""
    problems = page.evaluate(
        """() => {
          const form = document.getElementById('create-tournament-form');
          const out = [];
          for (const el of form.querySelectorAll('input:not([type=hidden]), select')) {
            if (!el.labels || el.labels.length === 0) out.push('no label: ' + el.id);
          }
          for (const el of form.querySelectorAll('[aria-describedby]')) {
            for (const id of el.getAttribute('aria-describedby').split(/\\s+/)) {
              if (!document.getElementById(id)) out.push('described by nothing: ' + id);
            }
          }
          for (const f of form.querySelectorAll('fieldset')) {
            if (!f.querySelector('legend')) out.push('a group without a legend');
          }
          return out;
        }"""
    )
    assert problems == []


def test_a_person_creates_an_arena_from_the_page_and_plays_it(
    site: Any, browser: Any, screenshots: Path
) -> None:
    base = site.url()
    user_register(username="hana", password=PASSWORD)
    director = user_register(username="director", password=PASSWORD)
    director.is_staff = True
    director.save()
    now = timezone.now()
    tournament_create(
        user=director, name="Sunday cup", format="swiss", table_size=4, min_table_size=4,
        entry_opens_at=now, starts_at=now + timedelta(days=2),
    )  # fmt: skip

    # Her phone, in Czech: the form, formally worded and every string translated.
    czech = {"locale": "cs-CZ", "extra_http_headers": {"Accept-Language": "cs"}}
    phone = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, **czech).new_page()
    sign_in(phone, base, "hana")
    phone.goto(f"{base}/tournaments/")
    phone.click("#create-tournament")
    phone.wait_for_selector("#create-tournament-form")
    _form_is_labelled(phone)
    assert english_left(phone.inner_text("main")) == []
    assert "Hra trvá přibližně 3,5 minuty u stolu pro 2" in phone.inner_text("main")
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the form scrolls sideways ({width}px)"
    wait_still(phone)
    phone.screenshot(path=str(screenshots / "tournament-create-form-phone-czech.png"), full_page=True)

    # On her desktop she creates it: an arena for 10 minutes, tables of 2, starting now, a bot
    # filling her table after 10 s of waiting alone.
    page = browser.new_context(viewport=DESKTOP).new_page()
    page.set_default_timeout(15_000)
    sign_in(page, base, "hana")
    page.goto(f"{base}/tournaments/")
    page.get_by_role("link", name="Create a tournament").click()
    _form_is_labelled(page)
    page.get_by_label("Name", exact=True).fill("Hana's quick arena")
    page.get_by_label("Arena: a new table as soon as your game ends").check()
    page.get_by_label("Players at a table").select_option("2")
    page.get_by_label("Start", exact=True).select_option(label="Now")
    page.get_by_label("Arena length").select_option(label="10 minutes")
    page.get_by_label("Arena: seat a waiting player with bots after").select_option(label="10 seconds")
    assert page.get_by_label("Big Warren (more cards, up to 6 players)").get_attribute("type") == "checkbox"
    page.get_by_label("Turn timer (seconds)").fill("20")
    assert page.get_by_label("Bots fill a table when too few players are free").is_checked()
    page.get_by_label("Rated: its games change the players' ratings").uncheck()
    described = page.get_by_label("Arena length").get_attribute("aria-describedby")
    assert "A game takes about 3.5 minutes at a table of 2" in page.locator(f"#{described}").inner_text()
    wait_still(page)
    page.screenshot(path=str(screenshots / "tournament-create-form-desktop.png"), full_page=True)
    page.get_by_role("button", name="Create the tournament").click()

    page.wait_for_url(re.compile(r"/tournaments/\d+/$"))
    t = Tournament.objects.get(name="Hana's quick arena")
    assert (t.format, t.table_size, t.duration_minutes, t.featured, t.rated) == ("arena", 2, 10, False, False)
    assert page.get_by_text("Your tournament is created.").is_visible()
    assert page.get_by_text("Hosted by hana").is_visible()
    assert page.locator("#cancel-form button").is_visible()  # hers, before the start
    # The list: the site's event marked featured, hers with its host.
    page.goto(f"{base}/tournaments/")
    cup = page.locator(".tournament-item", has_text="Sunday cup").inner_text()
    hers = page.locator(".tournament-item", has_text="Hana's quick arena").inner_text()
    assert "Featured" in cup and "Hosted by" not in cup
    assert "Hosted by hana" in hers and "Featured" not in hers
    wait_still(page)
    page.screenshot(path=str(screenshots / "tournament-create-list-desktop.png"), full_page=True)
    page.goto(f"{base}/tournaments/{t.pk}/")
    page.click("#entry-form button")
    page.wait_for_load_state()  # entered: the event page again, or already her table

    # The site's beat starts it and, after 10 s alone, seats her with a bot; the event page takes
    # her to her table; she plays her game on the game page; its end screen takes her back.
    player = Player(page, seat=0, friend=-1)
    game: int | None = None
    deadline = time.monotonic() + PLAY_LIMIT_S
    while True:
        assert time.monotonic() < deadline, f"no game played in time: {page.url}"
        try:
            at = GAME.search(page.url)
            if at is not None:
                game = int(at[1])
                if not (read(page)["kind"] and player.act()):
                    wait_newer(page)  # the next move or decision, or half a second
            elif game is not None and f"/tournaments/{t.pk}/" in page.url:
                break  # back at the event after her game
            else:  # the event page, until it takes her to her table
                page.wait_for_url(GAME, timeout=1000)
        except PlaywrightError:
            pass  # the page was going to another one
    # She takes a break (the event page would otherwise take her on to her next table).
    page.wait_for_selector("#pause-form button", state="visible")
    page.click("#pause-form button")
    page.wait_for_selector('[data-entry="paused"]', state="visible")
    assert player.moves > 0
    assert EventSeat.objects.filter(event_table__game_id=game, entry__isnull=True).exists()  # a bot's seat
    result = Result.objects.get(tournament=t, game_id=game)
    page.wait_for_selector('#standings tbody tr[data-player="hana"]')
    cells = page.locator('#standings tbody tr[data-player="hana"] td').all_inner_texts()
    assert cells[2] == str(result.points) and cells[3] == "1", cells  # points, games
    assert page.locator("#cancel-form").count() == 0  # started: no longer hers to cancel
    wait_still(page)
    page.screenshot(path=str(screenshots / "tournament-create-played-desktop.png"), full_page=True)

    # Her phone shows the event she hosts, with her game in the standings.
    phone.goto(f"{base}/tournaments/{t.pk}/")
    phone.wait_for_selector('#standings tbody tr[data-player="hana"]')
    assert phone.get_by_text("Pořádá hana").is_visible()
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the event page scrolls sideways ({width}px)"
    wait_still(phone)
    phone.screenshot(path=str(screenshots / "tournament-create-played-phone-czech.png"), full_page=True)
