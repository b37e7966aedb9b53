"""The table chat in Chromium: two players talk live across the game page and the table page,
hostile text stays text, a reload shows the history, a spectator's chat is apart, a report lands.
Waits use locators, not page-evaluated strings, which a Content Security Policy forbids."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from accounts.services import user_register, user_token
from moderation.models import Report
from tests.browser.ui import api

pytestmark = pytest.mark.browser
PASSWORD = "correct-horse-battery"
HOSTILE = '<img src=x onerror="document.title=\'owned\'"><script>document.title="owned"</script>'


@pytest.fixture(autouse=True)
def _orm_beside_playwright(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


def _signed_in(browser: Any, base: str, name: str) -> Any:
    context = browser.new_context()
    page = context.new_page()
    page.goto(f"{base}/accounts/login/")  # sets the CSRF cookie the sign-in needs
    csrf = next((c["value"] for c in context.cookies() if c["name"] == "csrftoken"), "")
    r = page.request.post(
        f"{base}/api/accounts/login/",
        data={"username": name, "password": PASSWORD},
        headers={"X-CSRFToken": csrf},
    )
    assert r.ok, r.text()
    return page


def _texts(page: Any) -> list[str]:
    return page.locator("#chat-log li .chat-text").all_inner_texts()


def test_two_players_chat_live_and_spectators_apart(site: Any, browser: Any, screenshots: Any) -> None:
    base = site.url()
    alice = user_register(username="alice", password=PASSWORD)
    bob = user_register(username="bob", password=PASSWORD)
    user_register(username="carol", password=PASSWORD)
    ta, tb = user_token(user=alice), user_token(user=bob)
    table = api(
        base, ta, "/api/tables/", {"seats": 2, "turn_timer": 600, "reaction_timer": 600, "discard_timer": 600}
    )
    api(base, tb, f"/api/tables/{table['id']}/join/", {})
    game_id = api(base, ta, f"/api/tables/{table['id']}/start/")["current_game"]

    pa = _signed_in(browser, base, "alice")
    pa.goto(f"{base}/games/{game_id}/")
    pb = _signed_in(browser, base, "bob")
    pb.goto(f"{base}/tables/{table['id']}/")
    for page in (pa, pb):
        page.wait_for_selector("#chat:not([hidden]) #chat-input")
        assert page.locator("#chat-channel").inner_text() == "Players' chat"

    pa.fill("#chat-input", HOSTILE)
    pa.press("#chat-input", "Enter")
    expect(pb.locator("#chat-log li")).to_have_count(1)
    assert _texts(pb) == [HOSTILE]  # shown as the characters typed
    assert pb.locator("#chat-log img, #chat-log script").count() == 0 and pb.title() != "owned"
    pb.fill("#chat-input", "hello alice")
    pb.click("#chat-form button[type=submit]")
    expect(pa.locator("#chat-log li")).to_have_count(2)
    assert _texts(pa) == [HOSTILE, "hello alice"] and pa.title() != "owned"
    pa.screenshot(path=str(screenshots / "chat-game-page.png"), full_page=True)

    # A pasted message over 300 characters is kept whole, said to be over, and not sent.
    pb.fill("#chat-input", "x" * 400)
    expect(pb.locator("#chat-count")).to_contain_text("100 characters too many")
    pb.press("#chat-input", "Enter")
    assert pb.input_value("#chat-input") == "x" * 400
    pb.screenshot(path=str(screenshots / "chat-too-long.png"), full_page=True)
    pb.fill("#chat-input", "")
    expect(pb.locator("#chat-count")).to_have_text("")

    # A reload shows the history.
    pb.reload()
    expect(pb.locator("#chat-log li")).to_have_count(2)
    assert _texts(pb) == [HOSTILE, "hello alice"]
    pb.screenshot(path=str(screenshots / "chat-table-page.png"), full_page=True)

    # A spectator on the watch page has the spectators' chat, and hears nothing of the players'.
    pc = _signed_in(browser, base, "carol")
    pc.goto(f"{base}/watch/{game_id}/")
    pc.wait_for_selector("#chat:not([hidden]) #chat-input")
    assert pc.locator("#chat-channel").inner_text() == "Spectators' chat"
    assert _texts(pc) == []
    pc.fill("#chat-input", "go bob")
    pc.press("#chat-input", "Enter")
    expect(pc.locator("#chat-log li")).to_have_count(1)
    pc.screenshot(path=str(screenshots / "chat-watch-page.png"), full_page=True)
    assert _texts(pa) == [HOSTILE, "hello alice"]

    # Bob reports alice's message with a reason he picks: it lands in the reports queue, quoted.
    line = pb.locator("#chat-log li", has_text="document.title")
    line.locator(".chat-report").click()
    form = line.locator(".chat-report-form")
    expect(form.locator("select")).to_be_focused()
    reasons = form.locator("select option").evaluate_all("os => os.map(o => o.value)")
    assert reasons == ["abuse", "spam", "name", "cheating", "other"]
    form.locator("select").select_option("other")
    form.locator("button[type=submit]").click()  # "Something else" needs a word of what happened
    expect(pb.locator("#chat-status")).to_contain_text("what happened")
    assert not Report.objects.filter(reporter=bob).exists()
    form.locator("select").select_option("spam")
    form.locator("input[name=text]").fill("the same link again and again")
    pb.screenshot(path=str(screenshots / "chat-report-form.png"), full_page=True)
    form.locator("button[type=submit]").click()
    expect(pb.locator("#chat-status")).to_contain_text("moderators")
    expect(form).to_have_count(0)
    report = Report.objects.get(reporter=bob)
    assert report.target_user == alice and HOSTILE in report.text and report.reason == "spam"
    assert "the same link again and again" in report.text

    # The host turns the chat off: the other player's form goes away.
    pa.click("#chat-toggle")
    pb.wait_for_selector("#chat-form", state="hidden")
    assert "turned this table's chat off" in pb.locator("#chat-status").inner_text()
