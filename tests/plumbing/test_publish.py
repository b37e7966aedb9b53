"""Publishing to live clients: a server's database threads hand their sends to the server's loop."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest
import redis
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.db import transaction

from games.publish import game_group, publish_game_meta
from plumbing.publish import _server_loop, send_on_commit, sends_held, sends_to_loop, serving_loop_set
from tests.redis_server import redis_url
from tests.support.waits import until

REDIS_URL = redis_url(9)
LAYERS = {
    "in-memory": {"BACKEND": "channels.layers.InMemoryChannelLayer"},
    "redis": {"BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer", "CONFIG": {"hosts": [REDIS_URL]}},
}


@pytest.mark.parametrize("backend", sorted(LAYERS))
def test_sends_from_a_database_thread_reach_the_group_in_the_order_made(settings: Any, backend: str) -> None:
    redis.Redis.from_url(REDIS_URL).flushdb()
    settings.CHANNEL_LAYERS = {"default": LAYERS[backend]}
    sent = 60

    async def scenario() -> list[int]:
        layer = get_channel_layer()
        channel = await layer.new_channel()
        await layer.group_add(game_group(7), channel)
        if backend == "redis":  # the Redis layer subscribes in the background: until Redis has it
            name = layer._get_group_channel_name(game_group(7))
            subscribers = redis.Redis.from_url(REDIS_URL).pubsub_numsub
            await until(lambda: subscribers(name)[0][1] > 0, f"Redis has no subscriber to {name}", timeout=5)

        def publish_many() -> None:
            for n in range(sent):
                publish_game_meta(7, "n", {"n": n})

        await sync_to_async(publish_many, thread_sensitive=False)()
        got = []
        for _ in range(sent):
            message = await asyncio.wait_for(layer.receive(channel), 5)
            got.append(message["data"]["n"])
        await layer.group_discard(game_group(7), channel)
        return got

    assert asyncio.run(scenario()) == list(range(sent))


def test_only_a_server_thread_hands_its_sends_to_a_loop() -> None:
    found: dict[str, Any] = {}

    async def scenario() -> None:
        found["server thread"] = await sync_to_async(_server_loop, thread_sensitive=False)()
        found["running loop"] = asyncio.get_running_loop()

    asyncio.run(scenario())
    assert found["server thread"] is found["running loop"]

    # A thread of its own in a process that serves nothing (a `celery worker`'s, a management
    # command's) has no server loop: its sends run to the end before it goes on.
    other = threading.Thread(target=lambda: found.update(plain=_server_loop()))
    other.start()
    other.join()
    assert found["plain"] is None
    assert _server_loop() is None


def test_a_thread_given_the_servers_loop_hands_its_sends_there_while_it_holds_it() -> None:
    """The presence heartbeat's thread is a server's own, though no event loop started it."""
    found: dict[str, Any] = {}

    async def scenario() -> None:
        loop = asyncio.get_running_loop()

        def beat() -> None:
            with sends_to_loop(loop):
                found["inside"] = _server_loop()
            found["after"] = _server_loop()

        await asyncio.to_thread(beat)
        found["loop"] = loop

    asyncio.run(scenario())
    assert found["inside"] is found["loop"]
    assert found["after"] is None


@pytest.mark.django_db(transaction=True)
def test_a_send_goes_once_its_transaction_commits_and_never_when_it_rolls_back(settings: Any) -> None:
    settings.CHANNEL_LAYERS = {"default": LAYERS["in-memory"]}
    with sends_held() as held:
        with transaction.atomic():
            send_on_commit("g", {"type": "committed"})
            with transaction.atomic():
                send_on_commit("g", {"type": "inner"})
            assert held == []  # not before the commit
        assert held == [("g", {"type": "committed"}), ("g", {"type": "inner"})]
        with pytest.raises(RuntimeError), transaction.atomic():
            send_on_commit("g", {"type": "rolled back"})
            raise RuntimeError
        send_on_commit("g", {"type": "outside"})  # no transaction: at once
    assert held == [("g", {"type": "committed"}), ("g", {"type": "inner"}), ("g", {"type": "outside"})]


def test_a_send_handed_to_a_loop_that_has_closed_is_dropped_not_raised(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    import plumbing.publish as publish

    closed = asyncio.new_event_loop()
    closed.close()
    monkeypatch.setattr(publish, "_server_loop", lambda: closed)
    publish_game_meta(7, "n", {"n": 1})  # a lost push is recovered by the clients' resume
    assert "the server is stopping" in caplog.text


def test_a_serving_process_hands_the_sends_of_its_other_threads_to_its_loop(settings: Any) -> None:
    """The embedded worker's threads publish to the in-memory layer, whose queues belong to the
    server's loop: sent from another loop, a push woke no socket until something else woke the
    server's loop."""
    settings.CHANNEL_LAYERS = {"default": LAYERS["in-memory"]}

    async def scenario() -> tuple[dict[str, Any], int]:
        serving_loop_set(asyncio.get_running_loop())  # as `serve` does
        try:
            layer = get_channel_layer()
            channel = await layer.new_channel()
            await layer.group_add(game_group(7), channel)
            sent_from: dict[str, int] = {}
            send = layer.group_send

            async def recorded(group: str, message: dict[str, Any]) -> None:
                sent_from["thread"] = threading.get_ident()
                await send(group, message)

            layer.group_send = recorded
            worker = threading.Thread(target=publish_game_meta, args=(7, "n", {"n": 1}))  # a worker's thread
            worker.start()
            await asyncio.to_thread(worker.join)
            message = await asyncio.wait_for(layer.receive(channel), 5)
            return {**message["data"], **sent_from}, threading.get_ident()
        finally:
            serving_loop_set(None)

    got, loop_thread = asyncio.run(scenario())
    assert got == {"n": 1, "thread": loop_thread}
    assert _server_loop() is None  # once the server is gone, a send runs to its end again


def test_a_moves_frames_sent_from_a_worker_arrive_in_order_in_one_trip(settings: Any) -> None:
    """Where no server's loop runs (a Celery worker), a move's frames (send_all_on_commit) go in
    one run: one event loop, one connection and one pipeline, not one of each per frame."""
    from plumbing.channellayer import ConfirmingShardConnection
    from plumbing.publish import send_all_on_commit

    redis.Redis.from_url(REDIS_URL).flushdb()
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "plumbing.channellayer.ConfirmedPubSubChannelLayer",
            "CONFIG": {"hosts": [REDIS_URL]},
        }
    }
    groups = ["game.9-0", "game.9-1", "game.9-watch", "game.9-spectator"]
    listener = redis.Redis.from_url(REDIS_URL).pubsub()
    listener.subscribe(*(f"asgi__group__{g}" for g in groups))
    while listener.get_message(timeout=1) is not None:  # the confirmations
        pass
    trips: list[int] = []
    publish_all = ConfirmingShardConnection._publish_all

    async def counted(self: Any, batch: list[Any]) -> None:
        trips.append(len(batch))
        await publish_all(self, batch)

    ConfirmingShardConnection._publish_all = counted  # type: ignore[method-assign]
    try:
        send_all_on_commit([(g, {"type": "game.push", "n": n}) for n, g in enumerate(groups)])
    finally:
        ConfirmingShardConnection._publish_all = publish_all  # type: ignore[method-assign]
    got = []
    while (message := listener.get_message(ignore_subscribe_messages=True, timeout=2)) is not None:
        got.append(message["channel"].decode().split("__group__", 1)[1])
    listener.close()
    assert got == groups and trips == [4]
