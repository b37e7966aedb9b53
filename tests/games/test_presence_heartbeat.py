"""The presence heartbeat of a server process under load, through the full ASGI application: an
open seated socket keeps its seat shown as connected while the process's event loop is held for
longer than the lease, and a seat the sweep counted out under an open socket is counted again."""

from __future__ import annotations

import asyncio
import threading
import time
from datetime import timedelta
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone

from games.models import GameSeat
from games.services.presence import presence_sweep
from tests.live.test_game import _connect, _drain, _setup, _until
from tests.support.waits import until

pytestmark = pytest.mark.django_db(transaction=True)

LEASE = 1.0


@pytest.fixture
def short_lease(settings: Any) -> None:
    settings.PRESENCE_HEARTBEAT_SECONDS = 0.2
    settings.PRESENCE_LEASE_SECONDS = LEASE
    settings.AWAY_GRACE_SECONDS = 60


def _in_thread(work: Any) -> Any:
    """`work` (ORM) run to its end on another thread while this one waits: the event loop stays
    held, as the beat's sweep runs in another process meanwhile."""
    out: list[Any] = []

    def run() -> None:
        from django.db import connections

        try:
            out.append(work())
        finally:
            connections.close_all()

    t = threading.Thread(target=run)
    t.start()
    t.join()
    return out[0]


def _count_out(game_id: int, seat: int) -> None:
    GameSeat.objects.filter(game_id=game_id, seat=seat).update(
        connections=0, disconnected_at=timezone.now() - timedelta(seconds=60)
    )


def _connections(game_id: int, seat: int) -> int:
    return GameSeat.objects.get(game_id=game_id, seat=seat).connections


def test_a_loop_held_past_the_lease_does_not_show_an_open_seat_offline(short_lease):
    game_id, _users, tokens = _setup()
    seat = min(tokens)

    async def run() -> tuple[int, int]:
        player = _connect(game_id, tokens[seat])
        assert (await player.connect())[0]
        await _until(player, "state")
        # The loop is held busy (a long handler computing) for three leases: the heartbeat must
        # renew the seat all the same, so the sweep finds nothing to count out.
        end = time.monotonic() + 3 * LEASE
        while time.monotonic() < end:
            pass
        swept = _in_thread(presence_sweep)
        count = _in_thread(lambda: _connections(game_id, seat))
        await player.disconnect()
        return swept, count

    swept, count = asyncio.run(run())
    assert (swept, count) == (0, 1)


def test_a_seat_counted_out_under_an_open_socket_is_counted_again_and_its_game_told(short_lease):
    """The process was stopped past the lease (or a closing socket deleted the lease while this
    one opened): the sweep counted the seat out. The socket's next heartbeat counts it again."""
    game_id, _users, tokens = _setup()
    seat = min(tokens)
    other = max(tokens)

    async def run() -> None:
        player = _connect(game_id, tokens[seat])
        watcher = _connect(game_id, tokens[other])
        for comm in (player, watcher):
            assert (await comm.connect())[0]
            await _until(comm, "state")
        await _drain(watcher)
        # What the sweep wrote while this process could renew nothing (stopped past the lease).
        await database_sync_to_async(_count_out)(game_id, seat)
        told = await _until(watcher, "presence", timeout=5)
        assert next(s["status"] for s in told["seats"] if s["seat"] == seat) == "connected"
        await until(
            lambda: database_sync_to_async(_connections)(game_id, seat),
            "the seat was not counted again",
            timeout=5,
        )
        for comm in (player, watcher):
            await comm.disconnect()

    asyncio.run(run())
