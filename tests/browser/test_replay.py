"""The replay viewer and live watching in Chromium, against a real server process."""

from __future__ import annotations

import contextlib
import http.server
import json
import threading
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from bench.stored_games import long_game, store_game
from tests.support.decks import SEAT_ZERO_SKIPPED, STACKED
from tests.support.stack import Stack

pytestmark = [pytest.mark.browser]
# The live game's deal (the stored games are dealt in this process): the bots play sixteen turns
# before the away host's seat is first asked anything, so the game moves at the bots' pace.
SITE_ENV = {"GAME_SHUFFLE": STACKED, "DECK_TOP": ",".join(SEAT_ZERO_SKIPPED.deck_top())}


def _stored_game(min_events: int = 300) -> Any:
    return store_game(long_game(min_events, seed=3), ["ann", "bob", "cat", "dan"])


def _step(page: Any) -> int:
    return int(page.get_attribute("#replay", "data-step"))


def _frames(site: Stack, game_id: int, perspective: str = "all") -> list[dict[str, Any]]:
    with urllib.request.urlopen(f"{site.url()}/api/replays/{game_id}/frames/?perspective={perspective}") as r:
        return json.loads(r.read())["frames"]


def _open(browser: Any, url: str) -> Any:
    page = browser.new_page()
    page.goto(url)
    page.wait_for_selector("#replay .rp-seat")
    return page


def test_step_through_a_replay_by_keyboard_and_slider(site: Stack, browser: Any, screenshots: Any) -> None:
    game = _stored_game()
    frames = _frames(site, game.pk)
    turns = [f["step"] for f in frames if f["event"]["type"] == "TurnStarted"]
    page = _open(browser, f"{site.url()}/replays/{game.pk}/")
    assert "Replay:" in page.title()
    assert page.get_attribute('meta[property="og:description"]', "content")
    assert _step(page) == 0
    page.locator("body").click(position={"x": 5, "y": 5})
    page.keyboard.press("ArrowRight")
    assert _step(page) == 1
    assert page.inner_text("#replay-event") == frames[1]["text"]
    page.keyboard.press("Shift+ArrowRight")
    assert _step(page) == turns[1]
    page.keyboard.press("PageDown")
    assert _step(page) == turns[2]
    page.keyboard.press("PageUp")
    assert _step(page) == turns[1]
    page.keyboard.press("ArrowLeft")
    assert _step(page) == turns[1] - 1
    page.keyboard.press("End")
    assert _step(page) == len(frames) - 1
    assert page.inner_text("#replay-event") == frames[-1]["text"]
    page.keyboard.press("Home")
    assert _step(page) == 0
    # The slider, the log and the chart jump too.
    page.locator("#replay-slider").fill("40")
    assert _step(page) == 40
    assert page.inner_text("#replay-event") == frames[40]["text"]
    assert page.get_attribute("#replay-log li.rp-current", "data-step") == "40"
    page.locator('#replay-log li[data-step="12"]').click()
    assert _step(page) == 12
    chart = page.locator("#replay-chart svg")
    chart.scroll_into_view_if_needed()
    box = chart.bounding_box()
    chart.click(position={"x": box["width"] * 0.5, "y": box["height"] / 2})
    assert abs(_step(page) - round(0.5 * (len(frames) - 1))) <= 2
    # Play and pause with the space bar.
    page.locator("body").click(position={"x": 5, "y": 5})
    page.keyboard.press("Home")
    page.keyboard.press("Space")
    page.wait_for_function("() => document.querySelector('#replay').dataset.step !== '0'", timeout=5000)
    page.keyboard.press("Space")
    assert page.get_attribute("#replay-play", "aria-pressed") == "false"
    # Every hand is shown for a finished game by default.
    page.keyboard.press("End")
    assert (
        page.locator(".rp-hand").count()
        + page.locator(".rp-hidden").count()
        + page.locator(".rp-seat.eliminated").count()
        == 4
    )
    # One describer: the viewer's log says every step as the server's frames do.
    assert page.locator("#replay-log li").all_inner_texts() == [f["text"] for f in frames]
    assert page.locator(".rp-seat .card-art").count() > 0  # the table shows the card art
    page.screenshot(path=str(screenshots / "replay-viewer.png"), full_page=True)
    page.close()


