"""The chat over the pages' sockets (the game socket and the table socket), on the full ASGI app."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from accounts.services import user_register, user_token
from chat.models import ChatMessage
from games.models import Game
from harehra_site.asgi import application
from moderation.services import chat_message_hide
from tests.factories import seated_game
from tests.moderation.conftest import make_moderator

pytestmark = pytest.mark.django_db(transaction=True)
ORIGIN = [(b"origin", b"http://localhost")]


def _socket(path: str, token: str | None = None) -> WebsocketCommunicator:
    sep = "&" if "?" in path else "?"
    return WebsocketCommunicator(application, path + (f"{sep}token={token}" if token else ""), headers=ORIGIN)


async def _until(comm: WebsocketCommunicator, kind: str, timeout: float = 5) -> dict[str, Any]:
    while True:
        message = await comm.receive_json_from(timeout=timeout)
        for one in message if isinstance(message, list) else [message]:
            if one["type"] == kind:
                return one


async def _drain(comm: WebsocketCommunicator) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    while not await comm.receive_nothing(timeout=0.3):
        message = await comm.receive_json_from()
        out.extend(message if isinstance(message, list) else [message])
    return out


def _setup() -> tuple[Game, list[Any], list[str], str]:
    from rest_framework.test import APIClient

    users = [user_register(username=f"chat{i}", password="correct-horse-battery") for i in range(3)]
    clients = []
    for u in users[:2]:
        c = APIClient()
        c.credentials(HTTP_AUTHORIZATION=f"Token {user_token(user=u)}")
        clients.append(c)
    game = Game.objects.get(pk=seated_game(clients))
    return game, users, [user_token(user=u) for u in users], f"/ws/tables/{game.table_id}/"


def test_chat_flows_live_between_players_and_not_to_spectators(make_user: Any) -> None:
    game, _users, tokens, table_path = _setup()
    moderator = make_moderator(make_user)

    async def run() -> None:
        alice = _socket(f"/ws/games/{game.pk}/?batch=1", tokens[0])
        bob = _socket(table_path, tokens[1])  # bob is on the table page
        carol = _socket(f"/ws/games/{game.pk}/", tokens[2])  # a spectator on the game page
        for comm in (alice, bob, carol):
            assert (await comm.connect())[0]
            await comm.send_json_to({"type": "chat_join"})
        history = await _until(alice, "chat_history")
        assert history["channel"] == "players" and history["can_send"] and history["messages"] == []
        assert (await _until(bob, "chat_history"))["channel"] == "players"
        assert (await _until(carol, "chat_history"))["channel"] == "spectators"

        await alice.send_json_to({"type": "chat_send", "client_id": "a1", "text": "<b>hi</b> bob"})
        ack = await _until(alice, "chat_ack")
        assert ack["client_id"] == "a1"
        got = await _until(bob, "chat_message")
        assert got["message"]["text"] == "<b>hi</b> bob" and got["message"]["user"] == "chat0"
        assert (await _until(alice, "chat_message"))["message"]["id"] == ack["id"]

        await carol.send_json_to({"type": "chat_send", "client_id": "c1", "text": "nice game"})
        assert (await _until(carol, "chat_message"))["message"]["channel"] == "spectators"
        # The players never hear the spectators (nor the reverse).
        heard = await _drain(alice)
        assert not any(m["type"] == "chat_message" for m in heard)

        # A moderator hides alice's message: every open page of the channel drops it.
        message = await database_sync_to_async(ChatMessage.objects.get)(pk=ack["id"])
        await database_sync_to_async(chat_message_hide)(moderator=moderator, message=message, reason="rude")
        assert (await _until(bob, "chat_hidden"))["id"] == ack["id"]

        # The limit, over the socket: a clear error, not a closed socket.
        for i in range(6):
            await bob.send_json_to({"type": "chat_send", "client_id": f"b{i}", "text": f"spam {i}"})
        error = await _until(bob, "chat_error")
        assert error["code"] == "chat_rate_limited" and error["client_id"] == "b5"

        # A reload (a new socket) shows the history, without the hidden message.
        again = _socket(table_path, tokens[1])
        assert (await again.connect())[0]
        await again.send_json_to({"type": "chat_join"})
        texts = [m["text"] for m in (await _until(again, "chat_history"))["messages"]]
        assert texts == [f"spam {i}" for i in range(5)]

        # The host turns chat off: everyone's panel hears it.
        await alice.send_json_to({"type": "chat_set_enabled", "enabled": False})
        assert (await _until(bob, "chat_state"))["enabled"] is False
        await bob.send_json_to({"type": "chat_set_enabled", "enabled": True})
        assert (await _until(bob, "chat_error"))["code"] == "not_host"
        for comm in (alice, bob, carol, again):
            await comm.disconnect()

    asyncio.run(run())
