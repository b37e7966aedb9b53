"""Sockets under abuse, on real servers: every socket kind's message limit, refusals that a client
can read (close codes after the handshake, as docs/PROTOCOL.md says), a frozen client's seat
handed to a bot, and a spectator count that counts people rather than client ids."""

from __future__ import annotations

import asyncio
import json
import time
import uuid
from typing import Any

import pytest
import websockets

from games.models import GameSeat
from live.sockets import CLOSE_ABUSE, CLOSE_REFUSED, CLOSE_TOO_MANY, RATE_BURST
from tests.live.test_live_servers import _api, _game
from tests.support.stack import Stack
from tests.support.waits import db_thread, until

GRACE, PING_INTERVAL, PING_TIMEOUT, PER_USER = 1, 1, 1, 2
pytestmark = [
    pytest.mark.server,
    pytest.mark.django_db(transaction=True),
    pytest.mark.stack(
        redis_db=4,
        servers=1,
        BOT_DELAY_SECONDS="0",
        AWAY_GRACE_SECONDS=str(GRACE),
        WEBSOCKET_PING_INTERVAL_SECONDS=str(PING_INTERVAL),
        WEBSOCKET_PING_TIMEOUT_SECONDS=str(PING_TIMEOUT),
        SOCKETS_PER_USER_PER_GAME=str(PER_USER),
    ),
]
LONG = {"turn_timer": 600, "reaction_timer": 600, "discard_timer": 600}
ORIGIN = "http://localhost"


def _register(base: str) -> str:
    name = f"abuse{uuid.uuid4().hex[:10]}"
    return str(
        _api(base, "/api/accounts/register/", {"username": name, "password": "correct-horse-battery"})[
            "token"
        ]
    )


async def _flood(url: str, pings: int = 400) -> tuple[int, int, int | None]:
    """Send `pings` pings at once; count the pongs and `rate_limited` errors until the server
    closes the socket (its close code) or stops answering (None)."""
    async with websockets.connect(url, origin=ORIGIN) as ws:
        await ws.recv()  # the first message: the lobby's list, or the table's `changed`
        for _ in range(pings):
            await ws.send(json.dumps({"type": "ping"}))
        pongs = limited = 0
        try:
            while True:
                m = json.loads(await asyncio.wait_for(ws.recv(), 5))
                pongs += m["type"] == "pong"
                limited += m.get("code") == "rate_limited"
        except websockets.ConnectionClosed as e:
            return pongs, limited, e.rcvd.code if e.rcvd else None
        except TimeoutError:
            return pongs, limited, None


def test_lobby_and_table_sockets_flooded_with_pings_are_limited_then_closed(stack: Stack) -> None:
    token = _register(stack.url(0))
    table = _api(stack.url(0), "/api/tables/", {"seats": 3}, token)

    async def run() -> list[tuple[int, int, int | None]]:
        return [
            await _flood(f"{stack.ws_url(0)}/ws/lobby/"),
            await _flood(f"{stack.ws_url(0)}/ws/tables/{table['id']}/?token={token}"),
        ]

    for pongs, limited, code in asyncio.run(run()):
        assert RATE_BURST <= pongs < RATE_BURST + 30  # a burst, then about ten a second
        assert limited > 50 and code == CLOSE_ABUSE


async def _refused_with(url: str) -> int | None:
    """The close code of a socket the server accepted and then closed before saying anything."""
    async with websockets.connect(url, origin=ORIGIN) as ws:  # an HTTP refusal raises here
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await asyncio.wait_for(ws.recv(), 5)
    return closed.value.rcvd.code if closed.value.rcvd else None


def test_refused_and_surplus_sockets_are_accepted_then_closed_with_the_documented_codes(stack: Stack) -> None:
    base, ws_base = stack.url(0), stack.ws_url(0)
    game, humans = _game(stack, 2, 0, **LONG)
    private, (host,) = _game(stack, 1, 1, visibility="private", **LONG)
    stranger = _register(base)
    (_, mine), _ = humans

    async def run() -> dict[str, Any]:
        codes: dict[str, Any] = {
            "unknown game": await _refused_with(f"{ws_base}/ws/games/999999999/"),
            "private game, stranger": await _refused_with(
                f"{ws_base}/ws/games/{private.pk}/?token={stranger}"
            ),
            "private table, stranger": await _refused_with(
                f"{ws_base}/ws/tables/{private.table_id}/?token={stranger}"
            ),
        }
        kept = [
            await websockets.connect(f"{ws_base}/ws/games/{game.pk}/?token={mine}", origin=ORIGIN)
            for _ in range(PER_USER)
        ]
        for ws in kept:
            assert json.loads(await ws.recv())["type"] == "state"
        codes["one socket too many"] = await _refused_with(f"{ws_base}/ws/games/{game.pk}/?token={mine}")
        # The host of the private game still gets in: only strangers were refused.
        async with websockets.connect(
            f"{ws_base}/ws/games/{private.pk}/?token={host[1]}", origin=ORIGIN
        ) as ws:
            codes["host"] = json.loads(await ws.recv())["type"]
        for ws in kept:
            await ws.close()
        return codes

    assert asyncio.run(run()) == {
        "unknown game": CLOSE_REFUSED,
        "private game, stranger": CLOSE_REFUSED,
        "private table, stranger": CLOSE_REFUSED,
        "one socket too many": CLOSE_TOO_MANY,
        "host": "state",
    }


