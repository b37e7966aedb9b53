"""The create-table form and the new table's invite link in Chromium, on desktop and phone."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from tests.browser.ui import person, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Whether each of the form's controls shows its whole text: a select's chosen option fits its box,
# and a checkbox has its words beside it (not a lone box under a heading).
FORM_CHECK = """() => {
  const out = {};
  for (const s of document.querySelectorAll('#create-table-form select')) {
    const probe = document.createElement('span');
    const style = getComputedStyle(s);
    probe.style.font = style.font;
    probe.style.whiteSpace = 'nowrap';
    probe.style.position = 'absolute';
    probe.textContent = s.options[s.selectedIndex].text;
    document.body.append(probe);
    const room = s.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 16;
    out[s.name] = { fits: probe.getBoundingClientRect().width <= room, text: probe.textContent };
    probe.remove();
  }
  const box = document.querySelector('#id_chat_enabled');
  const label = box.closest('label') || document.querySelector(`label[for="${box.id}"]`);
  const a = box.getBoundingClientRect(), b = label.getBoundingClientRect();
  const middle = (r) => (r.top + r.bottom) / 2;
  out.chat = { text: label.innerText.trim(), beside: Math.abs(middle(a) - middle(b)) < 12 };
  out.wide = document.documentElement.scrollWidth;
  return out;
}"""


@pytest.mark.parametrize("width,height", [(1280, 800), (360, 740)], ids=["desktop", "phone"])
def test_the_create_table_form_shows_all_its_words_and_the_invite_link_copies(
    site: Any, browser: Any, screenshots: Path, width: int, height: int
) -> None:
    base = site.url(0)
    name = f"ida{width}{int(time.time()) % 100000}"
    person(base, name)
    context = browser.new_context(viewport={"width": width, "height": height})
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=base)
    page = context.new_page()
    sign_in(page, base, name)
    form = page.locator("#create-table-form")
    form.scroll_into_view_if_needed()
    checked = page.evaluate(FORM_CHECK)
    form.screenshot(path=str(screenshots / f"create-table-form-{width}.png"))
    assert checked["wide"] <= width
    for field in ("rated", "replay_access", "visibility", "away_bot_level"):
        assert checked[field]["fits"], (field, checked[field])
    assert checked["chat"]["text"] and checked["chat"]["beside"], checked["chat"]
    # A private table: its host copies the invite link with one press.
    page.select_option("#id_visibility", "private")
    page.click("#create-table-form button[type=submit]")
    page.wait_for_url("**/tables/*/")
    link = page.input_value("#invite-link")
    assert "?invite=" in link
    page.click("#invite-copy")
    page.wait_for_selector("#invite-copied:not([hidden])")
    assert page.evaluate("navigator.clipboard.readText()") == link
    page.locator("section.invite").screenshot(path=str(screenshots / f"invite-link-{width}.png"))
    context.close()
