"""Every page works under the Content Security Policy (own scripts and styles only): Chromium
reports no violation on any of them, and the game page still draws and talks over its socket."""

from __future__ import annotations

from typing import Any

import pytest

from bench.stored_games import long_game, store_game
from tests.browser.ui import sign_in, start_against_bots
from tests.support.stack import Stack

pytestmark = [pytest.mark.browser]


def test_no_page_breaks_the_content_security_policy(site: Stack, browser: Any) -> None:
    base = site.url()
    table_id, game_id = start_against_bots(base, "cspcat", 1)
    replay = store_game(long_game(40, seed=5), ["ann", "bob", "cat", "dan"])
    context = browser.new_context()
    page = context.new_page()
    violations: list[str] = []
    page.on(
        "console",
        lambda m: (
            violations.append(f"{page.url}: {m.text[:90]}") if "Content Security Policy" in m.text else None
        ),
    )
    page.on(
        "pageerror", lambda e: violations.append(str(e))
    )  # an inline handler refused would break scripts too

    response = page.goto(f"{base}/")
    csp = response.headers["content-security-policy"]
    assert "script-src 'self'" in csp and "style-src 'self'" in csp and "unsafe-inline" not in csp
    for path in (
        "/",
        "/lobby/",
        "/accounts/register/",
        "/replays/",
        f"/replays/{replay.pk}/",
        f"/embed/replays/{replay.pk}/",
        "/api/docs/",
    ):
        page.goto(base + path)
        page.wait_for_load_state("networkidle")
    page.wait_for_selector("#swagger-ui .opblock", timeout=15000)  # Swagger UI ran from its own file
    sign_in(page, base, "cspcat")
    page.goto(f"{base}/tables/{table_id}/")
    page.goto(f"{base}/games/{game_id}/")
    page.wait_for_selector("#hand button.card")  # drawn by the page's script from its socket
    assert violations == []
    context.close()