def test_shared_step_link_and_perspectives(site: Stack, browser: Any) -> None:
    game = _stored_game()
    frames = _frames(site, game.pk, "seat:1")
    page = _open(browser, f"{site.url()}/replays/{game.pk}/?step=25&perspective=seat:1")
    assert _step(page) == 25
    assert page.get_attribute("#replay", "data-perspective") == "seat:1"
    assert page.inner_text("#replay-event") == frames[25]["text"]
    # Only seat 1's hand is shown, and as it was then.
    hands = page.locator(".rp-hand")
    assert hands.count() == 1 and hands.first.get_attribute("data-seat") == "1"
    shown = [li.get_attribute("data-card") for li in hands.first.locator("li").all()]
    assert shown == frames[25]["state"]["hand"]
    # Switch perspective: the step stays, the hands follow.
    page.select_option("#replay-perspective", "spectator")
    page.wait_for_function("() => document.querySelector('#replay').dataset.perspective === 'spectator'")
    assert _step(page) == 25 and page.locator(".rp-hand").count() == 0
    page.select_option("#replay-perspective", "all")
    page.wait_for_function("() => document.querySelector('#replay').dataset.perspective === 'all'")
    assert page.locator(".rp-hand").count() >= 1 and _step(page) == 25
    page.locator("body").click(position={"x": 5, "y": 5})
    page.keyboard.press("ArrowRight")
    link = page.input_value("#replay-link")
    assert "step=26" in link and "perspective=all" in link
    page.click("#replay-copy")
    page.wait_for_selector("#replay-copied:text('copied')")
    other = _open(browser, link)
    assert _step(other) == 26 and other.get_attribute("#replay", "data-perspective") == "all"
    other.close()
    page.close()


def _api(site: Stack, path: str, body: Any = None, token: str | None = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(f"{site.url()}{path}", data=data, method="POST" if data else "GET")
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Token {token}")
    with urllib.request.urlopen(request) as r:
        return json.loads(r.read())


def test_watch_a_live_game_as_a_spectator(site: Stack, browser: Any, screenshots: Any) -> None:
    token = _api(site, "/api/accounts/register/", {"username": "hosty", "password": "correct-horse-battery"})[
        "token"
    ]
    table = _api(site, "/api/tables/", {"seats": 4, "turn_timer": 5}, token)
    # The host's own seat is played by a bot too: leave it to a bot by adding bots everywhere else,
    # then start; the host is away, so the timer's autopilot (and soon a bot) plays seat 0, once
    # the deal asks it anything (SEAT_ZERO_SKIPPED: not in the first sixteen turns).
    for _ in range(3):
        _api(site, f"/api/tables/{table['id']}/add-bot/", {}, token)
    started = _api(site, f"/api/tables/{table['id']}/start/", {}, token)
    game_id = started["current_game"]
    page = _open(browser, f"{site.url()}/watch/{game_id}/")
    first = _step(page)
    # Bots move: the table follows live.
    page.wait_for_function(
        f"() => Number(document.querySelector('#replay').dataset.step) > {first + 3}", timeout=60_000
    )
    assert page.locator(".rp-hand").count() == 0  # a spectator sees no hand
    page.wait_for_function(
        "() => Number(document.querySelector('#watch-count').dataset.count) >= 1", timeout=15_000
    )
    # Step back through the events so far; new events do not move the view; back to live.
    page.locator("body").click(position={"x": 5, "y": 5})
    page.keyboard.press("Home")
    assert _step(page) == 0
    assert page.is_visible("#watch-live")
    seen = int(page.get_attribute("#replay-slider", "max") or 0)
    page.wait_for_function(  # a new event arrives while the viewer looks back
        f"() => Number(document.querySelector('#replay-slider').max) > {seen}", timeout=15_000
    )
    assert _step(page) == 0
    page.click("#watch-live")
    page.wait_for_function(
        "() => Number(document.querySelector('#replay').dataset.step) === "
        "Number(document.querySelector('#replay-slider').max)"
    )
    options = page.locator("#replay-perspective option")
    assert options.count() == 1 and options.first.get_attribute("value") == "spectator"
    page.screenshot(path=str(screenshots / "replay-watch.png"), full_page=True)
    page.close()


@contextlib.contextmanager
def other_site(html: str) -> Iterator[str]:
    """Another site serving `html` at /post/1: its own server, reached as localhost (another host
    name than the site's 127.0.0.1, so another origin and another site), on the loopback address
    like the site (Chromium refuses a public page's frames of a local address)."""

    class Page(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = html.encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: Any) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Page)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://localhost:{server.server_address[1]}/post/1"
    finally:
        server.shutdown()
        server.server_close()


