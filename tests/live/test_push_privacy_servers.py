"""What crosses Redis for a move, on two real servers: each server subscribes to the frames of its
own sockets' viewers only, and what it receives there holds no other seat's cards
(games/publish.py). Read from Redis itself: MONITOR says which connection subscribed to what, and
a subscriber of the test's own, on exactly a server's channels, receives what that server does."""

from __future__ import annotations

import asyncio
import json
import threading
from collections import defaultdict
from typing import Any

import pytest
import redis
from channels_redis.serializers import registry

from games.models import Game
from games.push import frame_text
from tests.live.client import LiveClient
from tests.live.test_live_servers import _game, _until_over
from tests.redis_server import redis_url
from tests.support.waits import until

pytestmark = [
    pytest.mark.server,
    pytest.mark.django_db(transaction=True),
    pytest.mark.stack(
        redis_db=9,
        servers=2,
        BOT_DELAY_SECONDS="0",
        SOCKET_MESSAGES_PER_SECOND="500",
        SOCKET_MESSAGES_BURST="1000",
    ),
]


class Monitor:
    """Redis's MONITOR, read on a thread: each client connection's SUBSCRIBEs."""

    def __init__(self, url: str) -> None:
        self.client = redis.Redis.from_url(url)
        self.subscribed: dict[str, set[str]] = defaultdict(set)
        self.ready = threading.Event()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()
        assert self.ready.wait(5)

    def _read(self) -> None:
        with self.client.monitor() as monitor:
            self.connection = monitor.connection
            self.ready.set()
            try:
                for command in monitor.listen():
                    self._line(command)
            except Exception:  # stop() closed the connection under it
                return

    def _line(self, command: dict[str, Any]) -> None:
        words = command["command"].split(" ")
        client = f"{command['client_address']}:{command['client_port']}"
        if words[0].upper() == "SUBSCRIBE":
            self.subscribed[client].update(words[1:])
        elif words[0].upper() == "UNSUBSCRIBE":
            self.subscribed[client].difference_update(words[1:])

    def stop(self) -> None:
        self.connection.disconnect()
        self.thread.join(5)


class Mirror:
    """A subscriber on exactly the channels one server subscribed to: what that server receives."""

    def __init__(self, url: str, channels: set[str]) -> None:
        self.pubsub = redis.Redis.from_url(url).pubsub()
        self.pubsub.subscribe(*channels)
        while self.pubsub.get_message(timeout=1) is not None:  # the confirmations
            pass
        self.got: list[tuple[str, dict[str, Any]]] = []
        self.serializer = registry.get_serializer("msgpack")
        self.running = True
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        while self.running:
            message = self.pubsub.get_message(ignore_subscribe_messages=True, timeout=0.1)
            if message is not None:
                channel = message["channel"].decode()
                self.got.append((channel, self.serializer.deserialize(message["data"])))

    def stop(self) -> None:
        self.running = False
        self.thread.join(5)
        self.pubsub.close()


def _of_game(channel: str, base: str) -> bool:
    group = channel.split("__group__", 1)[-1]
    return group == base or group.startswith(f"{base}-")


def _frames(got: list[tuple[str, dict[str, Any]]]) -> list[tuple[str, list[dict[str, Any]]]]:
    assert not any("frames" in m for _, m in got)  # never every viewer's frames in one message
    return [
        (channel, json.loads(frame_text(m["frame"]))) for channel, m in got if m.get("type") == "game.push"
    ]


def _nothing_of_others(frames: list[tuple[str, list[dict[str, Any]]]], seats: set[int]) -> None:
    """No view but of `seats` or a spectator's, no drawn cards but theirs, no hands, no pile."""
    for channel, messages in frames:
        text = json.dumps(messages)
        assert "hands" not in text and 'draw_pile"' not in text, (channel, text)
        for m in messages:
            if m["type"] == "view":
                assert m["view"]["seat"] in seats | {None}, (channel, m)
                assert m["view"]["seat"] is not None or m["view"]["hand"] is None, (channel, m)
            if m["type"] == "event" and "cards" in m["event"] and "seat" in m["event"]:
                kind = m["event"]["type"]
                assert kind != "CardsDrawn" or m["event"]["seat"] in seats, (channel, m)
            if m["type"] == "event":
                assert m["event"]["type"] != "DrawPileReshuffled" or "cards" not in m["event"], (channel, m)


