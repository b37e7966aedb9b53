"""The notification settings page as a person sees it: a table of kinds and channels, in English
on a desktop and in Czech on a phone; a box ticked and saved stays ticked."""

from __future__ import annotations

from typing import Any

import pytest

from accounts.services import user_register
from notifications.selectors import wants
from tests.browser.ui import PASSWORD, sign_in

pytestmark = pytest.mark.browser

SCREENS = [
    ("en-desktop", {"viewport": {"width": 1280, "height": 800}}, "en"),
    ("en-phone", {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}, "en"),
    ("cs-desktop", {"viewport": {"width": 1280, "height": 800}, "locale": "cs-CZ"}, "cs"),
    (
        "cs-phone",
        {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "locale": "cs-CZ"},
        "cs",
    ),
]
WORDS = {
    "en": (
        "Notification settings",
        "Your move in a game you are not looking at",
        "Your notification settings are saved.",
    ),
    "cs": (
        "Nastavení upozornění",
        "Jste na tahu ve hře, kterou nemáte otevřenou",
        "Nastavení upozornění je uloženo.",
    ),
}


@pytest.mark.parametrize(("name", "options", "language"), SCREENS, ids=[s[0] for s in SCREENS])
def test_the_settings_page_in_each_language_and_screen(
    site: Any, browser: Any, screenshots: Any, name: str, options: dict[str, Any], language: str
) -> None:
    user = user_register(username=f"np{name.replace('-', '')}", password=PASSWORD)
    ctx = browser.new_context(**options, extra_http_headers={"Accept-Language": language})
    page = ctx.new_page()
    sign_in(page, site.url(), user.get_username())
    page.goto(f"{site.url()}/notifications/settings/")
    title, your_turn, saved = WORDS[language]
    assert page.locator("h1").inner_text() == title
    row = page.locator('tr[data-kind="your_turn"]')
    assert row.locator("th").inner_text() == your_turn
    site_box, push_box, email_box = (
        row.locator(f'input[name="your_turn:{c}"]') for c in ("site", "push", "email")
    )
    assert site_box.is_checked() and site_box.is_disabled()
    assert push_box.is_checked() and not email_box.is_checked()
    # The table fits the screen: no sideways scrolling on a phone.
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page.screenshot(path=str(screenshots / f"notification-settings-{name}.png"), full_page=True)

    email_box.check()
    page.locator('tr[data-kind="moderation"] input[name="moderation:push"]').uncheck()
    page.click(".notification-settings form button[type=submit]")
    page.wait_for_selector(f"text={saved}")
    assert page.locator('input[name="your_turn:email"]').is_checked()
    assert not page.locator('input[name="moderation:push"]').is_checked()
    assert wants(user.pk, "your_turn", "email") and not wants(user.pk, "moderation", "push")
    ctx.close()
