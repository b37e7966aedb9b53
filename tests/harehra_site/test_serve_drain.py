"""A server told to stop (SIGTERM) while a player's socket is open and a command is on its way
(harehra_site/management/commands/serve.py): readiness fails at once, a new socket is refused,
the command is applied and answered, the socket is closed with 1012 and the process exits within
DRAIN_SECONDS. The player reconnects to another server and sends the command again with its
cmd_id, as the page does with a command that got no answer: `duplicate`, and the game moved once."""

from __future__ import annotations

import asyncio
import json
import signal
import time
import urllib.error
import urllib.request
import uuid
from typing import Any

import pytest
import websockets

from games.models import Game, GameEvent
from tests.support.waits import db_thread

DRAIN_SECONDS = 8.0
pytestmark = [
    pytest.mark.server,
    pytest.mark.django_db(transaction=True),
    pytest.mark.stack(
        redis_db=12,
        servers=2,
        worker=False,
        DRAIN_SECONDS=str(DRAIN_SECONDS),
        # Listen a little after the signal, so that what a draining server answers can be seen.
        DRAIN_LINGER_SECONDS="1.5",
    ),
]


def _api(base: str, path: str, data: dict | None = None, token: str | None = None) -> Any:
    headers = {"Content-Type": "application/json", **({"Authorization": f"Token {token}"} if token else {})}
    body = json.dumps(data).encode() if data is not None else None
    req = urllib.request.Request(base + path, data=body, headers=headers, method="POST" if body else "GET")
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.load(r)


def _two_player_game(base: str) -> tuple[int, list[str]]:
    tokens = [
        _api(
            base,
            "/api/accounts/register/",
            {"username": f"drain{i}x{uuid.uuid4().hex[:8]}", "password": "correct-horse-battery"},
        )["token"]
        for i in range(2)
    ]
    table = _api(base, "/api/tables/", {"seats": 2}, tokens[0])
    _api(base, f"/api/tables/{table['id']}/join/", {}, tokens[1])
    return _api(base, f"/api/tables/{table['id']}/start/", {}, tokens[0])["current_game"], tokens


def _readyz(base: str) -> tuple[int, dict[str, Any]]:
    try:
        with urllib.request.urlopen(base + "/readyz", timeout=5) as r:
            return r.status, json.load(r)
    except urllib.error.HTTPError as e:
        return e.code, json.load(e)


async def _socket(ws_base: str, game_id: int, token: str, after: int | None = None) -> Any:
    query = f"?token={token}" + (f"&after={after}" if after is not None else "")
    return await websockets.connect(f"{ws_base}/ws/games/{game_id}/{query}", origin="http://localhost")


async def _until(ws: Any, kind: str) -> dict[str, Any]:
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), 10))
        if message["type"] == kind:
            return message


def test_a_stopping_server_answers_the_command_in_hand_closes_with_1012_and_the_resend_is_a_duplicate(stack):
    game_id, tokens = _two_player_game(stack.url(0))
    proc, _ = stack.servers[0]

    async def run() -> dict[str, Any]:
        # The player whose decision it is, on the server that will be stopped.
        for token in tokens:
            ws = await _socket(stack.ws_url(0), game_id, token)
            state = await _until(ws, "state")
            if state["legal"]:
                break
            await ws.close()
        command = {k: v for k, v in state["legal"][-1].items() if k != "seat"}
        sent = {"type": "command", "cmd_id": "drain-1", "expected_seq": state["seq"], **command}
        await ws.send(json.dumps(sent))
        proc.send_signal(signal.SIGTERM)
        stopped_at = time.monotonic()

        ready = await asyncio.to_thread(_readyz, stack.url(0))
        with pytest.raises(websockets.InvalidStatus) as refused:
            await _socket(stack.ws_url(0), game_id, token)

        answers = []
        with pytest.raises(websockets.ConnectionClosed) as closed:
            while True:
                answers.append(json.loads(await asyncio.wait_for(ws.recv(), DRAIN_SECONDS)))
        exit_code = await asyncio.to_thread(proc.wait, DRAIN_SECONDS + 2)
        took = time.monotonic() - stopped_at

        # The page's way back: another server, from the last seq it saw, the same command again.
        again = await _socket(stack.ws_url(1), game_id, token, after=state["seq"])
        await again.send(json.dumps(sent))
        resent = await _until(again, "ack")
        await again.close()
        return {
            "ready": ready,
            "refused": refused.value.response.status_code,
            "answers": answers,
            "close": closed.value.rcvd.code if closed.value.rcvd else None,
            "exit_code": exit_code,
            "took": took,
            "resent": resent,
        }

    out = asyncio.run(run())
    assert out["ready"][0] == 503 and out["ready"][1]["failed"] == ["draining"]
    assert out["refused"] == 503
    acks = [m for m in out["answers"] if m["type"] == "ack"]
    assert [(a["cmd_id"], a["duplicate"]) for a in acks] == [("drain-1", False)], out["answers"]
    assert out["close"] == 1012
    assert out["exit_code"] == 0 and out["took"] < DRAIN_SECONDS
    assert out["resent"]["duplicate"] is True and out["resent"]["seq"] == acks[0]["seq"]

    def moved_once() -> tuple[int, int]:
        game = Game.objects.get(pk=game_id)
        return game.last_seq, GameEvent.objects.filter(game=game).count()

    last_seq, events = asyncio.run(db_thread(moved_once))
    assert last_seq == acks[0]["seq"] == events
    print(f"SIGTERM to exit: {out['took']:.2f} s")
