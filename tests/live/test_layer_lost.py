"""What a socket does when the channel layer tells it a group's shard was lost (`layer.lost`,
plumbing/channellayer.py), and when it cannot join a group (`ShardDown`): through Channels'
communicator on the in-memory layer, the layer's message and refusal made by hand."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from channels.layers import get_channel_layer

from accounts.publish import user_group
from games.publish import game_group
from live import sockets
from plumbing.channellayer import LOST, ShardDown
from tests.live.test_game import _connect, _setup, _until

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_game_socket_closes_for_its_game_group_and_joins_its_user_group_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game_id, users, tokens = _setup()
    monkeypatch.setattr(sockets, "REJOIN_EVERY_S", 0.1)
    seat = next(iter(tokens))

    async def run() -> dict[str, Any]:
        layer = get_channel_layer()
        comm = _connect(game_id, tokens[seat])
        assert (await comm.connect())[0]
        await _until(comm, "state")
        (mine,) = [user_group(u.pk) for u in users if user_group(u.pk) in layer.groups]
        (channel,) = layer.groups[mine]
        # The user group's shard lost: the socket stays open and joins it again.
        del layer.groups[mine]
        await layer.send(channel, {"type": LOST, "group": mine})
        await asyncio.sleep(0.5)
        await comm.send_json_to({"type": "ping"})
        out: dict[str, Any] = {"pong": (await _until(comm, "pong"))["type"]}
        out["rejoined"] = channel in layer.groups.get(mine, {})
        # The game group's shard lost: closed with 1012, the page comes back and resumes.
        await layer.send(channel, {"type": LOST, "group": game_group(game_id)})
        closed = await comm.receive_output(timeout=5)
        out["close"] = (closed["type"], closed.get("code"))
        await comm.disconnect()
        return out

    out = asyncio.run(run())
    assert out == {"pong": "pong", "rejoined": True, "close": ("websocket.close", 1012)}


def test_a_socket_that_cannot_join_its_groups_is_turned_away_with_1013(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game_id, _users, tokens = _setup()

    async def run() -> tuple[Any, Any]:
        layer = get_channel_layer()
        joined = layer.group_add

        async def refusing(group: str, channel: str) -> None:
            if group.startswith("user."):  # joined after the game's group
                raise ShardDown("redis://127.0.0.1:1/0: refused")
            await joined(group, channel)

        monkeypatch.setattr(layer, "group_add", refusing)
        comm = _connect(game_id, tokens[next(iter(tokens))])
        assert (await comm.connect())[0]
        out = await comm.receive_output(timeout=5)
        await comm.disconnect()
        return (out["type"], out.get("code")), dict(layer.groups)

    close, groups = asyncio.run(run())
    assert close == ("websocket.close", 1013)
    assert not groups.get(game_group(game_id)), groups  # it left the group it had joined
