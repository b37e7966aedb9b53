"""A move stored but never pushed (its server or worker died between the two) does not leave the
game page behind: the page knows a bot's move is due, and when none came it asks for what it
missed (static/js/core/gamesocket.js `expectNews`). Before, it waited for the next push, here
the person's own 600 s turn timer.

The bot's move is made from the test's process, whose channel layer reaches no server: stored,
never pushed, as after a crash. The site's bots wait 60 s, and every timer is 600 s, so nothing
else moves the page in the meantime."""

from __future__ import annotations

import time
from typing import Any

import pytest

from games.models import Game, GameSeat
from games.services.autoplay import game_bot_move
from tests.browser.ui import Player, read, sign_in, start_against_bots, wait_loaded, wait_newer

SITE_ENV = {"BOT_DELAY_SECONDS": "60", "BOT_OVERDUE_SECONDS": "120"}

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _bot_to_move(game_id: int) -> bool:
    game = Game.objects.get(pk=game_id)
    return (
        game.awaiting_seat is not None
        and GameSeat.objects.filter(game=game, seat=game.awaiting_seat, bot_playing=True).exists()
    )


def test_a_bot_move_that_was_never_pushed_reaches_the_page(site: Any, browser: Any) -> None:
    base = site.url(0)
    name = f"lost{int(time.time()) % 100000}"
    _, game_id = start_against_bots(base, name, bots=1)
    page = browser.new_page()
    page.set_default_timeout(8000)
    sign_in(page, base, name)
    page.goto(f"{base}/games/{game_id}/")
    wait_loaded(page)
    player = Player(page, seat=0, friend=1)
    # Until the bot is to move: the person plays their decisions through the page.
    deadline = time.monotonic() + 60
    while not _bot_to_move(game_id):
        assert time.monotonic() < deadline, "the bot never came to move"
        if not player.act():
            wait_newer(page)
    seq = Game.objects.get(pk=game_id).last_seq
    wait_newer(page, seq - 1, timeout=8)  # the page shows the bot's turn
    assert read(page)["seq"] == seq

    outcome = game_bot_move(game_id=game_id, guard_seq=seq)  # stored here, pushed to no server
    assert outcome is not None
    moved_to = Game.objects.get(pk=game_id).last_seq
    assert moved_to > seq

    # Asked for and shown within the page's wait for a bot (6 s) and the answer's way back.
    shown = "(seq) => Number(document.getElementById('game').dataset.seq || 0) >= seq"
    page.wait_for_function(shown, arg=moved_to, timeout=20_000)
    assert read(page)["seq"] == moved_to
