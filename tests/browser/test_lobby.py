"""The lobby and table pages in Chromium: changes arrive over their sockets, and nothing polls.

The tests wait on the pages' state (rows, #lobby-tables[data-synced], #table-live[data-refreshed]),
never for a time. Where nothing must happen, the page's own clock (Playwright's, installed before
the page loads) is run ahead, which fires at once every timer the page set for that time: a page
that polled would fetch, and it records each fetch it starts in the page itself.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import pytest

from accounts.services import user_register, user_token
from tests.browser.ui import api

PASSWORD = "hare-tree-house-42"
IDLE_MS = 60_000  # of the page's clock, run ahead in an instant
# Every fetch and XMLHttpRequest the page starts, recorded when it starts: read at once, with no
# wait for the network's events to reach the test.
RECORD_FETCHES = """(() => {
  const started = (window.harehraTestFetches = []);
  const fetch0 = window.fetch;
  window.fetch = function (input, init) {
    started.push(String(input instanceof Request ? input.url : input));
    return fetch0.call(this, input, init);
  };
  const open0 = XMLHttpRequest.prototype.open;
  XMLHttpRequest.prototype.open = function (method, url, ...rest) {
    started.push(String(url));
    return open0.call(this, method, url, ...rest);
  };
})();"""

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


def watched_page(browser: Any) -> tuple[Any, list[str]]:
    """A page whose clock the test controls and which records the fetches it starts, and the URLs
    it requests (as the network reports them)."""
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    context.add_init_script(RECORD_FETCHES)
    context.clock.install()  # time flows as usual until a test runs it ahead or pauses it
    page = context.new_page()
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    return page, requests


def fetches_started(page: Any) -> list[str]:
    """The fetches the page started since the last call (forgotten once read)."""
    return list(page.evaluate("() => window.harehraTestFetches.splice(0)"))


def idle(page: Any) -> list[str]:
    """Run the page's clock IDLE_MS ahead, firing every timer due meanwhile; the fetches started."""
    fetches_started(page)
    page.clock.run_for(IDLE_MS)
    return fetches_started(page)


def test_the_lobby_shows_tables_as_they_change_without_reload_or_polling(
    site: Any, browser: Any, screenshots: Path
) -> None:
    base = site.url()
    ann, bob, cat = person("ann_lobby"), person("bob_lobby"), person("cat_lobby")
    page, requests = watched_page(browser)  # anonymous: anyone may watch the lobby
    page.goto(f"{base}/lobby/")
    assert page.is_visible("text=No open tables right now")
    page.wait_for_selector("#lobby-tables[data-synced='1']")  # its socket sent the list
    page.evaluate("window.notReloaded = true")
    page.screenshot(path=str(screenshots / "lobby-live-empty.png"), full_page=True)

    requests.clear()
    assert idle(page) == []  # a minute of the page's time: not one fetch
    assert page_fetches(requests) == [], requests  # nor a request for the lobby

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

    dora, dora_requests = watched_page(browser)
    dora.goto(f"{base}/accounts/login/")
    dora.fill("#id_username", "dora_table")
    dora.fill("#id_password", PASSWORD)
    dora.click("main button[type=submit]")
    dora.wait_for_url(f"{base}/lobby/")
    dora.goto(f"{base}/tables/{tid}/?invite={invite}")
    dora.click(".seat-card[data-seat='1'] button:has-text('Sit here')")
    dora.wait_for_selector(".seat-card.mine")
    # Someone holding the invite link watches, signed out.
    guest, guest_requests = watched_page(browser)
    guest.goto(f"{base}/tables/{tid}/?invite={invite}")

    for page, requests in ((dora, dora_requests), (guest, guest_requests)):
        # The page syncs once when its socket opens, then asks for nothing while nothing changes.
        page.wait_for_selector("#table-live[data-refreshed='1']")
        assert [u for u in page_fetches(requests) if "fragment=1" in u], requests
        page.evaluate("window.notReloaded = true")
    dora_requests.clear()
    guest_requests.clear()
    assert idle(dora) == [] and idle(guest) == []  # a minute of each page's time: not one fetch
    assert page_fetches(dora_requests) == [] and page_fetches(guest_requests) == []

    dora.focus("form[action$='/leave/'] button")
    api(base, host, f"/api/tables/{tid}/add-bot/", {"seat": 2})
    for page in (dora, guest):
        page.wait_for_selector(".seat-card[data-seat='2'] >> text=Bot 3", timeout=2000)
        assert page.get_attribute("#table-live", "data-refreshed") == "2"  # one fetch for the change
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
    page, requests = watched_page(browser)
    # Real sockets, which the test can end as a lost connection ends.
    routes: list[Any] = []

    def route(ws: Any) -> None:
        ws.connect_to_server()
        routes.append(ws)

    page.route_web_socket(re.compile(r"/ws/lobby/(\?.*)?$"), route)  # ?lang=: the page's language
    page.goto(f"{base}/lobby/")
    page.wait_for_selector(f"li.table-item[data-table='{gone}']")
    page.wait_for_selector("#lobby-tables[data-synced='1']")  # its socket is open and sent the list
    assert len(routes) == 1

    # The page's clock stands still, so the page cannot reconnect while the tables change.
    page.clock.pause_at(page.evaluate("Date.now()"))
    routes[0].close(code=4000, reason="gone")  # any close but 4403: the page will reconnect
    api(base, eve, f"/api/tables/{gone}/leave/")  # closes: its row must go
    new = api(base, fay, "/api/tables/", {"seats": 4})["id"]  # created: its row must come
    assert page.is_visible(f"li.table-item[data-table='{gone}']")  # missed: no socket brought it
    assert page.locator(f"li.table-item[data-table='{new}']").count() == 0
    page.clock.resume()  # the reconnect is due 250–500 ms (of the page's time) after the loss

    page.wait_for_selector(f"li.table-item[data-table='{new}']", timeout=5000)
    page.wait_for_selector(f"li.table-item[data-table='{gone}']", state="detached", timeout=2000)
    assert page.get_attribute("#lobby-tables", "data-synced") == "2"  # the whole list, once more
    assert len(routes) == 2 and page_fetches(requests) == [f"{base}/lobby/"]
