"""A ban said at once on the pages the person has open: the game and table pages in
English and the lobby in Czech, each in another browser session, show why they were signed out
(the words of the next page: accounts/notices.py) as soon as the moderator acts, and stop
reconnecting; the game page's log says why a bot now plays the seat. The page's clock is run ahead
to show that no reconnection waits to happen."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connections

from moderation import services
from tests.browser.ui import sign_in, start_against_bots, wait_loaded
from tests.moderation.conftest import make_moderator

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
IDLE_MS = 120_000  # of the page's clock, run ahead at once: past every reconnection wait (20 s at most)
# Every socket the page opens, counted as it is made.
COUNT_SOCKETS = """(() => {
  const Real = window.WebSocket;
  window.harehraTestSockets = 0;
  window.WebSocket = class extends Real {
    constructor(...args) {
      super(...args);
      window.harehraTestSockets += 1;
    }
  };
})();"""


def _context(browser: Any, locale: str) -> Any:
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale=locale)
    context.add_init_script(COUNT_SOCKETS)
    context.clock.install()  # time flows as usual until the test runs it ahead
    context.set_default_timeout(15000)
    return context


def test_the_pages_open_when_a_ban_happens_say_why_at_once_and_stop(
    site: Any, browser: Any, screenshots: Path, settings: Any, make_user: Any
) -> None:
    base = site.url(0)
    name = f"nora{int(time.time()) % 100000}"
    table_id, game_id = start_against_bots(base, name, bots=1)
    english, czech = _context(browser, "en-GB"), _context(browser, "cs-CZ")

    game = english.new_page()
    sign_in(game, base, name)
    game.goto(f"{base}/games/{game_id}/")
    wait_loaded(game)
    table = english.new_page()
    table.goto(f"{base}/tables/{table_id}/")
    table.wait_for_selector("#table-live[data-refreshed]")  # its socket said "changed"
    lobby = czech.new_page()
    sign_in(lobby, base, name)  # a second session: each is told
    lobby.wait_for_selector("#lobby-tables[data-synced]")  # its socket sent the list

    # The moderator acts in this process; its channel layer is the site's (Redis).
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [site.env["REDIS_URL"]]},
        }
    }
    person = get_user_model().objects.get(username=name)
    moderator = make_moderator(make_user)
    # The ban comes while the page asks its person for a decision (after the bot's turn, if it
    # moves first): the prompt must not outlive the seat.
    game.wait_for_selector("#game[data-mine]:not([data-mine=''])")
    assert game.is_visible("#prompt")

    def ban() -> None:  # off this thread, where Playwright runs an event loop the publish can't use
        try:
            services.user_ban(moderator=moderator, user=person, reason="abusive chat at table 3")
        finally:
            connections.close_all()

    with ThreadPoolExecutor(1) as pool:
        pool.submit(ban).result()

    said = {
        label: page.wait_for_selector("#sanction-notice[role=alert]").inner_text()
        for label, page in (("game", game), ("table", table), ("lobby", lobby))
    }
    english_words = "You have been signed out. This account is banned. Reason: abusive chat at table 3"
    assert english_words in said["game"] and english_words in said["table"]
    assert "Byli jste odhlášeni. Tento účet je zablokován. Důvod: abusive chat at table 3" in said["lobby"]
    assert "Na úvodní stránku" in said["lobby"]
    # The game page's own lines do not say the game cannot be watched, nor offer the seat back.
    game.wait_for_selector("#away-banner", state="hidden")  # hidden at the close after the notice
    assert game.inner_text("#connection") == ""
    # Its log says why a bot plays the seat (the hand-over is pushed before the socket closes),
    # not that its person is away, as if they could come back and take it.
    handed = game.wait_for_selector("#log li:has-text('a bot plays your seat')").inner_text()
    assert handed == "Your account was suspended or banned; a bot plays your seat", handed
    assert "You are away" not in game.inner_text("#log")
    assert game.inner_text("#me .presence") == "a bot plays"  # their own seat's label: not "away"
    # Nor does it still ask them for a decision they can no longer send.
    game.wait_for_selector("#prompt", state="hidden")
    assert game.get_attribute("#game", "data-mine") == ""
    assert game.inner_text("#turn-text") == "A bot plays your seat"  # and no clock of theirs
    game.screenshot(path=str(screenshots / "sanction-game-page.png"))
    lobby.screenshot(path=str(screenshots / "sanction-lobby-cs.png"))

    # No page tries again: past every wait a reconnection could have, no socket was made.
    pages = {"game": game, "table": table, "lobby": lobby}
    made = {label: page.evaluate("window.harehraTestSockets") for label, page in pages.items()}
    for context in (english, czech):
        context.clock.run_for(IDLE_MS)
    again = {label: page.evaluate("window.harehraTestSockets") for label, page in pages.items()}
    assert again == made, (made, again)
    for page in pages.values():
        assert page.locator("#sanction-notice").count() == 1  # said once
    english.close()
    czech.close()
