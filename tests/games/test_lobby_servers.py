"""Lobby sockets on real server processes sharing PostgreSQL and Redis, with a real Celery worker."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
import urllib.request
import uuid
from collections.abc import Callable
from typing import Any

import pytest
import websockets

from games.models import Game
from tests.support.stack import Stack
from tests.support.waits import db_thread

pytestmark = [
    pytest.mark.server,
    pytest.mark.django_db(transaction=True),
    pytest.mark.stack(redis_db=13, servers=2, BOT_DELAY_SECONDS="0"),
]
PASSWORD = "correct-horse-battery"
WITHIN = 1.0  # seconds from a change to every open lobby


def _api(base: str, path: str, data: dict[str, Any] | None = None, token: str | None = None) -> Any:
    headers = {"Content-Type": "application/json", **({"Authorization": f"Token {token}"} if token else {})}
    body = json.dumps(data).encode() if data is not None else None
    req = urllib.request.Request(base + path, data=body, headers=headers, method="POST" if body else "GET")
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.load(r)


class Lobby:
    """A lobby socket that notes when each message arrived (wall clock: the database's is compared)."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.got: list[tuple[float, dict[str, Any]]] = []
        self.arrived = asyncio.Event()
        self.reader = asyncio.create_task(self._read())

    @classmethod
    async def open(cls, ws_url: str) -> Lobby:
        return cls(await websockets.connect(f"{ws_url}/ws/lobby/", origin="http://localhost"))

    async def _read(self) -> None:
        async for raw in self.ws:
            self.got.append((time.time(), json.loads(raw)))
            self.arrived.set()

    async def row(
        self, table: int, test: Callable[[str | None], bool], timeout: float
    ) -> tuple[float, str | None]:
        """When the first push of `table`'s row that passes `test` arrived, and the row."""
        end = time.monotonic() + timeout
        while True:
            for at, m in self.got:
                if m["type"] == "table" and m["table"] == table and test(m["html"]):
                    return at, m["html"]
            left = end - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no such row of table {table}; got {[m for _, m in self.got]}")
            self.arrived.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.arrived.wait(), left)

    async def close(self) -> None:
        await self.ws.close()
        await asyncio.gather(self.reader, return_exceptions=True)


def test_two_lobbies_on_two_servers_see_each_change_within_a_second(stack: Stack) -> None:
    bases = [stack.url(0), stack.url(1)]
    names = [f"lob{i}x{uuid.uuid4().hex[:8]}" for i in range(3)]
    host, guest, other = (
        _api(bases[0], "/api/accounts/register/", {"username": name, "password": PASSWORD})["token"]
        for name in names
    )
    lags: dict[str, list[float]] = {}

    async def change(
        what: str, lobbies: list[Lobby], act: Callable[[], Any], table: int | None, test: Any
    ) -> Any:
        """Make the change through a server's API, and wait for both lobbies to show it."""
        started = time.time()
        result = await asyncio.to_thread(act)
        tid = result["id"] if table is None else table
        arrivals = [await lobby.row(tid, test, WITHIN + 2) for lobby in lobbies]
        lags[what] = [round(at - started, 3) for at, _ in arrivals]
        return result, [html for _, html in arrivals]

    async def run() -> None:
        lobbies = [await Lobby.open(stack.ws_url(0)), await Lobby.open(stack.ws_url(1))]
        for lobby in lobbies:
            while not lobby.got:
                await asyncio.wait_for(lobby.arrived.wait(), 5)
            assert lobby.got[0][1]["type"] == "lobby"

        table, rows = await change(
            "created",
            lobbies,
            lambda: _api(bases[0], "/api/tables/", {"seats": 2}, host),
            None,
            lambda h: h is not None,
        )
        tid = table["id"]
        assert rows and all(names[0] in r and "empty seat" in r for r in rows)
        await change(
            "joined",
            lobbies,
            lambda: _api(bases[1], f"/api/tables/{tid}/join/", {}, guest),
            tid,
            lambda h: h is not None and names[1] in h,
        )
        await change(
            "started",
            lobbies,
            lambda: _api(bases[0], f"/api/tables/{tid}/start/", {}, host),
            tid,
            lambda h: h is not None and "/watch/" in h,
        )
        lone, _ = await change(
            "another created",
            lobbies,
            lambda: _api(bases[1], "/api/tables/", {"seats": 3}, other),
            None,
            lambda h: h is not None,
        )
        await change(
            "closed",
            lobbies,
            lambda: _api(bases[1], f"/api/tables/{lone['id']}/leave/", {}, other),
            lone["id"],
            lambda h: h is None,
        )

        # Both people leave the running game: bots play it out on the worker, and the table, with
        # no one left at it, closes when the game ends; the worker's change reaches both lobbies.
        for i, token in enumerate((guest, host)):
            await asyncio.to_thread(_api, bases[i], f"/api/tables/{tid}/leave/", {}, token)
        ended = [await lobby.row(tid, lambda h: h is None, 120) for lobby in lobbies]
        game = await db_thread(lambda: Game.objects.get(table_id=tid))
        assert game.status == "finished" and game.finished_at is not None
        lags["game ended"] = [round(at - game.finished_at.timestamp(), 3) for at, _ in ended]
        for lobby in lobbies:
            await lobby.close()

    asyncio.run(run())
    print("lobby push lags (s):", lags)
    assert lags and all(seen for seen in lags.values()), lags  # every lobby saw the changes
    assert all(0 <= lag < WITHIN for seen in lags.values() for lag in seen), lags
