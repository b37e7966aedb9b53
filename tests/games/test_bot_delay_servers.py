"""Bots keep their delay in the embedded server: a real `serve` with its in-process
worker on the memory broker, on the test database."""

from __future__ import annotations

import asyncio

import pytest
from django.db import connection

from games.models import GameEvent
from tests.live.client import LiveClient
from tests.live.test_live_servers import _game, _game_row
from tests.support.stack import OUTPUT, database_url, live_stack
from tests.support.waits import db_thread, until

pytestmark = [pytest.mark.server, pytest.mark.django_db(transaction=True)]

BOT_MOVES = 6


def _bot_moves_since(game_id: int, seq: int) -> int:
    row = _game_row(game_id)
    if row.status != "running":
        return BOT_MOVES  # the game ended: the bots moved to its end
    return GameEvent.objects.filter(game_id=game_id, seq__gt=seq, actor__isnull=True).count()


def test_embedded_bots_move_while_the_games_countdown_waits_far_ahead() -> None:
    """With timers of ten minutes a game's countdown task waits in the worker's timer ten minutes
    ahead while the bots' tasks, due 0.3 s after each move, are entered. The servers' Celery timer
    precision is an hour (tests/support/slow_timer_settings.py), so a timer that looks at its
    entries only when its sleep ends runs no bot task before the countdown's: the game stalls
    after the first bot's turn. The sweep, which would move an overdue bot, is put off too."""
    with live_stack(
        database_url=database_url(connection.settings_dict),
        redis_url="",  # no Redis: `serve` runs the embedded worker on the memory broker
        servers=0,
        worker=False,
        log_dir=OUTPUT / "servers" / "test_bot_delay_servers",
        DJANGO_SETTINGS_MODULE="tests.support.slow_timer_settings",
        BOT_DELAY_SECONDS="0.3",
        BOT_OVERDUE_SECONDS="3600",
    ) as stack:
        stack.start_server("embedded")
        game, [(seat, token)] = _game(stack, 1, 3, turn_timer=600, reaction_timer=600, discard_timer=600)
        started = game.last_seq

        async def run() -> LiveClient:
            person = LiveClient(game.pk, token, seat)  # acts at once on every view that asks it
            await person.connect(stack.ws_url(0), stack.url(0))
            try:
                await until(
                    lambda: db_thread(lambda: _bot_moves_since(game.pk, started) >= BOT_MOVES),
                    lambda: f"the bots stalled: the person's client is at seq {person.seq}",
                    timeout=60,
                )
            finally:
                await person.close()
            return person

        person = asyncio.run(run())
    assert not [e for e in person.errors if e["code"] not in ("stale", "not_your_turn")]
