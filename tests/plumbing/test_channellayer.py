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
