"""An arena's event page in Chromium, kept current by its socket: a watcher's standings, state and
podium change without a reload or a poll while people enter, play and finish; a player's page
takes her to her table when she is seated, her game's end screen takes her back to the event, and
the event page takes her on to her next table (seated by the real beat of the site's worker).

The test's own service calls (entries, the start, the games' moves) publish on the site's Redis,
as a server's would: the pages learn of them only through their sockets."""

from __future__ import annotations

import random
import re
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.db import connection
from django.utils import timezone

from accounts.services import user_register
from games.models import Game
from tests.browser.ui import PASSWORD, sign_in, wait_still
from tests.factories import play_out
from tournaments.models import EventTable, Tournament
from tournaments.services import tournament_create, tournament_join, tournament_pause, tournament_start

pytestmark = pytest.mark.browser
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 360, "height": 740}
WAIT = 20_000  # ms: a seating waits for the site's beat (every 5 s)


@pytest.fixture(autouse=True)
def _orm_beside_playwright(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.fixture
def pushes_reach_the_site(site: Any, settings: Any) -> None:
    """This process publishes on the site's channel layer (Redis), as its servers do."""
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [site.env["REDIS_URL"]]},
        }
    }


def _service(func: Any, *args: Any, **kwargs: Any) -> Any:
    """A service call in a thread of its own, as a server's database thread makes it: this thread
    runs Playwright's event loop, inside which the commit hooks could not publish."""

    def run() -> Any:
        try:
            return func(*args, **kwargs)
        finally:
            connection.close()

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(run).result()


def _synced(page: Any) -> int:
    return int(page.locator("#standings").get_attribute("data-synced") or 0)


def _wait_synced(page: Any, more_than: int) -> int:
    page.wait_for_function(
        f"() => Number(document.getElementById('standings').dataset.synced) > {more_than}", timeout=WAIT
    )
    return _synced(page)


def _row(page: Any, name: str) -> dict[str, str]:
    cells = page.locator(f'#standings tbody tr[data-player="{name}"] td').all_inner_texts()
    return {"rank": cells[0], "name": cells[1], "points": cells[2], "games": cells[3]}


def _game_of(t: Tournament, done: bool = False) -> int:
    et = EventTable.objects.filter(tournament=t, done=done).order_by("-id").first()
    assert et is not None and et.game_id is not None
    return et.game_id


