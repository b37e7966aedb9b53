"""A stopping server closes its sockets a few at a time (DRAIN_CLOSE_RATE a second), serving the
others until their turn, so that its pages do not all reconnect to the next server in the same
instant (harehra_site/management/commands/serve.py)."""

from __future__ import annotations

import asyncio
import json
import signal
import time
from typing import Any

import pytest
import websockets

SOCKETS = 40
CLOSE_RATE = 10.0  # a second: the 40 sockets closed over about 4 s
DRAIN_SECONDS = 12.0
pytestmark = [
    pytest.mark.server,
    pytest.mark.django_db(transaction=True),
    pytest.mark.stack(
        redis_db=15,
        servers=1,
        worker=False,
        DRAIN_SECONDS=str(DRAIN_SECONDS),
        DRAIN_CLOSE_RATE=str(CLOSE_RATE),
    ),
]


async def _lobby(ws_base: str) -> Any:
    ws = await websockets.connect(f"{ws_base}/ws/lobby/", origin="http://localhost")
    await asyncio.wait_for(ws.recv(), 10)  # the list, on opening
    return ws


async def _closed_at(ws: Any, began: float) -> tuple[float, int | None, list[str]]:
    """When `ws` was closed after `began`, its close code, and what it was sent until then."""
    kinds = []
    try:
        while True:
            kinds.append(json.loads(await ws.recv()).get("type"))
    except websockets.ConnectionClosed as closed:
        return time.monotonic() - began, closed.rcvd.code if closed.rcvd else None, kinds


def test_a_stopping_server_closes_its_sockets_over_seconds_and_serves_the_rest_meanwhile(stack):
    proc, _ = stack.servers[0]

    async def run() -> dict[str, Any]:
        sockets = [await _lobby(stack.ws_url(0)) for _ in range(SOCKETS)]
        proc.send_signal(signal.SIGTERM)
        began = time.monotonic()
        watching = [asyncio.ensure_future(_closed_at(ws, began)) for ws in sockets]
        await asyncio.sleep(1.5)
        # A socket not yet closed is still served: a ping is answered.
        still = [i for i, w in enumerate(watching) if not w.done()]
        await sockets[still[-1]].send(json.dumps({"type": "ping"}))
        ends = await asyncio.wait_for(asyncio.gather(*watching), DRAIN_SECONDS)
        exit_code = await asyncio.to_thread(proc.wait, DRAIN_SECONDS)
        took = time.monotonic() - began
        return {"ends": ends, "pinged": ends[still[-1]], "exit_code": exit_code, "took": took}

    out = asyncio.run(run())
    times = sorted(t for t, _, _ in out["ends"])
    assert {code for _, code, _ in out["ends"]} == {1012}
    assert out["pinged"][2] == ["pong"] and out["pinged"][0] > 1.5
    # Paced: the first closed soon after the signal, the last about SOCKETS / CLOSE_RATE later,
    # about as many in each half of the spread.
    spread = SOCKETS / CLOSE_RATE
    assert times[0] < 1.0, times
    assert spread * 0.75 < times[-1] - times[0] < spread + 1.5, times
    first_half = sum(1 for t in times if t - times[0] < spread / 2)
    assert SOCKETS * 0.3 < first_half < SOCKETS * 0.7, times
    assert out["exit_code"] == 0 and out["took"] < DRAIN_SECONDS