def test_another_site_embeds_a_replay_and_steps_it(site: Stack, browser: Any, screenshots: Any) -> None:
    game = _stored_game()
    frames = _frames(site, game.pk)
    embed = f"{site.url()}/embed/replays/{game.pk}/?step=10"
    host = (
        "<!doctype html><html><head><title>A forum post</title></head><body>"
        "<h1>Look at this game</h1>"
        f'<iframe id="embed" src="{embed}" width="960" height="820" title="replay"></iframe>'
        f'<iframe id="page" src="{site.url()}/replays/{game.pk}/" width="400" height="200" '
        'title="page"></iframe>'
        "</body></html>"
    )
    page = browser.new_page(viewport={"width": 1000, "height": 1100})
    refused: list[str] = []
    page.on("console", lambda m: refused.append(m.text) if "frame" in m.text.lower() else None)
    with other_site(host) as post:
        page.goto(post)
        _step_the_embed(site, page, game.pk, frames, refused)
    page.screenshot(path=str(screenshots / "replay-embed.png"))
    page.close()
    # On a phone, the embed alone (as a forum's frame the width of the screen shows it).
    phone = browser.new_page(viewport={"width": 390, "height": 760})
    phone.goto(f"{site.url()}/embed/replays/{game.pk}/?step=40")
    phone.wait_for_selector("#replay .rp-seat")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    phone.screenshot(path=str(screenshots / "replay-embed-phone.png"), full_page=True)
    phone.close()


def _step_the_embed(
    site: Stack, page: Any, game_id: int, frames: list[dict[str, Any]], refused: list[str]
) -> None:
    frame = page.frame_locator("#embed")
    frame.locator("#replay .rp-seat").first.wait_for()
    inner = page.frame(url=lambda u: "/embed/replays/" in u)
    assert inner is not None and inner.url.startswith(site.url())

    def step() -> int:
        return int(frame.locator("#replay").get_attribute("data-step"))

    assert step() == 10
    assert frame.locator("#replay-event").inner_text() == frames[10]["text"]
    assert frame.locator(".site-header, .site-footer").count() == 0
    # The whole table fits the frame the share menu's code asks for (960 × 820).
    assert inner.evaluate("document.documentElement.scrollHeight") <= 820
    # Stepping: the buttons and the keys inside the frame.
    frame.locator('button[data-action="next"]').click()
    frame.locator("#replay[data-step='11']").wait_for()
    assert frame.locator("#replay-event").inner_text() == frames[11]["text"]
    frame.locator('button[data-action="next-turn"]').click()
    frame.locator("#replay:not([data-step='11'])").wait_for()
    later = step()
    assert later > 11 and frames[later]["event"]["type"] == "TurnStarted"
    frame.locator("#replay-event").click()
    page.keyboard.press("ArrowLeft")
    frame.locator(f"#replay[data-step='{later - 1}']").wait_for()
    # The link back follows the step and opens the full replay outside the frame.
    back = frame.locator("#replay-full-text")
    assert back.get_attribute("target") == "_blank"
    assert back.get_attribute("href") == f"{site.url()}/replays/{game_id}/?step={later - 1}&perspective=all"
    with page.context.expect_page() as opened:
        back.click()
    full = opened.value
    full.wait_for_selector("#replay .rp-seat")
    assert full.url.startswith(f"{site.url()}/replays/{game_id}/")
    assert int(full.get_attribute("#replay", "data-step")) == later - 1
    assert full.locator(".site-header").count() == 1
    full.close()
    # The replay page itself refuses the other site's frame.
    blocked = page.frame(url=lambda u: u.startswith(f"{site.url()}/replays/"))
    assert blocked is None or blocked.locator("#replay").count() == 0
    assert any("frame-ancestors 'none'" in t or "X-Frame-Options" in t for t in refused), refused