def test_standings_and_seating_reach_open_pages_by_their_sockets(
    site: Any, browser: Any, screenshots: Path, pushes_reach_the_site: None
) -> None:
    base = site.url()
    staff = user_register(username="director", password=PASSWORD)
    staff.is_staff = True
    staff.save()
    now = timezone.now()
    t = tournament_create(
        user=staff, name="Live arena", format="arena", table_size=2, min_table_size=2, bots_fill=False,
        rated=False, turn_timer=120, reaction_timer=60, discard_timer=60, duration_minutes=30,
        entry_opens_at=now - timedelta(minutes=5), starts_at=now + timedelta(hours=1),
    )  # fmt: skip
    ana = user_register(username="ana", password=PASSWORD)
    bo = user_register(username="bohumil", password=PASSWORD)

    watcher = browser.new_context(viewport=DESKTOP).new_page()  # signed out
    asked: list[str] = []
    watcher.on("request", lambda r: asked.append(r.url))
    watcher.goto(f"{base}/tournaments/{t.pk}/")
    synced = _wait_synced(watcher, 0)  # the socket's first message
    watcher.evaluate("document.body.dataset.sameLoad = 'yes'")  # a reload would drop it
    loaded = len(asked)
    assert watcher.locator("#standings-empty").is_visible()

    player = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    visited: list[str] = []
    player.on(
        "framenavigated", lambda frame: visited.append(frame.url) if frame == player.main_frame else None
    )
    sign_in(player, base, "ana")
    player.goto(f"{base}/tournaments/{t.pk}/")
    _wait_synced(player, 0)
    player.evaluate("document.body.dataset.sameLoad = 'yes'")
    assert player.locator("#entry-form").is_visible() and player.locator("#entry-actions").is_hidden()

    # Her entry, made elsewhere (another tab, the API), pauses and comes back: her open page's
    # entry panel follows her own pushes, buttons and all.
    _service(tournament_join, tournament=t, user=ana)
    player.wait_for_selector('[data-entry="entered"]', timeout=WAIT)
    assert player.get_by_text("keep this page open and it takes you to your table").is_visible()
    assert player.locator("#entry-form").is_hidden()
    assert player.locator("#pause-form button").is_visible() and player.locator("#come-back-form").is_hidden()
    assert player.locator("#withdraw-form button").inner_text() == "Leave"  # before the start
    _service(tournament_pause, tournament=t, user=ana)
    player.wait_for_selector('[data-entry="paused"]', timeout=WAIT)
    assert player.locator("#come-back-form button").is_visible() and player.locator("#pause-form").is_hidden()
    _service(tournament_join, tournament=t, user=ana)  # back
    player.wait_for_selector("#pause-form button", state="visible", timeout=WAIT)
    assert player.locator("#come-back-form").is_hidden()
    assert player.locator('[data-entry="entered"]').is_visible()
    assert player.evaluate("document.body.dataset.sameLoad") == "yes"  # never reloaded

    _service(tournament_join, tournament=t, user=bo)
    watcher.wait_for_selector('#standings tbody tr[data-player="bohumil"]', timeout=WAIT)
    assert watcher.locator("#standings tbody tr").count() == 2
    assert watcher.locator("#t-entrants").inner_text() == "2 players"
    assert watcher.locator("#games-section").is_hidden()  # no game played yet
    watcher.screenshot(path=str(screenshots / "tournament-live-entered-desktop.png"), full_page=True)
    _wait_synced(player, 0)

    _service(tournament_start, tournament=t, user=staff)
    first = _game_of(t)
    player.wait_for_url(f"{base}/games/{first}/", timeout=WAIT)  # taken to her table by the page
    player.wait_for_selector("#game[data-loading='']", timeout=WAIT)  # its socket's state is drawn
    synced = _wait_synced(watcher, synced)
    assert watcher.locator("#tournament-state").get_attribute("data-status") == "running"
    assert watcher.locator("#t-status").inner_text() == "Running"

    _service(play_out, Game.objects.get(pk=first), random.Random(8))  # both seats' moves, by the services
    player.wait_for_selector("#end:not([hidden])", timeout=WAIT)
    back = player.locator("#event-link")
    assert back.is_visible() and back.get_attribute("href") == f"/tournaments/{t.pk}/?from={first}"
    assert player.locator("#next-game").is_hidden() and player.locator("#event-stay").is_visible()
    assert "Back to the tournament in a few seconds" in player.locator("#end-text").inner_text()
    wait_still(player)  # the last cards' motion and the panel's rise end before the picture
    player.screenshot(path=str(screenshots / "tournament-live-game-end-phone.png"), full_page=True)

    watcher.wait_for_function(
        "() => Array.from(document.querySelectorAll('#standings tbody td:nth-child(4)'))"
        ".every(td => td.textContent === '1')",
        timeout=WAIT,
    )  # each played one game: the results arrived
    points = sorted(int(_row(watcher, n)["points"]) for n in ("ana", "bohumil"))
    assert sum(points) == 12 and points[-1] >= 6
    # Each player's list of games came with the result, its replay linked.
    assert watcher.locator("#games-section").is_visible()
    for name in ("ana", "bohumil"):
        games = watcher.locator(f'#games-section details[data-player="{name}"]')
        assert games.get_attribute("data-count") == "1"
        assert games.locator("summary").inner_text() == f"{name} · 1 game"
        games.locator("summary").click()
        line = games.locator("li").inner_text()
        said = rf"place [12] of 2.* · {_row(watcher, name)['points']} points? · Watch the replay$"
        assert re.match(said, line), line
        assert games.locator("a").get_attribute("href") == f"/replays/{first}/"
    watcher.screenshot(path=str(screenshots / "tournament-live-results-desktop.png"), full_page=True)

    # Back on the event page by itself, then on to the next table the site's beat seats (before or
    # after she is back: either way the event page opens it).
    player.wait_for_url(lambda url: "/games/" in url and f"/games/{first}/" not in url, timeout=2 * WAIT)
    second = _game_of(t)
    assert second != first and player.url == f"{base}/games/{second}/"
    since = visited[visited.index(f"{base}/games/{first}/") :]
    assert since[1:] == [f"{base}/tournaments/{t.pk}/?from={first}", f"{base}/games/{second}/"], since

    # The arena's time runs out during the second game: when it ends, the event finishes.
    Tournament.objects.filter(pk=t.pk).update(started_at=timezone.now() - timedelta(minutes=31))
    _service(play_out, Game.objects.get(pk=second), random.Random(9))
    watcher.wait_for_selector("#podium:not([hidden]) .podium-steps .step", timeout=WAIT)
    assert watcher.locator("#tournament-state").get_attribute("data-status") == "finished"
    assert watcher.locator("#t-status").inner_text() == "Finished"
    leader = watcher.locator("#standings tbody tr").first.get_attribute("data-player")
    assert watcher.locator(".podium-steps .step-1 .step-name").first.inner_text() == leader
    assert [_row(watcher, n)["games"] for n in ("ana", "bohumil")] == ["2", "2"]
    # The last list opened keeps the focus through the pushes (a keyboard reader's place).
    assert (
        watcher.evaluate("document.activeElement.closest('#games-lists details')?.dataset.player")
        == "bohumil"
    )
    for name in ("ana", "bohumil"):  # the lists too, the one opened still open
        games = watcher.locator(f'#games-section details[data-player="{name}"]')
        assert games.get_attribute("data-count") == "2" and games.get_attribute("open") is not None
        replays = [a.get_attribute("href") for a in games.locator("a").all()]
        assert replays == [f"/replays/{first}/", f"/replays/{second}/"]
    assert (
        watcher.locator('[data-ended="finished"]').is_visible()
        and watcher.locator("#entry-invite").is_hidden()
    )
    assert watcher.evaluate("document.body.dataset.sameLoad") == "yes"  # never reloaded
    own = [u for u in asked[loaded:] if "/tournaments/" in u or "/api/" in u]
    assert own == [], own  # and never polled
    watcher.screenshot(path=str(screenshots / "tournament-live-podium-desktop.png"), full_page=True)

    player.wait_for_url(lambda url: f"/tournaments/{t.pk}/" in url, timeout=WAIT)  # back at the end
    player.wait_for_selector("#podium:not([hidden])", timeout=WAIT)
    assert player.locator('#entry-state [data-entry="played"]').is_visible()
    wait_still(player)  # the podium's fonts settle before the picture
    player.screenshot(path=str(screenshots / "tournament-live-podium-phone.png"), full_page=True)
