"""Channels' Redis pub/sub layer, whose `group_add` returns only once Redis holds the subscription.

A game socket joins its game's group, then reads the game (live/game.py): every move
committed after the read is pushed to the group, every move before it is in the read. That holds
only if the group's subscription is in force when the read is made. Channels' layer sends the
SUBSCRIBE and returns without waiting for Redis to confirm it. Redis starved of CPU (a kill -9
restart's storm on the 2-core machine) could then take another server's PUBLISH of a move before
this SUBSCRIBE, after a read that came before the move's commit. The socket missed the push, and
heard of the move only with the next one, which could be the turn timer's. Here a new group
subscription is awaited until Redis confirms it. The first socket of a game on a server is the only
one that subscribes. Others that join meanwhile wait for the same confirmation.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from channels_redis.pubsub import RedisPubSubChannelLayer, RedisPubSubLoopLayer, RedisSingleShardConnection
from channels_redis.utils import _wrap_close, decode_hosts

log = logging.getLogger(__name__)

GROUP_MARK = "__group__"  # in every group's channel name (RedisPubSubLoopLayer._get_group_channel_name)
CONFIRM_TIMEOUT_S = 5.0


class ConfirmingShardConnection(RedisSingleShardConnection):
    """One Redis connection of the layer; a group's SUBSCRIBE is awaited until Redis confirms it."""

    def __init__(self, host: Any, channel_layer: Any) -> None:
        super().__init__(host, channel_layer)
        self._unconfirmed: dict[str, asyncio.Event] = {}

    async def subscribe(self, channel: str) -> None:
        async with self._lock:
            if channel not in self._subscribed_to:
                self._ensure_redis()
                self._ensure_receiver()
                if GROUP_MARK in channel:
                    self._unconfirmed[channel] = asyncio.Event()
                await self._pubsub.subscribe(channel)
                self._subscribed_to.add(channel)
            pending = self._unconfirmed.get(channel)
        if pending is not None:
            try:
                await asyncio.wait_for(pending.wait(), CONFIRM_TIMEOUT_S)
            except TimeoutError:
                log.warning("no confirmation of %s's subscription after %g s", channel, CONFIRM_TIMEOUT_S)

    async def flush(self) -> None:
        await super().flush()
        for pending in self._unconfirmed.values():
            pending.set()
        self._unconfirmed.clear()

    def _confirmed(self, channel: Any) -> None:
        name = channel.decode() if isinstance(channel, bytes) else str(channel)
        pending = self._unconfirmed.pop(name, None)
        if pending is not None:
            pending.set()

    async def _do_receiving(self) -> None:
        # Channels' own loop, reading the confirmations as well instead of dropping them.
        while True:
            try:
                if self._pubsub and self._pubsub.subscribed:
                    message = await self._pubsub.get_message(ignore_subscribe_messages=False, timeout=0.1)
                    if message is None:
                        continue
                    if message["type"] == "subscribe":
                        self._confirmed(message["channel"])
                    elif message["type"] == "message":
                        self._receive_message(message)
                else:
                    await asyncio.sleep(0.1)
            except (asyncio.CancelledError, TimeoutError, GeneratorExit):
                raise
            except BaseException:
                log.exception("Unexpected exception in receive task")
                await asyncio.sleep(1)


class ConfirmingLoopLayer(RedisPubSubLoopLayer):
    def __init__(self, hosts: Any = None, *args: Any, **kwargs: Any) -> None:
        super().__init__(hosts, *args, **kwargs)
        self._shards = [ConfirmingShardConnection(host, self) for host in decode_hosts(hosts)]


class ConfirmedPubSubChannelLayer(RedisPubSubChannelLayer):
    """`channels_redis.pubsub.RedisPubSubChannelLayer` with its groups' subscriptions confirmed."""

    def _get_layer(self) -> Any:
        loop = asyncio.get_running_loop()
        try:
            return self._layers[loop]
        except KeyError:
            layer = ConfirmingLoopLayer(*self._args, **self._kwargs, channel_layer=self)
            self._layers[loop] = layer
            _wrap_close(self, loop)
            return layer