def test_a_server_receives_only_its_own_sockets_frames(stack):
    game, humans = _game(stack, 2, 2, turn_timer=600, reaction_timer=600, discard_timer=600)
    (seat_a, tok_a), (seat_b, tok_b) = humans
    bots = {0, 1, 2, 3} - {seat_a, seat_b}
    url = redis_url(9)
    monitor = Monitor(url)
    base = f"game.{game.pk}"

    async def run() -> tuple[Mirror, Mirror]:
        a = LiveClient(game.pk, tok_a, seat_a)
        b = LiveClient(game.pk, tok_b, seat_b)
        watch = LiveClient(game.pk, None, None, play=False)  # a watch page, beside a
        a.paused = b.paused = True  # nothing moves until the mirrors listen
        await a.connect(stack.ws_url(0), stack.url(0))
        await b.connect(stack.ws_url(1), stack.url(1))
        await watch.connect(stack.ws_url(0), stack.url(0))
        for c in (a, b, watch):
            await until(lambda c=c: any(m["type"] in ("state", "view") for m in c.messages), "no view")
        monitor.stop()
        games = {
            client: {c.split("__group__", 1)[1] for c in channels if _of_game(c, base)}
            for client, channels in monitor.subscribed.items()
        }
        games = {client: groups for client, groups in games.items() if groups}
        assert sorted(games.values(), key=len) == [
            {base, f"{base}-{seat_b}"},
            {base, f"{base}-{seat_a}", f"{base}-watch", f"{base}-spectator"},
        ], games  # one connection per server: its sockets' viewers, no other seat, no bot's
        one, two = (next(c for c, g in games.items() if f"{base}-{seat}" in g) for seat in (seat_a, seat_b))
        mirrors = tuple(
            Mirror(url, {c for c in monitor.subscribed[client] if _of_game(c, base)}) for client in (one, two)
        )
        a.paused = b.paused = False
        for c in (a, b):
            await c.ws.send(json.dumps({"type": "sync"}))  # its view again: it plays from there
        await _until_over([a, b, watch], stack)
        await asyncio.sleep(0.5)  # the last push reaches the mirrors too
        for c in (a, b, watch):
            await c.close()
        return mirrors  # type: ignore[return-value]

    mirror_a, mirror_b = asyncio.run(run())
    for mirror in (mirror_a, mirror_b):
        mirror.stop()
    game = Game.objects.get(pk=game.pk)
    assert game.status == "finished"
    got_a, got_b = _frames(mirror_a.got), _frames(mirror_b.got)
    _nothing_of_others(got_a, {seat_a})
    _nothing_of_others(got_b, {seat_b})
    # Not vacuous: each server took its seat's frames of every move, and the watch page's.
    pushes = len({m["last"] for _, m in mirror_a.got if m.get("type") == "game.push"})
    assert pushes > 5
    for got, seat in ((got_a, seat_a), (got_b, seat_b)):
        mine = [ms for ms in (messages for _, messages in got) if ms[-1]["view"]["seat"] == seat]
        assert len(mine) >= pushes - 1, (seat, len(mine), pushes)  # a bot's move may overlap the start
    assert any("frames" in messages[-1] for _, messages in got_a)  # the watch page's
    assert not any("frames" in messages[-1] for _, messages in got_b)
    assert all(m["viewer"] == str(seat_b) for _, m in mirror_b.got if m.get("type") == "game.push")
    assert bots  # two bots played, and no server heard their seats' frames (checked above)
