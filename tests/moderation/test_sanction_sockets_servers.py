"""A suspension or ban is said at once on the pages the person has open, on a real server (issue
27): each of their sockets (the game they play, its table, the lobby, a game they watch) gets a
`sanctioned` message with the sanction's kind, end and reason and is then closed with 4401
(docs/PROTOCOL.md), after which a page does not reconnect. Nobody else's socket hears of it; a
plain sign-out still closes the game and table sockets with 4403 and leaves the lobby open.

The moderator acts in this process, whose channel layer is pointed at the server's Redis."""

from __future__ import annotations

import asyncio
import json
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import websockets
from django.contrib.auth import get_user_model

from accounts.publish import user_group
from accounts.services import user_signed_out
from live.sockets import CLOSE_REFUSED, CLOSE_SANCTIONED
from moderation import services
from tests.live.test_live_servers import _api, _game
from tests.moderation.conftest import make_moderator
from tests.support.stack import Stack
from tests.support.waits import until

pytestmark = [
    pytest.mark.server,
    pytest.mark.django_db(transaction=True),
    pytest.mark.stack(redis_db=4, servers=1, worker=False),
]
LONG = {"turn_timer": 600, "reaction_timer": 600, "discard_timer": 600}
ORIGIN = "http://localhost"


@pytest.fixture
def layer_of(settings: Any) -> Any:
    """Point this process's channel layer at the stack's Redis: what it publishes reaches the server."""

    def point(stack: Stack) -> None:
        settings.CHANNEL_LAYERS = {
            "default": {
                "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
                "CONFIG": {"hosts": [stack.env["REDIS_URL"]]},
            }
        }

    return point


async def _open(url: str) -> Any:
    ws = await websockets.connect(url, origin=ORIGIN)
    await asyncio.wait_for(ws.recv(), 10)  # the first message: the socket has joined its groups
    return ws


async def _last_words(ws: Any) -> tuple[list[dict[str, Any]], int | None]:
    """What a socket gets until it is closed (single messages and batches alike), and its close code."""
    got: list[dict[str, Any]] = []
    try:
        while True:
            data = json.loads(await asyncio.wait_for(ws.recv(), 10))
            got.extend(data if isinstance(data, list) else [data])
    except websockets.ConnectionClosed as e:
        return got, e.rcvd.code if e.rcvd else None


async def _still_open(ws: Any) -> bool:
    await ws.send(json.dumps({"type": "ping"}))
    try:
        while True:
            data = json.loads(await asyncio.wait_for(ws.recv(), 10))
            if any(m["type"] == "pong" for m in (data if isinstance(data, list) else [data])):
                return True
    except websockets.ConnectionClosed:
        return False


def _user_of(token: str, stack: Stack) -> Any:
    name = _api(stack.url(0), "/api/accounts/me/", token=token)["username"]
    return get_user_model().objects.get(username=name)


async def _subscribed(stack: Stack, user_id: int) -> None:
    """Until the server listens to the user's group on Redis (its sockets have joined it)."""
    import redis
    from channels.layers import get_channel_layer

    name = get_channel_layer()._get_group_channel_name(user_group(user_id))
    numsub = redis.Redis.from_url(stack.env["REDIS_URL"]).pubsub_numsub
    await until(lambda: numsub(name)[0][1] > 0, f"the server never subscribed to {name}", timeout=10)


@pytest.mark.parametrize("kind", ["ban", "suspend"])
def test_every_socket_of_a_sanctioned_person_is_told_why_then_closed(
    stack: Stack, layer_of: Any, make_user: Any, kind: str
) -> None:
    layer_of(stack)
    ws = stack.ws_url(0)
    game, [(_, token), (_, bystander)] = _game(stack, 2, 0, **LONG)
    watched, _ = _game(stack, 1, 1, **LONG)
    person = _user_of(token, stack)
    moderator = make_moderator(make_user, f"mod{uuid.uuid4().hex[:8]}")
    until_at = (datetime.now(UTC) + timedelta(days=3)).replace(microsecond=0)

    async def run() -> tuple[dict[str, Any], bool]:
        mine = {
            "game": await _open(f"{ws}/ws/games/{game.pk}/?batch=1&token={token}"),
            "table": await _open(f"{ws}/ws/tables/{game.table_id}/?token={token}"),
            "lobby": await _open(f"{ws}/ws/lobby/?token={token}"),
            "watch": await _open(f"{ws}/ws/games/{watched.pk}/?batch=1&frames=1&token={token}"),
        }
        theirs = await _open(f"{ws}/ws/games/{game.pk}/?batch=1&token={bystander}")
        await _subscribed(stack, person.pk)
        if kind == "ban":
            await asyncio.to_thread(
                services.user_ban, moderator=moderator, user=person, reason="abusive chat"
            )
        else:
            await asyncio.to_thread(
                services.user_suspend, moderator=moderator, user=person, reason="spam", until=until_at
            )
        said = {name: await _last_words(sock) for name, sock in mine.items()}
        # The other player's socket stays open (it sees the seat go to a bot).
        bystander_open = await _still_open(theirs)
        await theirs.close()
        return said, bystander_open

    said, bystander_open = asyncio.run(run())
    expected = (
        {"type": "sanctioned", "kind": "ban", "until": None, "reason": "abusive chat"}
        if kind == "ban"
        else {"type": "sanctioned", "kind": "suspend", "until": until_at.isoformat(), "reason": "spam"}
    )
    for name, (messages, code) in said.items():
        assert code == CLOSE_SANCTIONED, name
        assert messages and messages[-1] == expected, (name, messages[-3:])
        assert sum(m["type"] == "sanctioned" for m in messages) == 1, name
    assert bystander_open


def test_signing_out_closes_the_game_and_table_sockets_and_leaves_the_lobby_open(
    stack: Stack, layer_of: Any
) -> None:
    layer_of(stack)
    ws = stack.ws_url(0)
    game, [(_, token), _] = _game(stack, 2, 0, **LONG)
    person = _user_of(token, stack)

    async def run() -> tuple[dict[str, Any], bool]:
        game_ws = await _open(f"{ws}/ws/games/{game.pk}/?batch=1&token={token}")
        table_ws = await _open(f"{ws}/ws/tables/{game.table_id}/?token={token}")
        lobby_ws = await _open(f"{ws}/ws/lobby/?token={token}")
        await _subscribed(stack, person.pk)
        await asyncio.to_thread(user_signed_out.send, person.pk)  # signed out in another browser
        said = {"game": await _last_words(game_ws), "table": await _last_words(table_ws)}
        lobby_open = await _still_open(lobby_ws)
        await lobby_ws.close()
        return said, lobby_open

    said, lobby_open = asyncio.run(run())
    for name, (messages, code) in said.items():
        assert code == CLOSE_REFUSED, name
        assert not any(m["type"] == "sanctioned" for m in messages), name
    assert lobby_open
