"""Moments in the reader's own time zone, in Chromium: a tournament's start on the list and its
page, in the browser's zone and the page's language with the zone named (New York in English,
Prague in Czech), the UTC text the server wrote kept as the element's title."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from tests.tournaments.test_services import event


def _next_winter_evening() -> datetime:
    """The next 15 January, 18:00 UTC: within the year ahead that events may start in, and in
    winter time in both zones (EST, SEČ)."""
    now = datetime.now(UTC)
    this_year = datetime(now.year, 1, 15, 18, 0, tzinfo=UTC)
    return this_year if this_year > now + timedelta(days=1) else this_year.replace(year=now.year + 1)


STARTS = _next_winter_evening()
Y = STARTS.year

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TIMES = """() => Array.from(document.querySelectorAll('time[data-when]')).map(t => ({
  datetime: t.getAttribute('datetime'), text: t.textContent, title: t.title,
}))"""


def _shown(page: Any, iso: str) -> list[dict[str, str]]:
    page.wait_for_function("() => document.querySelector('time[data-localized]') !== null")
    return [t for t in page.evaluate(TIMES) if t["datetime"] == iso]


def test_a_tournament_start_is_shown_in_the_readers_zone_and_language(
    site: Any, browser: Any, screenshots: Path, staff: Any
) -> None:
    base = site.url(0)
    t = event(staff, name="Evening cup", entry_opens_at=STARTS - timedelta(hours=2), starts_at=STARTS)
    iso = f"{Y}-01-15T18:00:00Z"

    english = browser.new_context(timezone_id="America/New_York", locale="en-US")
    page = english.new_page()
    page.goto(f"{base}/tournaments/")
    listed = _shown(page, iso)
    assert [x["text"] for x in listed] == [f"Jan 15, {Y}, 01:00 PM EST"], listed
    assert listed[0]["title"] == f"{Y}-01-15 18:00 UTC"
    page.goto(f"{base}/tournaments/{t.pk}/")
    rules = page.inner_text("main")
    assert f"closes at the start, Jan 15, {Y}, 01:00 PM EST" in rules
    assert f"Entry opens Jan 15, {Y}, 11:00 AM EST" in rules
    assert "UTC" not in page.inner_text("main")
    page.screenshot(path=str(screenshots / "tournament-local-time-new-york.png"), full_page=True)
    english.close()

    czech = browser.new_context(
        timezone_id="Europe/Prague", locale="cs-CZ", extra_http_headers={"Accept-Language": "cs"}
    )
    page = czech.new_page()
    page.goto(f"{base}/tournaments/")
    assert [x["text"] for x in _shown(page, iso)] == [f"15. 1. {Y} 19:00 SEČ"]
    page.goto(f"{base}/tournaments/{t.pk}/")
    _shown(page, iso)
    assert "19:00 SEČ" in page.inner_text("main") and "UTC" not in page.inner_text("main")
    page.screenshot(path=str(screenshots / "tournament-local-time-prague-cs.png"), full_page=True)
    czech.close()