def test_the_share_menu_gives_the_embed_code(site: Stack, browser: Any, screenshots: Any) -> None:
    game = _stored_game()
    page = _open(browser, f"{site.url()}/replays/{game.pk}/?step=7")
    page.click("#replay-share-more summary")
    code = page.locator("#replay-embed-code")
    code.wait_for()
    assert f'src="{site.url()}/embed/replays/{game.pk}/?step=7&amp;perspective=all"' in code.input_value()
    page.locator("body").click(position={"x": 5, "y": 5})
    page.keyboard.press("ArrowRight")
    page.wait_for_selector("#replay[data-step='8']")
    assert "?step=8&amp;perspective=all" in code.input_value()
    page.click("#replay-embed-copy")
    page.wait_for_selector("#replay-embed-copied:text('copied')")
    # The clip: from the shown step, 20 steps, until the person picks a span (60 steps at most).
    clip = page.locator("#replay-clip-link")
    assert clip.get_attribute("href") == (
        f"{site.url()}/replays/{game.pk}/clip.gif?from=8&to=27&perspective=all"
    )
    page.fill("#replay-clip-from", "30")
    page.locator("#replay-clip-from").dispatch_event("change")
    page.fill("#replay-clip-to", "200")
    page.locator("#replay-clip-to").dispatch_event("change")
    assert page.input_value("#replay-clip-to") == "89"
    href = clip.get_attribute("href")
    assert href.endswith("clip.gif?from=30&to=89&perspective=all")
    gif = page.request.get(href)
    assert gif.status == 200 and gif.headers["content-type"] == "image/gif" and gif.body()[:6] == b"GIF89a"
    (screenshots / "replay-clip.gif").write_bytes(gif.body())
    page.screenshot(path=str(screenshots / "replay-share-menu.png"))
    page.close()


def test_a_private_tables_invitee_watches_from_the_invite_link(
    site: Stack, browser: Any, screenshots: Any
) -> None:
    """Someone with the invite link and no seat presses "Watch the game" and watches, on the game
    page and the watch page, as a spectator (their browser's session keeps the invite)."""
    token = _api(site, "/api/accounts/register/", {"username": "hostp", "password": "correct-horse-battery"})[
        "token"
    ]
    table = _api(site, "/api/tables/", {"seats": 4, "turn_timer": 5, "visibility": "private"}, token)
    for _ in range(3):
        _api(site, f"/api/tables/{table['id']}/add-bot/", {}, token)
    game_id = _api(site, f"/api/tables/{table['id']}/start/", {}, token)["current_game"]
    context = browser.new_context()
    page = context.new_page()
    assert page.goto(f"{site.url()}/watch/{game_id}/").status == 404  # not without the invite
    page.goto(f"{site.url()}/tables/{table['id']}/?invite={table['invite_code']}")
    page.click("#go-to-game")
    page.wait_for_url(f"**/games/{game_id}/")
    page.wait_for_selector("#game[data-loading='']", timeout=15_000)
    seq = int(page.get_attribute("#game", "data-seq") or 0)
    page.wait_for_function(  # the live socket follows the bots' moves
        f"() => Number(document.getElementById('game').dataset.seq || 0) > {seq}", timeout=60_000
    )
    assert page.locator("#hand button.card").count() == 0  # a spectator holds no hand
    page.screenshot(path=str(screenshots / "invitee-game.png"), full_page=True)
    page.goto(f"{site.url()}/watch/{game_id}/")
    page.wait_for_selector("#replay .rp-seat")
    first = _step(page)
    page.wait_for_function(
        f"() => Number(document.querySelector('#replay').dataset.step) > {first}", timeout=60_000
    )
    page.screenshot(path=str(screenshots / "invitee-watch.png"), full_page=True)
    context.close()
