"""An axe scan of every page (axe-core through axe-playwright-python): no serious or critical
violation, on a desktop and on a phone; every page with a form among them (signing in,
registering, the password, creating a table, the table's seats, a report, the replay importer and
filter, the game page's settings, a tournament's entry, the admin's sign-in and a moderation
action's form), whose labels and descriptions must name elements that exist."""

from __future__ import annotations

import time
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from accounts.services import user_register, user_token
from bench.stored_games import long_game, store_game
from tests.browser.ui import api, wait_loaded
from tournaments.services import tournament_create, tournament_join

User = get_user_model()

PASSWORD = "hare-tree-house-42"
SERIOUS = {"serious", "critical"}
PANELS_SHOWN = """() => ['out-moment', 'end'].every(
  (id) => document.getElementById(id).getAnimations().every((a) => a.playState !== 'running'))"""

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def serious_violations(page: Any) -> list[str]:
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    return [
        f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes']][:3]}"
        for v in results.response["violations"]
        if v.get("impact") in SERIOUS
    ]


# Every label's `for` and every aria-describedby / aria-labelledby id names an element of the page:
# axe lets a description that points nowhere pass, and a form's help went unread that way (the
# create-table form's help texts had ids the inputs did not name; "Bonus packs" had `for=""`).
BROKEN_REFERENCES = """() => {
  const bad = [];
  for (const label of document.querySelectorAll('label[for]')) {
    const id = label.getAttribute('for');
    const words = label.textContent.trim().slice(0, 30);
    if (!id || !document.getElementById(id)) bad.push(`label for="${id}" (${words})`);
  }
  for (const attr of ['aria-describedby', 'aria-labelledby', 'aria-controls']) {
    for (const node of document.querySelectorAll(`[${attr}]`)) {
      for (const id of node.getAttribute(attr).split(/\\s+/).filter(Boolean)) {
        const where = `${node.tagName.toLowerCase()}#${node.id}`;
        if (!document.getElementById(id)) bad.push(`${attr}="${id}" on ${where}`);
      }
    }
  }
  return bad;
}"""


def problems(page: Any) -> list[str]:
    return serious_violations(page) + page.evaluate(BROKEN_REFERENCES)


def test_every_page_passes_an_axe_scan(site: Any, browser: Any, screenshots: Any) -> None:
    base = site.url(0)
    name = f"Tess{int(time.time()) % 100000}"
    token = user_token(user=user_register(username=name, password=PASSWORD))
    table = api(base, token, "/api/tables/", {"seats": 3, "turn_timer": 600, "reaction_timer": 600})
    for _ in range(2):
        api(base, token, f"/api/tables/{table['id']}/add-bot/")
    game = api(base, token, f"/api/tables/{table['id']}/start/")["current_game"]
    stored = store_game(long_game(120, seed=5), ["ann", "bob", "cat", "dan"])
    director = user_register(username=f"Dir{name}", password=PASSWORD)
    director.is_staff = True
    director.save()
    now = timezone.now()
    cup = tournament_create(
        user=director, name="Axe arena", format="arena", table_size=4, min_table_size=3,
        entry_opens_at=now, starts_at=now + timedelta(hours=1),
    )  # fmt: skip
    tournament_join(tournament=cup, user=User.objects.get(username=name))
    director.is_superuser = True  # moderates: the admin's action forms
    director.save()
    other = user_register(username=f"Oth{name}", password=PASSWORD)

    pages = [
        "/",
        "/lobby/",
        f"/tables/{table['id']}/",
        f"/games/{game}/",
        f"/watch/{game}/",
        f"/replays/{stored.pk}/",
        f"/embed/replays/{stored.pk}/",
        "/replays/",
        f"/players/{name}/",
        f"/players/{other.username}/",  # another's: the Follow and Block buttons
        "/tournaments/",
        "/tournaments/new/",
        f"/tournaments/{cup.pk}/",
        "/no-such-page/",
        # The other pages with a form (the lobby's create-table form and the table's are above).
        "/accounts/password/",
        "/accounts/email/",
        "/players/",
        f"/report/?user={other.username}",
        "/replays/import/",
    ]
    found: dict[str, list[str]] = {}
    for viewport in ({"width": 1280, "height": 800}, {"width": 360, "height": 740}):
        ctx = browser.new_context(viewport=viewport)
        ctx.set_default_timeout(10000)
        page = ctx.new_page()
        for path in ("/accounts/login/", "/accounts/register/", "/accounts/password/reset/"):
            page.goto(base + path)
            found[f"{path} {viewport['width']}"] = problems(page)
            if path == "/accounts/password/reset/":
                shot = screenshots / f"reset-request-{viewport['width']}.png"
                page.screenshot(path=str(shot), full_page=True)
        page.goto(f"{base}/accounts/login/")
        page.fill("#id_username", name)
        page.fill("#id_password", PASSWORD)
        page.click("main button[type=submit]")
        page.wait_for_url(f"{base}/lobby/")
        for path in pages:
            page.goto(base + path)
            if path.startswith("/games/"):
                wait_loaded(page)
                # The "you are out" and end panels fade in: scanned mid-fade, their text lacks contrast.
                page.wait_for_function(PANELS_SHOWN)
            elif path.startswith(("/watch/", "/replays/1", f"/replays/{stored.pk}", "/embed/")):
                page.wait_for_selector("#replay .rp-seat")
            found[f"{path} {viewport['width']}"] = problems(page)
            if path in ("/accounts/email/", "/players/"):
                name_of = path.strip("/").replace("/", "-")
                page.screenshot(path=str(screenshots / f"{name_of}-{viewport['width']}.png"), full_page=True)
        ctx.close()

        # A moderator: the admin's sign-in, and an action's form (a suspension's reason and length).
        ctx = browser.new_context(viewport=viewport)
        ctx.set_default_timeout(10000)
        page = ctx.new_page()
        page.goto(f"{base}/admin/login/")
        found[f"/admin/login/ {viewport['width']}"] = problems(page)
        page.fill("#id_username", director.username)
        page.fill("#id_password", PASSWORD)
        page.click("input[type=submit]")
        page.wait_for_selector("#site-name")
        page.goto(f"{base}/admin/auth/user/?q={other.username}")
        page.locator(f"#result_list input[name=_selected_action][value='{other.pk}']").check()
        page.select_option("select[name=action]", "suspend_users")
        page.click("button[name=index]")
        page.wait_for_selector("body.moderation-action textarea[name=reason]")
        found[f"admin suspend form {viewport['width']}"] = problems(page)
        ctx.close()
    bad = {k: v for k, v in found.items() if v}
    assert not bad, bad
