"""The channel layer over two real Redis servers (plumbing/channellayer.py): each group's
subscription is confirmed by the server its name hashes to, its pushes reach every subscriber of
every process, and the loss of one server tells its groups' members and spares the other's."""

from __future__ import annotations

import asyncio
import shutil
import time
from collections.abc import Iterator
from typing import Any

import pytest
import redis.asyncio as aioredis
from channels_redis.utils import _consistent_hash

from plumbing.channellayer import LOST, ConfirmedPubSubChannelLayer, ConfirmingLoopLayer, ShardDown
from tests.plumbing.test_channellayer import BUSY
from tests.redis_server import KillableRedis, killable_servers

pytestmark = pytest.mark.skipif(shutil.which("redis-server") is None, reason="needs Debian's redis-server")


@pytest.fixture
def servers() -> Iterator[list[KillableRedis]]:
    with killable_servers(2) as made:
        yield made


def _group_on(shard: int, taken: set[str] | None = None) -> str:
    """A game's group whose name hashes to `shard` of two."""
    for n in range(1, 10_000):
        name = f"game.{n}"
        if _consistent_hash(f"asgi__group__{name}", 2) == shard and name not in (taken or set()):
            return name
    raise AssertionError("no group hashes there")


def _layer(servers: list[KillableRedis]) -> ConfirmedPubSubChannelLayer:
    return ConfirmedPubSubChannelLayer(
        hosts=[{"address": s.url, "socket_connect_timeout": 2} for s in servers]
    )


def test_a_group_is_confirmed_on_its_own_shard_and_reaches_every_subscriber(
    servers: list[KillableRedis],
) -> None:
    on = [_group_on(0), _group_on(1)]

    async def scenario() -> dict[str, Any]:
        one, two, sender = _layer(servers), _layer(servers), _layer(servers)  # three processes
        sockets = {layer: [await layer.new_channel() for _ in range(2)] for layer in (one, two)}
        out: dict[str, Any] = {"took": {}, "got": {}}
        for shard, group in enumerate(on):
            # The group's own server is busy: the join waits for it, whatever the other does.
            admin = aioredis.Redis.from_url(servers[shard].url)
            busy = asyncio.create_task(admin.eval(BUSY, 0, 400_000))  # type: ignore[arg-type]
            await asyncio.sleep(0.05)
            started = time.monotonic()
            await one.group_add(group, sockets[one][0])
            out["took"][group] = time.monotonic() - started
            await busy
            await admin.aclose()
            for layer in (one, two):
                for channel in sockets[layer]:
                    await layer.group_add(group, channel)
            out[f"subscribers {group}"] = [s.subscribers(group) for s in servers]
            await sender.group_send(group, {"type": "game.push", "group": group})
            out["got"][group] = [
                (await asyncio.wait_for(layer.receive(channel), 5))["group"]
                for layer in (one, two)
                for channel in sockets[layer]
            ]
        for layer in (one, two, sender):
            await layer.flush()
        return out

    out = asyncio.run(scenario())
    for shard, group in enumerate(on):
        assert out["took"][group] >= 0.25, out  # confirmed by its busy shard, not returned at once
        # Each process holds one subscription, on the group's shard alone.
        assert out[f"subscribers {group}"] == ([2, 0] if shard == 0 else [0, 2]), out
        assert out["got"][group] == [group] * 4, out  # every socket of both processes


def test_a_lost_shard_tells_its_groups_and_spares_the_other(servers: list[KillableRedis]) -> None:
    lost_group, kept_group = _group_on(0), _group_on(1)

    async def scenario() -> dict[str, Any]:
        layer, sender = _layer(servers), _layer(servers)
        at_lost, at_kept, both = [await layer.new_channel() for _ in range(3)]
        for group, channel in (
            (lost_group, at_lost),
            (kept_group, at_kept),
            (lost_group, both),
            (kept_group, both),
        ):
            await layer.group_add(group, channel)
        out: dict[str, Any] = {}
        servers[0].kill()
        # Each member of the lost shard's group is told, once, naming the group.
        out["at_lost"] = await asyncio.wait_for(layer.receive(at_lost), 5)
        out["both"] = await asyncio.wait_for(layer.receive(both), 5)
        # A push to the lost shard fails at once; the other shard's go on.
        started = time.monotonic()
        with pytest.raises(ShardDown):
            await sender.group_send(lost_group, {"type": "game.push", "n": 1})
        out["publish_took"] = time.monotonic() - started
        await sender.group_send(kept_group, {"type": "game.push", "n": 2})
        out["kept"] = [await asyncio.wait_for(layer.receive(c), 5) for c in (at_kept, both)]
        # The lost shard's group cannot be joined meanwhile, and leaving it does not raise.
        with pytest.raises(ShardDown):
            await layer.group_add(lost_group, at_lost)
        await layer.group_discard(lost_group, both)
        out["nothing_more"] = [layer._get_layer().channels[c].qsize() for c in (at_lost, at_kept, both)]
        # Back (a supervisor restarts it): joined again, confirmed, and pushed to.
        servers[0].start()
        deadline = time.monotonic() + 10
        while True:
            try:
                await layer.group_add(lost_group, at_lost)
                break
            except ShardDown:
                assert time.monotonic() < deadline
                await asyncio.sleep(0.2)
        out["subscribers_after"] = servers[0].subscribers(lost_group)
        await sender.group_send(lost_group, {"type": "game.push", "n": 3})
        out["after"] = await asyncio.wait_for(layer.receive(at_lost), 5)
        out["both_after"] = layer._get_layer().channels[both].qsize()  # it left the group
        for one in (layer, sender):
            await one.flush()
        return out

    out = asyncio.run(scenario())
    assert out["at_lost"] == {"type": LOST, "group": lost_group}, out
    assert out["both"] == {"type": LOST, "group": lost_group}, out
    assert out["publish_took"] < 1.0, out
    assert [m["n"] for m in out["kept"]] == [2, 2], out
    assert out["nothing_more"] == [0, 0, 0], out  # no loss told of the shard that stayed
    assert out["subscribers_after"] == 1, out  # only what was asked for again, not the dropped ones
    assert out["after"]["n"] == 3, out
    assert out["both_after"] == 0, out


def test_a_games_viewer_groups_live_on_its_game_groups_shard() -> None:
    """A move's frames go to the game group and its viewer groups (games/publish.py): on one Redis,
    their order holds, and a shard's loss takes whole games, never a part of one."""
    from games.publish import game_group, viewer_group

    hosts = [f"redis://127.0.0.1:{port}" for port in (1, 2, 3)]  # never reached: hashing only
    loop_layer = ConfirmingLoopLayer(hosts, channel_layer=ConfirmedPubSubChannelLayer(hosts=hosts))
    shards = []
    for game_id in range(1, 200):
        on = loop_layer._get_shard(loop_layer._get_group_channel_name(game_group(game_id)))
        for viewer in ("0", "1", "2", "3", "watch"):
            name = loop_layer._get_group_channel_name(viewer_group(game_id, viewer))
            assert loop_layer._get_shard(name) is on
        shards.append(loop_layer._shards.index(on))
    assert set(shards) == {0, 1, 2}  # the games themselves still spread over every shard
