"""The tournament pages in Chromium, on desktop and phone: a finished Swiss event's podium,
standings and games; a player enters an upcoming arena, pauses and comes back by the buttons."""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from accounts.services import user_register
from tests.browser.ui import PASSWORD, go_by_header, sign_in
from tests.tournaments.test_services import play_open_tables
from tournaments.models import Entry
from tournaments.services import tournament_create, tournament_join, tournament_seat_round, tournament_start

pytestmark = pytest.mark.browser
VIEWPORTS = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 360, "height": 740}}


@pytest.fixture(autouse=True)
def _orm_beside_playwright(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


def test_event_pages_on_desktop_and_phone(site: Any, browser: Any, screenshots: Any) -> None:
    staff = user_register(username="director", password=PASSWORD)
    staff.is_staff = True
    staff.save()
    now = timezone.now()
    common = {"entry_opens_at": now - timedelta(minutes=5), "starts_at": now + timedelta(minutes=30)}
    swiss = tournament_create(
        user=staff, name="Winter Swiss", format="swiss", table_size=4, min_table_size=3, rounds=2,
        rated=False, **common,
    )  # fmt: skip
    people = [
        user_register(username=n, password=PASSWORD) for n in ("ana", "bohdana", "cyril", "dita", "emil")
    ]
    for u in people:
        tournament_join(tournament=swiss, user=u)
    tournament_start(tournament=swiss, user=staff)
    rng = random.Random(4)
    for _ in range(2):
        play_open_tables(swiss, rng)
        tournament_seat_round(tournament=swiss)
    arena = tournament_create(
        user=staff, name="Evening arena with a rather long name", format="arena", table_size=4,
        min_table_size=3, duration_minutes=45, **common,
    )  # fmt: skip
    tournament_join(tournament=arena, user=people[1])
    base = site.url()

    for label, viewport in VIEWPORTS.items():
        page = browser.new_context(viewport=viewport).new_page()
        page.goto(f"{base}/tournaments/{swiss.pk}/")
        assert page.locator(".tournament-state").get_attribute("data-status") == "finished"
        steps = page.locator(".podium-steps .step")
        assert steps.count() >= 3
        rows = page.locator("#standings tbody tr")
        assert rows.count() == 5
        points = [int(t) for t in page.locator("#standings tbody td.rating").all_inner_texts()]
        assert points == sorted(points, reverse=True)
        leader = rows.first.get_attribute("data-player")
        assert steps.first.locator(".step-name").inner_text() == leader
        page.locator(f'details[data-player="{leader}"] summary').click()
        replay = page.locator(f'details[data-player="{leader}"] a', has_text="Watch the replay").first
        assert replay.is_visible()
        box = page.locator(".scroll-x")
        fits = box.evaluate("s => s.scrollWidth <= s.clientWidth")
        assert fits, f"{label}: the standings table scrolls sideways"
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= viewport["width"], f"{label}: the page scrolls sideways ({width}px)"
        page.screenshot(path=str(screenshots / f"tournament-finished-{label}.png"), full_page=True)

        page.goto(f"{base}/lobby/")
        assert page.locator(f'.lobby-tournaments a[href="/tournaments/{arena.pk}/"]').is_visible()
        assert page.locator(f'.lobby-tournaments a[href="/tournaments/{swiss.pk}/"]').count() == 0
        page.screenshot(path=str(screenshots / f"tournament-lobby-{label}.png"))
        page.context.close()

    # A player enters the arena, pauses and comes back through the page's buttons (on the phone).
    user_register(username="filip", password=PASSWORD)
    page = browser.new_context(viewport=VIEWPORTS["phone"], is_mobile=True, has_touch=True).new_page()
    sign_in(page, base, "filip")
    go_by_header(page, "/tournaments/")
    page.click(f'a[href="/tournaments/{arena.pk}/"]')
    page.click("text=Enter the tournament")
    page.wait_for_selector('[data-entry="entered"]')
    assert page.locator('#standings tr.mine[data-player="filip"]').count() == 1
    assert page.get_by_text("A bot's seat scores for nobody.").is_visible()
    page.screenshot(path=str(screenshots / "tournament-entered-phone.png"), full_page=True)
    page.click("button:has-text('Pause')")
    page.wait_for_selector('[data-entry="paused"]')
    assert Entry.objects.get(tournament=arena, user__username="filip").paused
    page.click("button:has-text('Come back')")
    page.wait_for_selector('[data-entry="entered"]')
    assert not Entry.objects.get(tournament=arena, user__username="filip").paused

    desk = browser.new_context(viewport=VIEWPORTS["desktop"]).new_page()
    sign_in(desk, base, "bohdana")
    desk.goto(f"{base}/tournaments/{arena.pk}/")
    desk.wait_for_selector('[data-entry="entered"]')
    desk.screenshot(path=str(screenshots / "tournament-entered-desktop.png"), full_page=True)
