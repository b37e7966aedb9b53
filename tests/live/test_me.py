"""A notification reaches the person's open pages: the person's own socket (/ws/me/, for pages
with none of their own) and the sockets of the pages that have one (a lobby here) say the unread
count as soon as the notification commits. Through Channels' communicator on the ASGI application."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from accounts.services import user_register, user_token
from harehra_site.asgi import application
from live.sockets import CLOSE_REFUSED
from relations.services import follow_create, follow_delete

pytestmark = pytest.mark.django_db(transaction=True)
HEADERS = [(b"origin", b"http://localhost")]


def _socket(path: str, token: str | None) -> WebsocketCommunicator:
    query = f"?token={token}" if token else ""
    return WebsocketCommunicator(application, f"{path}{query}", headers=HEADERS)


def test_a_follow_is_told_to_the_followed_persons_open_pages() -> None:
    asyncio.run(_follow_told())


async def _follow_told() -> None:
    emil = await database_sync_to_async(user_register)(username="emil", password="correct-horse-battery")
    dana = await database_sync_to_async(user_register)(username="dana", password="correct-horse-battery")
    token: Any = await database_sync_to_async(user_token)(user=emil)
    me, lobby = _socket("/ws/me/", token), _socket("/ws/lobby/", token)
    assert (await me.connect())[0] and (await lobby.connect())[0]
    assert await me.receive_json_from(timeout=3) == {
        "type": "notification",
        "unread": 0,
        "kind": None,
        "url": None,
    }
    assert (await lobby.receive_json_from(timeout=3))["type"] == "lobby"

    await database_sync_to_async(follow_create)(user=dana, username="emil")
    told = {"type": "notification", "unread": 1, "kind": "follower", "url": "/players/dana/"}
    assert await me.receive_json_from(timeout=3) == told
    assert await lobby.receive_json_from(timeout=3) == told
    # Following again after an unfollow is a new follower: told again.
    await database_sync_to_async(follow_delete)(user=dana, username="emil")
    await database_sync_to_async(follow_create)(user=dana, username="emil")
    assert (await me.receive_json_from(timeout=3))["unread"] == 2
    await me.disconnect()
    await lobby.disconnect()


def test_a_signed_out_page_has_no_socket_of_its_own() -> None:
    asyncio.run(_signed_out())


async def _signed_out() -> None:
    me = _socket("/ws/me/", None)
    await me.connect()
    assert await me.receive_output(timeout=3) == {"type": "websocket.close", "code": CLOSE_REFUSED}


def test_a_challenge_and_a_friend_coming_online_reach_the_open_pages() -> None:
    asyncio.run(_challenge_told())


async def _challenge_told() -> None:
    from challenges.services import challenge_create
    from games.services.tables import TableSettings
    from relations.services import block_create

    make = database_sync_to_async(user_register)
    olga, petr = (
        await make(username="olga", password="correct-horse-battery"),
        await make(username="petr", password="correct-horse-battery"),
    )
    await database_sync_to_async(follow_create)(user=olga, username="petr")
    await database_sync_to_async(follow_create)(user=petr, username="olga")
    olga_token: Any = await database_sync_to_async(user_token)(user=olga)
    petr_token: Any = await database_sync_to_async(user_token)(user=petr)
    me = _socket("/ws/me/", olga_token)
    assert (await me.connect())[0]
    assert (await me.receive_json_from(timeout=3))["type"] == "notification"
    # Petr comes online (his first socket anywhere): Olga's page hears it.
    petr_me = _socket("/ws/me/", petr_token)
    assert (await petr_me.connect())[0]
    assert (await petr_me.receive_json_from(timeout=3))["type"] == "notification"
    assert await me.receive_json_from(timeout=3) == {"type": "friend_online", "name": "petr"}
    # Petr challenges Olga: her page shows it at once, beside the bell's count.
    create = database_sync_to_async(challenge_create)
    challenge = await create(user=petr, names=["olga"], settings=TableSettings(seats=2))
    got = [await me.receive_json_from(timeout=3) for _ in range(2)]
    offer = next(m for m in got if m["type"] == "challenge")
    assert (offer["challenge"], offer["from"], offer["seats"]) == (challenge.pk, "petr", 2)
    assert any(m["type"] == "notification" and m["kind"] == "challenge" for m in got)
    # Petr blocks Olga: Petr leaves her panel at once (told as any friend leaving is).
    await database_sync_to_async(block_create)(user=petr, username="olga")
    assert await me.receive_json_from(timeout=3) == {"type": "friend_gone", "name": "petr"}
    await me.disconnect()
    await petr_me.disconnect()
