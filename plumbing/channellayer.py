"""Channels' Redis pub/sub layer, whose `group_add` returns only once Redis holds the subscription,
over one Redis server or several (shards), telling a group's sockets when its shard is lost.

A game socket joins its game's group, then reads the game (live/game.py): every move
committed after the read is pushed to the group, every move before it is in the read. That holds
only if the group's subscription is in force when the read is made. Channels' layer sends the
SUBSCRIBE and returns without waiting for Redis to confirm it. Redis starved of CPU (a kill -9
restart's storm on the 2-core machine) could then take another server's PUBLISH of a move before
this SUBSCRIBE, after a read that came before the move's commit. The socket missed the push, and
heard of the move only with the next one, which could be the turn timer's. Here a new group
subscription is awaited until Redis confirms it. The first socket of a game on a server is the only
one that subscribes. Others that join meanwhile wait for the same confirmation.

Shards (settings CHANNEL_LAYER_REDIS_URLS): Channels' layer keeps one connection per server and
sends each group to one of them by a hash of the group's name (`_get_shard`), the same on every
process, for its PUBLISH and its SUBSCRIBE alike. So the rule above holds per shard: a group's
publishers and subscribers all meet on the one server its name hashes to, its subscription is
confirmed by that server on that server's connection, and the order "confirmed, then read" is the
order of that one server. A group named `<base>-<more>` (SAME_SHARD) is hashed as `<base>`, so it
lives on its base group's shard: a game's viewer groups (games/publish.py, `viewer_group`) share the
game group's Redis, which keeps a move's sends to them in order and makes the loss of one shard the
loss of whole games, never of part of one. Nothing orders two shards, and nothing needs to.

A lost shard (its server killed, restarted, or out of reach): PUBLISH to it fails at once (the
move is committed in PostgreSQL by then; plumbing/publish.py logs and counts the lost push), a
SUBSCRIBE to it raises `ShardDown` (the socket is turned away with 1013 and its page tries again),
and every subscription the process held on it is dropped, each of its groups' local members told
with a `layer.lost` message naming the group. What was published meanwhile is gone, so a socket
told cannot trust its push feed: a game socket whose game group was lost closes with 1012 and its
page reconnects and resumes from the log (static/js/core/socket.js); one that lost only its user
or chat group joins it again once the shard answers (live/game.py). Sockets whose groups are all on
other shards hear nothing of it. Redis-py reconnects the shard's connection by itself (each read
of the receive loop tries); nothing is subscribed again that no socket asks for again.

Specific channels (one per socket, `new_channel`) are kept in this process only: nothing here
sends to one through Redis (pushes go to groups), and a SUBSCRIBE per socket would only cost Redis,
and put every socket on some shard whose loss it would then share.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from typing import Any

from channels_redis.pubsub import RedisPubSubChannelLayer, RedisPubSubLoopLayer, RedisSingleShardConnection
from channels_redis.utils import _wrap_close, decode_hosts
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

log = logging.getLogger(__name__)

SAME_SHARD = "-"  # a group `<base>-<more>` lives on the shard of `<base>` (the module's docstring)
GROUP_MARK = "__group__"  # in every group's channel name (RedisPubSubLoopLayer._get_group_channel_name)
CONFIRM_TIMEOUT_S = 5.0
LOST = "layer.lost"  # the message a lost shard's groups' members are told (their handler: layer_lost)
# What a connection to a shard that is gone raises (a refused or reset connection, a timeout).
GONE = (RedisConnectionError, RedisTimeoutError, OSError)


class ShardDown(Exception):
    """The Redis server a group lives on does not answer: the group cannot be joined now."""


class ConfirmingShardConnection(RedisSingleShardConnection):
    """One Redis server of the layer: a group's SUBSCRIBE is awaited until Redis confirms it, and
    the loss of the connection drops every subscription and tells the groups' members."""

    def __init__(self, host: Any, channel_layer: Any) -> None:
        super().__init__(host, channel_layer)
        self._unconfirmed: dict[str, asyncio.Event] = {}
        self._refused: set[str] = set()  # subscriptions lost while waiting for their confirmation
        self.down = False  # the connection was lost and has not read from Redis since
        self._outgoing: list[tuple[str, Any, asyncio.Future[None]]] = []  # publishes waiting for a trip
        self._sender: asyncio.Future[None] | None = None  # the task that sends them (`publish`)

    def _where(self) -> str:
        host = self.host.get("address") if isinstance(self.host, dict) else self.host
        return str(host)

    async def subscribe(self, channel: str) -> None:
        async with self._lock:
            if channel not in self._subscribed_to:
                self._ensure_redis()
                self._ensure_receiver()
                if GROUP_MARK in channel:
                    self._unconfirmed[channel] = asyncio.Event()
                try:
                    await self._pubsub.subscribe(channel)
                except GONE as e:
                    self._unconfirmed.pop(channel, None)
                    self._forget(channel)
                    raise ShardDown(f"{self._where()}: {e}") from e
                self._subscribed_to.add(channel)
            pending = self._unconfirmed.get(channel)
        if pending is not None:
            try:
                await asyncio.wait_for(pending.wait(), CONFIRM_TIMEOUT_S)
            except TimeoutError:
                log.warning("no confirmation of %s's subscription after %g s", channel, CONFIRM_TIMEOUT_S)
        if channel in self._refused:
            self._refused.discard(channel)
            raise ShardDown(f"{self._where()}: lost before it confirmed {channel}")

    async def unsubscribe(self, channel: str) -> None:
        """Channels' own, except that a shard that is gone forgets the subscription here (it
        holds none of it any more) instead of raising into a closing socket."""
        async with self._lock:
            if channel in self._subscribed_to:
                self._subscribed_to.discard(channel)
                self._ensure_redis()
                self._ensure_receiver()
                try:
                    await self._pubsub.unsubscribe(channel)
                except GONE:
                    self._forget(channel)

    async def publish(self, channel: str, message: Any) -> None:
        """Channels' own makes one round trip per PUBLISH, each under the shard's lock. Here the
        publishes made meanwhile go together, in the order they were made, in one pipeline: a
        move's frames, one per viewer group of the game (games/publish.py), started together
        (plumbing/publish.py, `sends_made`), cost one trip instead of five or six. The shard's own
        task sends them, so a caller cancelled meanwhile loses no other caller's publish."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._outgoing.append((channel, message, done))
        if self._sender is None or self._sender.done():
            # It starts on the loop's next turn: the publishes started in this one come along.
            self._sender = asyncio.ensure_future(self._send_outgoing())
        await done

    async def _send_outgoing(self) -> None:
        try:
            while self._outgoing:
                batch, self._outgoing = self._outgoing, []
                await self._publish_all(batch)
        finally:
            left, self._outgoing = self._outgoing, []
            _fail(left, ShardDown(f"{self._where()}: not sent, the layer was stopping"))

    async def _publish_all(self, batch: list[tuple[str, Any, asyncio.Future[None]]]) -> None:
        try:
            async with self._lock:
                self._ensure_redis()
                pipe = self._redis.pipeline(transaction=False)
                for channel, message, _ in batch:
                    pipe.publish(channel, message)
                await pipe.execute()
        except GONE as e:
            _fail(batch, ShardDown(f"{self._where()}: {e}"))
            return
        except BaseException:
            _fail(batch, ShardDown(f"{self._where()}: not sent, the layer was stopping"))
            raise
        for _, _, done in batch:
            if not done.done():
                done.set_result(None)

    def _forget(self, channel: str) -> None:
        """Drop `channel` from redis-py's list too, which it would SUBSCRIBE again on reconnecting."""
        if self._pubsub is not None:
            self._pubsub.channels.pop(channel.encode(), None)
            self._pubsub.pending_unsubscribe_channels.discard(channel.encode())

    async def flush(self) -> None:
        await super().flush()
        for pending in self._unconfirmed.values():
            pending.set()
        self._unconfirmed.clear()
        self._refused.clear()
        self.down = False

    def _confirmed(self, channel: Any) -> None:
        name = channel.decode() if isinstance(channel, bytes) else str(channel)
        pending = self._unconfirmed.pop(name, None)
        if pending is not None:
            pending.set()

    def _lost(self, error: BaseException) -> None:
        """The connection to this shard broke: whatever was published to it meanwhile is gone and
        no subscription on it holds any more. Every one is dropped (nothing is subscribed again
        on reconnecting but what a socket asks for again), and each group's members in this
        process are told, so that they read what they missed from the log."""
        self.down = True
        lost = sorted(self._subscribed_to)
        log.warning(
            "channel layer shard %s lost (%s): %d subscriptions dropped", self._where(), error, len(lost)
        )
        self._subscribed_to = set()
        if self._pubsub is not None:
            self._pubsub.channels.clear()
            self._pubsub.pending_unsubscribe_channels.clear()
        for channel, pending in self._unconfirmed.items():
            self._refused.add(channel)
            pending.set()
        self._unconfirmed.clear()
        layer = self.channel_layer
        for channel in lost:
            members = layer.groups.get(channel)
            if not members:
                continue
            group = channel.split(GROUP_MARK, 1)[1]
            note = layer.channel_layer.serialize({"type": LOST, "group": group})
            for member in members:
                queue = layer.channels.get(member)
                if queue is not None:
                    queue.put_nowait(note)

    async def _do_receiving(self) -> None:
        # Channels' own loop, reading the confirmations as well instead of dropping them, and
        # telling the groups when the connection is lost.
        while True:
            try:
                if self._pubsub and (self._pubsub.subscribed or self.down):
                    if self.down and not self._pubsub.subscribed:
                        # Nothing to read until a socket subscribes again: see whether the shard answers.
                        await self._redis.ping()
                        self._back()
                        continue
                    message = await self._pubsub.get_message(ignore_subscribe_messages=False, timeout=0.1)
                    self._back()
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
            except GONE as e:
                if not self.down:
                    self._lost(e)
                await asyncio.sleep(0.5)  # then the next read tries to reconnect
            except BaseException:
                log.exception("Unexpected exception in receive task")
                await asyncio.sleep(1)

    def _back(self) -> None:
        if self.down:
            self.down = False
            log.warning("channel layer shard %s answers again", self._where())


