"""What one socket may send: frame size, JSON depth, the cmd_id echoed, a rate; and how many
sockets one user may open at one game."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from channels.testing import WebsocketCommunicator

from harehra_site.asgi import application
from live.sockets import CLOSE_ABUSE, CLOSE_TOO_MANY, MAX_FRAME_CHARS, RATE_BURST
from tests.live.test_game import _setup, _until

pytestmark = pytest.mark.django_db(transaction=True)


def _connect(game_id: int, token: str) -> WebsocketCommunicator:
    path = f"/ws/games/{game_id}/?token={token}"
    return WebsocketCommunicator(application, path, headers=[(b"origin", b"http://localhost")])


async def _next(comm: WebsocketCommunicator) -> dict[str, Any]:
    return await comm.receive_json_from(timeout=5)


def test_deep_long_and_odd_frames_get_errors_and_the_socket_stays_open():
    game_id, _users, tokens = _setup()

    async def run() -> list[dict[str, Any]]:
        comm = _connect(game_id, tokens[0])
        assert (await comm.connect())[0]
        await _until(comm, "state")
        answers = []
        await comm.send_to(text_data="[" * 100_000 + "]" * 100_000)
        answers.append(await _until(comm, "error"))
        await comm.send_to(text_data="[" * 4000 + "]" * 4000)  # as deep, within the size
        answers.append(await _until(comm, "error"))
        await comm.send_to(text_data='{"a":' * 50 + "1" + "}" * 50)
        answers.append(await _until(comm, "error"))
        await comm.send_to(text_data='{"type": "ping", "pad": "' + "x" * MAX_FRAME_CHARS + '"}')
        answers.append(await _until(comm, "error"))
        await comm.send_json_to({"type": "command", "cmd_id": "c" * 1_000_000, "react": "none"})
        answers.append(await _until(comm, "error"))
        await comm.send_json_to({"type": "command", "cmd_id": "c" * 1000, "react": "none"})
        answers.append(await _until(comm, "error"))
        await comm.send_json_to({"type": "ping", "note": "[[[[[[ in a string is no nesting"})
        answers.append(await _next(comm))
        await comm.disconnect()
        return answers

    huge_deep, deep, deep_object, long, huge_cmd, cmd, pong = asyncio.run(run())
    assert huge_deep["code"] == "too_large"  # refused by its size before it is parsed
    assert deep["code"] == "too_deep"
    assert deep_object["code"] == "too_deep"
    assert long["code"] == "too_large"
    assert huge_cmd["code"] == "too_large" and "cmd_id" not in huge_cmd
    assert cmd["code"] == "bad_message" and "cmd_id" not in cmd and len(str(cmd)) < 200
    assert pong == {"type": "pong"}


def test_a_socket_sending_too_fast_is_refused_and_then_closed():
    game_id, _users, tokens = _setup()

    async def run() -> tuple[int, int, int]:
        comm = _connect(game_id, tokens[0])
        assert (await comm.connect())[0]
        await _until(comm, "state")
        for _ in range(400):
            await comm.send_json_to({"type": "ping"})
        pongs = limited = 0
        while True:
            out = await comm.receive_output(timeout=5)
            if out["type"] == "websocket.close":
                return pongs, limited, out["code"]
            kind = out["text"].split('"type":"', 1)[1].split('"', 1)[0]
            pongs += kind == "pong"
            limited += '"rate_limited"' in out["text"]

    pongs, limited, code = asyncio.run(run())
    assert RATE_BURST <= pongs < RATE_BURST + 15  # a burst, then about ten a second
    assert limited > 50 and code == CLOSE_ABUSE


def test_one_user_may_open_only_so_many_sockets_at_one_game(settings):
    settings.SOCKETS_PER_USER_PER_GAME = 3
    game_id, _users, tokens = _setup()

    async def run() -> list[bool]:
        opened, results = [], []
        for _ in range(5):
            comm = _connect(game_id, tokens[0])
            assert (await comm.connect())[0]  # accepted, then closed: a client can read the code
            first = await comm.receive_output(timeout=5)
            if first["type"] == "websocket.send":
                assert json.loads(first["text"])["type"] == "state"
                opened.append(comm)
                results.append(True)
            else:
                assert first == {"type": "websocket.close", "code": CLOSE_TOO_MANY}
                results.append(False)
        other = _connect(game_id, tokens[1])  # another user is not affected
        results.append((await other.connect())[0])
        await other.disconnect()
        await opened[0].disconnect()  # one closed: one more may open
        again = _connect(game_id, tokens[0])
        results.append((await again.connect())[0])
        for comm in [again, *opened[1:]]:
            await comm.disconnect()
        return results

    assert asyncio.run(run()) == [True, True, True, False, False, True, True]
