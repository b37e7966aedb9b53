"""A move whose push never went out reaches the other pages once its command is sent again.

A server killed (SIGKILL) after it committed a move and before it handed the move's push to the
channel layer leaves every other server's sockets of the game behind, with nothing to tell them:
they resume only on a gap, and no other push comes while the next player's page does not know it
is their turn. The mover's page, which got no answer, sends the command again on its new socket
(core/gamesocket.js), or an API client sends it again; the server finds it applied (`duplicate`)
and tells the game's sockets how far the game is, so those behind read what they missed from the
log. (A command is answered only once its push is out, so a mover who got an answer has nothing
to send again: tests/live/test_game.py.)

The lost push is made real here, without timing a kill: the mover's server runs on a channel
layer of its own (the same Redis, its channels under another prefix), so its pushes reach none of
the other server's sockets, as if it had died before sending them."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import time
import uuid
from pathlib import Path
from typing import Any

import pytest
import websockets
from django.db import connection

from tests.support.stack import OUTPUT, database_url, live_stack

pytestmark = [
    pytest.mark.server,
    pytest.mark.django_db(transaction=True),
    pytest.mark.stack(redis_db=1, servers=1, worker=False),
]
ISLAND_SETTINGS = """from tests.support.server_settings import *  # noqa: F403

# Channels of their own: this server's pushes reach no other server's sockets.
LAYER = CHANNEL_LAYERS["default"]  # noqa: F405
CHANNEL_LAYERS = {"default": {**LAYER, "CONFIG": {**LAYER["CONFIG"], "prefix": "island"}}}
"""


def _api(base: str, path: str, data: dict | None = None, token: str | None = None) -> Any:
    import urllib.request

    headers = {"Content-Type": "application/json", **({"Authorization": f"Token {token}"} if token else {})}
    body = json.dumps(data).encode() if data is not None else None
    req = urllib.request.Request(base + path, data=body, headers=headers, method="POST" if body else "GET")
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.load(r)


async def _socket(ws_base: str, game_id: int, token: str, after: int | None = None) -> Any:
    query = f"?token={token}" + (f"&after={after}" if after is not None else "")
    return await websockets.connect(f"{ws_base}/ws/games/{game_id}/{query}", origin="http://localhost")


async def _until(ws: Any, test: Any, timeout: float) -> dict[str, Any]:
    end = time.monotonic() + timeout
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), max(0.01, end - time.monotonic())))
        if test(message):
            return message


@pytest.mark.parametrize("resent_by", ["socket", "api"])
def test_a_move_whose_push_was_lost_reaches_the_other_pages_when_its_command_is_resent(
    stack: Any, tmp_path: Path, resent_by: str
) -> None:
    base = stack.url(0)
    tokens = [
        _api(
            base,
            "/api/accounts/register/",
            {"username": f"lp{i}x{uuid.uuid4().hex[:8]}", "password": "correct-horse-battery"},
        )["token"]
        for i in range(2)
    ]
    table = _api(
        base,
        "/api/tables/",
        {"seats": 2, "turn_timer": 600, "reaction_timer": 600, "discard_timer": 600},
        tokens[0],
    )
    _api(base, f"/api/tables/{table['id']}/join/", {}, tokens[1])
    game_id = _api(base, f"/api/tables/{table['id']}/start/", {}, tokens[0])["current_game"]
    (tmp_path / "island_settings.py").write_text(ISLAND_SETTINGS)
    with live_stack(
        database_url=database_url(connection.settings_dict),
        redis_url=stack.env["REDIS_URL"],
        servers=1,
        worker=False,
        log_dir=OUTPUT / "servers" / "test_lost_push_island",
        DJANGO_SETTINGS_MODULE="island_settings",
        PYTHONPATH=os.pathsep.join(p for p in (str(tmp_path), os.environ.get("PYTHONPATH", "")) if p),
    ) as island:

        async def run() -> dict[str, Any]:
            # Who moves first, and the other player's page on the shared server.
            states = {}
            for i, token in enumerate(tokens):
                ws = await _socket(stack.ws_url(0), game_id, token)
                states[i] = await _until(ws, lambda m: m["type"] == "state", 10)
                await ws.close()
            mover = next(i for i in states if states[i]["legal"])
            other = 1 - mover
            seq = states[mover]["seq"]
            watcher = await _socket(stack.ws_url(0), game_id, tokens[other])
            await _until(watcher, lambda m: m["type"] == "state", 10)

            # The mover's command is applied on the island: its push reaches no one.
            command = {k: v for k, v in states[mover]["legal"][-1].items() if k != "seat"}
            sent = {"type": "command", "cmd_id": "lost-push-1", **command}
            ws = await _socket(island.ws_url(0), game_id, tokens[mover])
            await _until(ws, lambda m: m["type"] == "state", 10)
            await ws.send(json.dumps(sent))
            first = await _until(ws, lambda m: m["type"] == "ack", 10)
            await ws.close()
            missed = None
            with contextlib.suppress(TimeoutError):
                missed = await _until(watcher, lambda m: m["type"] in ("event", "view"), 1.5)

            # The mover's page, which (as if its server died) got no answer, sends it again on a
            # socket to the other server, from the last seq it saw.
            if resent_by == "socket":
                again = await _socket(stack.ws_url(0), game_id, tokens[mover], after=seq)
                await again.send(json.dumps({**sent, "expected_seq": seq}))
                resent = await _until(again, lambda m: m["type"] == "ack", 10)
                await again.close()
            else:  # a client of the REST API, sending it again the same way
                body = {**command, "client_cmd_id": sent["cmd_id"], "expected_seq": seq}
                resent = await asyncio.to_thread(
                    _api, base, f"/api/games/{game_id}/commands/", body, tokens[mover]
                )
            # The other player's page now gets the move from the log.
            caught_up = await _until(watcher, lambda m: m["type"] == "view" and m["seq"] >= first["seq"], 10)
            await watcher.close()
            return {"first": first, "missed": missed, "resent": resent, "caught_up": caught_up}

        out = asyncio.run(run())

    assert out["first"]["duplicate"] is False
    assert out["missed"] is None, "the island's push reached the other server: the setup does not lose it"
    assert out["resent"]["duplicate"] is True and out["resent"]["seq"] == out["first"]["seq"]
    assert out["caught_up"]["seq"] == out["first"]["seq"]