def _fail(batch: list[tuple[str, Any, asyncio.Future[None]]], error: ShardDown) -> None:
    for _, _, done in batch:
        if not done.done():
            done.set_exception(ShardDown(*error.args))


class ConfirmingLoopLayer(RedisPubSubLoopLayer):
    def __init__(self, hosts: Any = None, *args: Any, **kwargs: Any) -> None:
        super().__init__(hosts, *args, **kwargs)
        self._shards = [ConfirmingShardConnection(host, self) for host in decode_hosts(hosts)]

    def _get_shard(self, channel_or_group_name: str) -> Any:
        """Channels' own hash, of a group's base name: `<base>-<more>` lives with `<base>`."""
        name = channel_or_group_name
        if GROUP_MARK in name and SAME_SHARD in name.split(GROUP_MARK, 1)[1]:
            head, group = name.split(GROUP_MARK, 1)
            name = f"{head}{GROUP_MARK}{group.split(SAME_SHARD, 1)[0]}"
        return super()._get_shard(name)

    async def new_channel(self, prefix: str = "specific.") -> str:
        """A socket's own channel, in this process only (the module's docstring says why)."""
        channel = f"{self.prefix}{prefix}{uuid.uuid4().hex}"
        self.channels[channel] = asyncio.Queue()
        return channel

    async def group_add(self, group: str, channel: str) -> None:
        """Channels' own; a group whose shard is down is not joined (ShardDown)."""
        try:
            await super().group_add(group, channel)
        except ShardDown:
            group_channel = self._get_group_channel_name(group)
            members = self.groups.get(group_channel)
            if members is not None:
                members.discard(channel)
                if not members:
                    del self.groups[group_channel]
            raise

    def shards_down(self) -> list[str]:
        """The shards whose connection is lost now."""
        return [shard._where() for shard in self._shards if shard.down]


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
