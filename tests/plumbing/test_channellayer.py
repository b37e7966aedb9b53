"""The Redis layer's group_add returns once Redis holds the subscription (plumbing/channellayer.py)."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
import redis
import redis.asyncio as aioredis
from channels_redis.pubsub import RedisPubSubChannelLayer

from plumbing.channellayer import ConfirmedPubSubChannelLayer
from tests.redis_server import redis_url

URL = redis_url(12)
# Holds Redis for `ARGV[1]` microseconds: nothing else is served meanwhile (a starved Redis).
BUSY = """
local t = redis.call('TIME')
local start = t[1] * 1000000 + t[2]
while true do
  local n = redis.call('TIME')
  if n[1] * 1000000 + n[2] - start > tonumber(ARGV[1]) then return 1 end
end
"""


def _join_while_redis_is_busy(layer_class: Any) -> dict[str, Any]:
    redis.Redis.from_url(URL).flushdb()

    async def scenario() -> dict[str, Any]:
        layer = layer_class(hosts=[URL])
        other = layer_class(hosts=[URL])  # another server
        channel = await layer.new_channel()
        await other.new_channel()
        admin = aioredis.Redis.from_url(URL)
        busy = asyncio.create_task(admin.eval(BUSY, 0, 400_000))
        await asyncio.sleep(0.05)  # the script has Redis now
        started = time.monotonic()
        await layer.group_add("game.7", channel)
        took = time.monotonic() - started
        await busy
        # Once group_add has returned, a move published by another server reaches the socket.
        await other.group_send("game.7", {"type": "game.push", "n": 1})
        got = await asyncio.wait_for(layer.receive(channel), 5)
        await layer.flush()
        await other.flush()
        await admin.aclose()
        return {"took": took, "got": got}

    return asyncio.run(scenario())


def test_group_add_returns_only_once_redis_has_confirmed_the_subscription() -> None:
    out = _join_while_redis_is_busy(ConfirmedPubSubChannelLayer)
    assert out["took"] >= 0.25, out  # it waited for the busy Redis to take the SUBSCRIBE
    assert out["got"]["n"] == 1


@pytest.mark.parametrize("layer_class", [RedisPubSubChannelLayer])
def test_channels_own_layer_returns_before_redis_has_it(layer_class: Any) -> None:
    """What the subclass is for: the plain layer's group_add returns while the SUBSCRIBE waits."""
    assert _join_while_redis_is_busy(layer_class)["took"] < 0.2


def test_sends_started_together_go_in_one_trip_and_arrive_in_their_order() -> None:
    """A move's frames, one per viewer group (games/publish.py), are started together: the layer
    takes them to Redis in one pipeline, and a server subscribed to several of the groups gets
    them in the order they were made (its seat's frame before the spectators')."""
    redis.Redis.from_url(URL).flushdb()
    groups = ["game.8", "game.8-0", "game.8-watch"]

    async def scenario() -> dict[str, Any]:
        layer = ConfirmedPubSubChannelLayer(hosts=[URL])
        sender = ConfirmedPubSubChannelLayer(hosts=[URL])  # another server
        channel = await layer.new_channel()
        for group in groups:
            await layer.group_add(group, channel)
        await sender.group_send("game.8", {"type": "warm", "n": -1})  # its connection made
        assert (await asyncio.wait_for(layer.receive(channel), 5))["n"] == -1
        shard = sender._get_layer()._shards[0]
        trips: list[int] = []
        publish_all = shard._publish_all

        async def counted(batch: list[Any]) -> None:
            trips.append(len(batch))
            await publish_all(batch)

        shard._publish_all = counted
        sends = [(groups[n % 3], {"type": "game.push", "n": n}) for n in range(30)]
        await asyncio.gather(*(sender.group_send(g, m) for g, m in sends))
        got = [(await asyncio.wait_for(layer.receive(channel), 5))["n"] for _ in sends]
        await layer.flush()
        await sender.flush()
        return {"got": got, "trips": trips}

    out = asyncio.run(scenario())
    assert out["got"] == list(range(30))
    assert out["trips"] == [30]
