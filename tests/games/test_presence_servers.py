"""Presence under abuse, on real servers: 300 sockets of one player opened and dropped at once,
and a server killed with a player's sockets on it. Within the grace period of their last sign of
life both seats are away and played by bots, no count is left behind, and the player who stayed
is never replaced."""

from __future__ import annotations

import asyncio
import json
import time

import pytest
import websockets

from games.models import GameSeat
from tests.live.test_live_servers import _game
from tests.support.waits import db_thread, until

GRACE, LEASE = 2, 2
pytestmark = [
    pytest.mark.server,
    pytest.mark.django_db(transaction=True),
    pytest.mark.stack(
        redis_db=7,
        servers=2,
        BOT_DELAY_SECONDS="0.5",
        AWAY_GRACE_SECONDS=str(GRACE),
        PRESENCE_LEASE_SECONDS=str(LEASE),
        PRESENCE_HEARTBEAT_SECONDS="0.5",
        SOCKETS_PER_USER_PER_GAME="400",  # let all 300 in: the counts are what is probed
    ),
]


async def _open(url: str) -> websockets.ClientConnection:
    ws = await websockets.connect(url, origin="http://localhost", max_size=None, open_timeout=30)
    assert json.loads(await ws.recv())["type"] == "state"
    return ws


def test_300_dropped_sockets_and_a_killed_server_leave_no_seat_stuck(stack):
    game, humans = _game(stack, 3, 0, turn_timer=600, reaction_timer=600, discard_timer=600)
    (seat_a, tok_a), (seat_b, tok_b), (seat_c, tok_c) = humans

    async def run() -> float:
        stayer = await _open(f"{stack.ws_url(0)}/ws/games/{game.pk}/?token={tok_c}")
        reader = asyncio.create_task(_drain(stayer))
        on_killed = await _open(f"{stack.ws_url(1)}/ws/games/{game.pk}/?token={tok_b}")
        many = await asyncio.gather(
            *(_open(f"{stack.ws_url(i % 2)}/ws/games/{game.pk}/?token={tok_a}") for i in range(300))
        )
        for ws in many:  # dropped at once, without a closing handshake
            ws.transport.abort()
        stack.kill_server(1)  # b's socket ends with its server
        on_killed.transport.abort()
        gone_at = time.monotonic()

        rows: dict[int, tuple[int, bool]] = {}

        def both_away() -> bool:
            rows.update(_seats(game.pk))
            return rows[seat_a][1] and rows[seat_b][1]

        await until(
            lambda: db_thread(both_away),
            lambda: f"seats {seat_a} and {seat_b} are not both played by bots (seat: (sockets, bot)): {rows}",
            timeout=60,
            every=0.2,
        )
        took = time.monotonic() - gone_at
        await stayer.close()
        reader.cancel()
        return took

    took = asyncio.run(run())
    rows = _seats(game.pk)
    print(f"both seats away and played by bots {took:.1f} s after their sockets ended")
    assert rows[seat_a] == (0, True) and rows[seat_b] == (0, True)
    assert rows[seat_c][1] is False  # the player who stayed keeps their seat
    # the grace period, plus the lease of a socket that ended unseen, plus one sweep of the beat
    assert took < GRACE + LEASE + 5 + 5


async def _drain(ws: websockets.ClientConnection) -> None:
    async for _ in ws:
        pass


def _seats(game_id: int) -> dict[int, tuple[int, bool]]:
    rows = GameSeat.objects.filter(game_id=game_id).order_by("seat")
    return {r.seat: (r.connections, r.bot_playing) for r in rows}