def test_a_frozen_clients_seat_goes_to_a_bot_within_the_ping_timeout_and_the_grace(stack: Stack) -> None:
    """A client whose connection stays open but that answers nothing (a frozen page): the server's
    pings go unanswered, it closes the socket, and after the grace period a bot plays the seat."""
    game, ((seat, token), _) = _game(stack, 2, 0, **LONG)

    def bot_playing() -> bool:
        return GameSeat.objects.get(game_id=game.pk, seat=seat).bot_playing

    async def run() -> float:
        # No pings of its own: a frozen page sends nothing.
        ws = await websockets.connect(
            f"{stack.ws_url(0)}/ws/games/{game.pk}/?token={token}", origin=ORIGIN, ping_interval=None
        )
        assert json.loads(await ws.recv())["type"] == "state"
        ws.transport.pause_reading()  # the TCP connection lives on; nothing is read or answered
        frozen_at = time.monotonic()
        await until(
            lambda: db_thread(bot_playing), "the frozen client's seat was never given to a bot", timeout=45
        )
        took = time.monotonic() - frozen_at
        ws.transport.abort()
        return took

    took = asyncio.run(run())
    print(f"a frozen client's seat went to a bot {took:.1f} s after it froze")
    # The ping interval and timeout, the grace, and a sweep of the beat or two.
    assert took < PING_INTERVAL + PING_TIMEOUT + GRACE + 6


def _watch_beat(
    base: str, game_id: int, client_id: str, token: str | None = None, leaving: bool = False
) -> int:
    body = {"client_id": client_id, **({"leaving": True} if leaving else {})}
    return int(_api(base, f"/api/replays/{game_id}/watchers/", body, token)["count"])


def _watch_count(base: str, game_id: int) -> int:
    return int(_api(base, f"/api/replays/{game_id}/watchers/")["count"])


def test_the_spectator_count_counts_people_not_client_ids(stack: Stack) -> None:
    base, ws_base = stack.url(0), stack.ws_url(0)
    game, _humans = _game(stack, 2, 0, **LONG)
    alice, bob = _register(base), _register(base)

    async def watching(ws: Any, client_id: str) -> int:
        await ws.send(json.dumps({"type": "watching", "client_id": client_id}))
        while True:
            m = json.loads(await asyncio.wait_for(ws.recv(), 5))
            if m["type"] == "watchers":
                return int(m["count"])

    async def count_is(n: int) -> bool:
        return await asyncio.to_thread(_watch_count, base, game.pk) == n

    async def run() -> dict[str, Any]:
        counts: dict[str, Any] = {}
        # Signed out, one address: 40 new client ids over HTTP, 20 more over one socket.
        counts["anonymous over HTTP"] = {
            await asyncio.to_thread(_watch_beat, base, game.pk, f"anon-{uuid.uuid4().hex}") for _ in range(40)
        }
        async with websockets.connect(f"{ws_base}/ws/games/{game.pk}/?frames=1", origin=ORIGIN) as ws:
            counts["anonymous over a socket"] = {
                await watching(ws, f"sock-{uuid.uuid4().hex}") for _ in range(20)
            }
        # Its socket's end said goodbye for the address's last page.
        counts["anonymous gone"] = await until(
            lambda: count_is(0),
            lambda: f"the anonymous viewer was still counted after its socket ended; counts so far {counts}",
        )
        # One signed-in person with many pages and ids, over HTTP and over sockets.
        counts["alice"] = {
            await asyncio.to_thread(_watch_beat, base, game.pk, f"alice-{i:04d}", alice) for i in range(10)
        }
        pages = [
            await websockets.connect(f"{ws_base}/ws/games/{game.pk}/?frames=1&token={alice}", origin=ORIGIN)
            for _ in range(2)
        ]
        counts["alice's pages"] = {await watching(ws, f"alice-page-{i}") for i, ws in enumerate(pages)}
        await pages[0].close()  # her other page beat since: she is still watching
        counts["alice and bob"] = await asyncio.to_thread(_watch_beat, base, game.pk, "bob-page-0", bob)
        await pages[1].close()  # her last page: she is gone
        counts["alice gone"] = await until(
            lambda: count_is(1),
            lambda: f"alice's last page closed and she was still counted; counts so far {counts}",
        )
        return counts

    assert asyncio.run(run()) == {
        "anonymous over HTTP": {1},
        "anonymous over a socket": {1},
        "anonymous gone": True,
        "alice": {1},
        "alice's pages": {1},
        "alice and bob": 2,
        "alice gone": True,
    }
