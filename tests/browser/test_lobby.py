"""The lobby and table pages in Chromium: changes arrive over their sockets, and nothing polls."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import pytest

from accounts.services import user_register, user_token
from tests.browser.ui import api

REDIS_DB = 14
PASSWORD = "hare-tree-house-42"
IDLE_MS = 5000

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def person(name: str) -> str:
    return user_token(user=user_register(username=name, password=PASSWORD))


def page_fetches(requests: list[str]) -> list[str]:
    """The HTTP requests for the lobby or a table page (its socket's URL is ws://, not these)."""
    return [
        u
        for u in requests
        if urlparse(u).scheme in ("http", "https") and urlparse(u).path.startswith(("/lobby/", "/tables/"))
    ]


def watched_page(browser: Any) -> tuple[Any, list[str], list[str]]:
    """A page, the URLs it requests and the frames its sockets receive."""
    page = browser.new_context(viewport={"width": 1200, "height": 900}).new_page()
    requests: list[str] = []
    frames: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(str(payload))))
    return page, requests, frames


def wait_until(page: Any, test: Any, timeout_ms: int = 5000) -> None:
    for _ in range(timeout_ms // 50):
        if test():
            return
        page.wait_for_timeout(50)
    raise AssertionError("timed out")


def test_the_lobby_shows_tables_as_they_change_without_reload_or_polling(
    site: Any, browser: Any, screenshots: Path
) -> None:
    base = site.url()
    ann, bob, cat = person("ann_lobby"), person("bob_lobby"), person("cat_lobby")
    page, requests, frames = watched_page(browser)  # anonymous: anyone may watch the lobby
    page.goto(f"{base}/lobby/")
    assert page.is_visible("text=No open tables right now")
    wait_until(page, lambda: any('"type":"lobby"' in f for f in frames))
    page.evaluate("window.notReloaded = true")
    page.screenshot(path=str(screenshots / "lobby-live-empty.png"), full_page=True)

    requests.clear()
    page.wait_for_timeout(IDLE_MS)  # a window in which nothing must be fetched: nothing to wait for
    assert page_fetches(requests) == [], requests  # idle: not one request for the lobby

    first = api(base, ann, "/api/tables/", {"seats": 3})["id"]
    row = f"li.table-item[data-table='{first}']"
    page.wait_for_selector(row, timeout=2000)
    assert page.is_hidden("text=No open tables right now")
    assert "ann_lobby" in page.inner_text(row)
    api(base, bob, f"/api/tables/{first}/join/")
    page.wait_for_selector(f"{row} >> text=bob_lobby", timeout=2000)
    page.focus(f"{row} h3 a")  # a keyboard user on the row when it changes keeps their place
    api(base, ann, f"/api/tables/{first}/add-bot/")
    page.wait_for_selector(f"{row} >> text=Bot 3", timeout=2000)
    assert page.evaluate("document.activeElement.getAttribute('href')") == f"/tables/{first}/"
    game = api(base, ann, f"/api/tables/{first}/start/")["current_game"]
    page.wait_for_selector(f"{row} a[href='/watch/{game}/']", timeout=2000)
    second = api(base, cat, "/api/tables/", {"seats": 2})["id"]
    page.wait_for_selector(f"li.table-item[data-table='{second}']", timeout=2000)
    order = page.eval_on_selector_all("li.table-item", "rows => rows.map(r => Number(r.dataset.table))")
    assert order == [second, first]  # newest first, as the page orders them
    page.screenshot(path=str(screenshots / "lobby-live.png"), full_page=True)

    api(base, cat, f"/api/tables/{second}/leave/")  # its only person leaves: the table closes
    page.wait_for_selector(f"li.table-item[data-table='{second}']", state="detached", timeout=2000)
    api(base, bob, f"/api/tables/{first}/leave/")  # people leaving a running game: bots play on
    api(base, ann, f"/api/tables/{first}/leave/")
    page.wait_for_selector(f"{row} .chip-empty", timeout=2000)
    assert page.evaluate("window.notReloaded") is True
    assert page_fetches(requests) == [], requests  # every change came over the socket


def test_the_table_page_updates_on_each_change_and_takes_a_seated_player_to_the_game(
    site: Any, browser: Any, screenshots: Path
) -> None:
    base = site.url()
    host = person("host_table")
    person("dora_table")
    table = api(base, host, "/api/tables/", {"seats": 3, "visibility": "private"})
    tid, invite = table["id"], table["invite_code"]

    dora, dora_requests, _ = watched_page(browser)
    dora.goto(f"{base}/accounts/login/")
    dora.fill("#id_username", "dora_table")
    dora.fill("#id_password", PASSWORD)
    dora.click("main button[type=submit]")
    dora.wait_for_url(f"{base}/lobby/")
    dora.goto(f"{base}/tables/{tid}/?invite={invite}")
    dora.click(".seat-card[data-seat='1'] button:has-text('Sit here')")
    dora.wait_for_selector(".seat-card.mine")
    # Someone holding the invite link watches, signed out.
    guest, guest_requests, _ = watched_page(browser)
    guest.goto(f"{base}/tables/{tid}/?invite={invite}")

    for page, requests in ((dora, dora_requests), (guest, guest_requests)):
        # The page syncs once when its socket opens, then asks for nothing while nothing changes.
        wait_until(page, lambda requests=requests: "/?fragment=1" in " ".join(page_fetches(requests)))
        page.evaluate("window.notReloaded = true")
    dora_requests.clear()
    guest_requests.clear()
    dora.wait_for_timeout(IDLE_MS)  # a window in which nothing must be fetched: nothing to wait for
    assert page_fetches(dora_requests) == [] and page_fetches(guest_requests) == []

    dora.focus("form[action$='/leave/'] button")
    api(base, host, f"/api/tables/{tid}/add-bot/", {"seat": 2})
    for page in (dora, guest):
        page.wait_for_selector(".seat-card[data-seat='2'] >> text=Bot 3", timeout=2000)
    focused = "document.activeElement.closest('form')?.getAttribute('action')"
    assert dora.evaluate(focused) == f"/tables/{tid}/leave/"  # the panel was replaced, not the focus
    fetched = page_fetches(dora_requests)
    assert len(fetched) == 1 and fetched[0].endswith(f"/tables/{tid}/?fragment=1"), fetched
    assert page_fetches(guest_requests) == [f"{base}/tables/{tid}/?fragment=1&invite={invite}"]
    guest.screenshot(path=str(screenshots / "table-live.png"), full_page=True)

    game = api(base, host, f"/api/tables/{tid}/start/")["current_game"]
    dora.wait_for_url(f"{base}/games/{game}/", timeout=3000)  # seated: taken to the game
    guest.wait_for_selector(f"a[href='/games/{game}/']:has-text('Watch the game')", timeout=2000)
    assert guest.evaluate("window.notReloaded") is True  # a spectator stays and is offered the game


def test_a_lobby_that_lost_its_socket_catches_up_when_it_reconnects(site: Any, browser: Any) -> None:
    base = site.url()
    eve, fay = person("eve_lobby"), person("fay_lobby")
    gone = api(base, eve, "/api/tables/", {"seats": 2})["id"]
    page, requests, _ = watched_page(browser)
    # The socket is real, but while `offline` holds the server's messages never reach the page.
    link: dict[str, Any] = {"offline": False, "routes": []}

    def route(ws: Any) -> None:
        server = ws.connect_to_server()
        server.on_message(lambda message: None if link["offline"] else ws.send(message))
        link["routes"].append(ws)

    page.route_web_socket("**/ws/lobby/", route)
    page.goto(f"{base}/lobby/")
    page.wait_for_selector(f"li.table-item[data-table='{gone}']")
    wait_until(page, lambda: len(link["routes"]) == 1)

    link["offline"] = True
    api(base, eve, f"/api/tables/{gone}/leave/")  # closes: its row must go
    new = api(base, fay, "/api/tables/", {"seats": 4})["id"]  # created: its row must come
    page.wait_for_timeout(500)  # the pushes the offline socket must miss had their chance to arrive
    assert page.is_visible(f"li.table-item[data-table='{gone}']")  # missed, as a lost socket would
    link["offline"] = False
    link["routes"][0].close(code=4000, reason="gone")  # any close but 4403: the page reconnects

    page.wait_for_selector(f"li.table-item[data-table='{new}']", timeout=5000)
    page.wait_for_selector(f"li.table-item[data-table='{gone}']", state="detached", timeout=2000)
    assert len(link["routes"]) == 2 and page_fetches(requests) == [f"{base}/lobby/"]
