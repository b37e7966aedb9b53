"""The lobby and table sockets through Channels' communicator, on the full ASGI application."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model

import games.publish as publish
from accounts.publish import publish_user_signed_out
from accounts.services import user_token
from games.models import Game, Visibility
from games.services.tables import (
    TableSettings,
    table_add_bot,
    table_create,
    table_join,
    table_leave,
    table_remove_bot,
    table_start,
)
from harehra_site.asgi import application
from tests.factories import play_to_end, seated_game

pytestmark = pytest.mark.django_db(transaction=True)
HEADERS = [(b"origin", b"http://localhost")]
PRIVATE = TableSettings(seats=2, visibility=Visibility.PRIVATE)


def call(func: Any) -> Any:
    """A service call from the test's loop, in a thread as a server makes it (its commit hooks
    publish through the running loop)."""
    return database_sync_to_async(func)


def _lobby(query: str = "") -> WebsocketCommunicator:
    return WebsocketCommunicator(application, f"/ws/lobby/{query}", headers=HEADERS)


def _table(table_id: int, query: str = "") -> WebsocketCommunicator:
    return WebsocketCommunicator(application, f"/ws/tables/{table_id}/{query}", headers=HEADERS)


async def _opened(comm: WebsocketCommunicator, kind: str) -> dict[str, Any]:
    connected, _ = await comm.connect()
    assert connected
    first = await comm.receive_json_from(timeout=3)
    assert first["type"] == kind, first
    return first


async def _row(comm: WebsocketCommunicator, table_id: int) -> str | None:
    message = await comm.receive_json_from(timeout=3)
    assert message["type"] == "table" and message["table"] == table_id, message
    return message["html"]


async def _refused(comm: WebsocketCommunicator) -> None:
    await comm.connect()
    out = await comm.receive_output(timeout=3)
    assert out == {"type": "websocket.close", "code": 4403}, out


def test_a_lobby_socket_gets_the_list_then_each_change_of_a_public_table(make_user: Any) -> None:
    host, guest = make_user(), make_user()
    earlier = table_create(host=host, settings=TableSettings(seats=2))

    async def run() -> None:
        lobby = _lobby()  # anonymous
        first = await _opened(lobby, "lobby")
        assert f'data-table="{earlier.pk}"' in first["html"] and host.username in first["html"]

        table = await call(table_create)(host=guest, settings=TableSettings(seats=3))
        row = await _row(lobby, table.pk)
        assert row is not None and row.startswith(f'<li class="table-item" data-table="{table.pk}">')
        assert guest.username in row and row.count("empty seat") == 2
        await call(table_join)(table=table, user=host)
        row = await _row(lobby, table.pk)
        assert row is not None and host.username in row and row.count("empty seat") == 1
        await call(table_add_bot)(table=table, user=guest)
        assert "Bot 3" in (await _row(lobby, table.pk) or "")
        await call(table_remove_bot)(table=table, user=guest, seat=2)
        assert "Bot 3" not in (await _row(lobby, table.pk) or "x Bot 3")
        await call(table_add_bot)(table=table, user=guest)
        await _row(lobby, table.pk)
        game = await call(table_start)(table=table, user=guest)
        row = await _row(lobby, table.pk)
        assert row is not None and f'href="/watch/{game.pk}/"' in row and "Game in progress" in row

        # The last person leaves a table between games: it closes and leaves the lobby.
        await call(table_leave)(table=earlier, user=host)
        assert await _row(lobby, earlier.pk) is None
        assert await lobby.receive_nothing(timeout=0.3)
        await lobby.disconnect()

    asyncio.run(run())


def test_each_lobby_socket_gets_its_pages_language_in_the_list_and_in_every_change(make_user: Any) -> None:
    """The lobby page names its language in its socket's address: a Czech lobby's rows stay
    Czech through every change, whoever made it, and an English one's English; a language the site
    has not (or none) gets the site's."""
    host, guest = make_user(), make_user()
    earlier = table_create(host=host, settings=TableSettings(seats=2))
    english_words = ("hosted by", " players", "empty seat", "turn ", "Game in progress", "Waiting for")

    async def run() -> None:
        czech, english, unknown = _lobby("?lang=cs"), _lobby("?lang=en"), _lobby("?lang=xx")
        listed = [(await _opened(lobby, "lobby"))["html"] for lobby in (czech, english, unknown)]
        assert f"Stůl {earlier.pk} · hostitel {host.username}" in listed[0]
        assert not [w for w in english_words if w in listed[0]], listed[0]
        assert f"Table {earlier.pk} · hosted by {host.username}" in listed[1] and listed[2] == listed[1]

        table = await call(table_create)(host=guest, settings=TableSettings(seats=3))
        await call(table_join)(table=table, user=host)
        await call(table_add_bot)(table=table, user=guest)
        game = await call(table_start)(table=table, user=guest)
        for _ in range(4):  # created, joined, a bot, started
            cs, en, xx = [await _row(lobby, table.pk) or "" for lobby in (czech, english, unknown)]
            assert not [w for w in english_words if w in cs], cs
            assert f"Stůl {table.pk} · hostitel {guest.username}" in cs
            assert f"Table {table.pk} · hosted by {guest.username}" in en and xx == en
        assert "Hra probíhá" in cs and "Bot 3 · běžný" in cs and f'href="/watch/{game.pk}/"' in cs
        assert "Game in progress" in en and "Bot 3 · normal" in en
        for lobby in (czech, english, unknown):
            await lobby.disconnect()

    asyncio.run(run())


def test_a_change_is_rendered_once_however_many_lobbies_watch(
    make_user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    host = make_user()
    rendered: list[int] = []
    real = publish.lobby_change

    def counted(table_id: int) -> Any:
        rendered.append(table_id)
        return real(table_id)

    monkeypatch.setattr(publish, "lobby_change", counted)

    async def run() -> None:
        lobbies = [_lobby() for _ in range(5)]
        for lobby in lobbies:
            await _opened(lobby, "lobby")
        table = await call(table_create)(host=host, settings=TableSettings(seats=2))
        rows = [await _row(lobby, table.pk) for lobby in lobbies]
        assert len(set(rows)) == 1 and rows[0] is not None
        assert rendered == [table.pk]
        for lobby in lobbies:
            await lobby.disconnect()

    asyncio.run(run())


def _by_seat(game_id: int, clients: list[Any], users: list[Any]) -> dict[int, Any]:
    seats = dict(Game.objects.get(pk=game_id).game_seats.values_list("user_id", "seat"))
    return {seats[u.pk]: c for u, c in zip(users, clients, strict=True)}


def test_a_game_ending_reaches_the_lobby(make_user: Any, client_for: Any) -> None:
    users = [make_user(), make_user()]
    clients = [client_for(u) for u in users]
    game_id = seated_game(clients)
    table = Game.objects.get(pk=game_id).table
    by_seat = _by_seat(game_id, clients, users)

    async def run() -> None:
        lobby = _lobby()
        first = await _opened(lobby, "lobby")
        assert f'href="/watch/{game_id}/"' in first["html"]
        await call(play_to_end)(by_seat, game_id)  # moves reach the game's sockets, not the lobby
        row = await _row(lobby, table.pk)
        assert row is not None and "Between games" in row and "/watch/" not in row
        for user in users:
            await call(table_leave)(table=table, user=user)
        assert await _row(lobby, table.pk) is not None  # the host leaves: the other one hosts
        assert await _row(lobby, table.pk) is None  # the last person leaves: closed
        assert await lobby.receive_nothing(timeout=0.3)
        await lobby.disconnect()

    asyncio.run(run())


def test_a_private_table_never_reaches_the_lobby(make_user: Any, client_for: Any) -> None:
    host, guest, other = make_user(), make_user(), make_user()
    hidden_before = table_create(host=host, settings=PRIVATE)
    clients = [client_for(host), client_for(guest)]

    async def run() -> None:
        lobby = _lobby()
        first = await _opened(lobby, "lobby")
        assert f'data-table="{hidden_before.pk}"' not in first["html"]
        assert "No open tables" in first["html"]
        table = await call(table_create)(host=other, settings=TableSettings(seats=3, visibility="private"))
        await call(table_join)(table=table, user=guest, invite_code=table.invite_code)
        await call(table_add_bot)(table=table, user=other)
        await call(table_start)(table=table, user=other)
        # Created, sat at, started, played to the end, left and closed: a private game's whole life.
        game_id = await call(seated_game)(clients, visibility="private")
        await call(play_to_end)(await call(_by_seat)(game_id, clients, [host, guest]), game_id)
        played = await call(lambda: Game.objects.get(pk=game_id).table)()
        for user in (host, guest):
            await call(table_leave)(table=played, user=user)
        # Not its row, not even its id with no row: nothing at all.
        assert await lobby.receive_nothing(timeout=0.5)
        await lobby.disconnect()

    asyncio.run(run())


def test_hostile_names_are_escaped_in_pushed_rows(make_user: Any) -> None:
    # The sign-up form refuses such names; one made some other way (the admin, an old import)
    # must still arrive as text.
    hostile = '<img src=x onerror="alert(1)">&amp;'
    host = get_user_model().objects.create_user(username=hostile, password="correct-horse-battery")
    guest = get_user_model().objects.create_user(username="<script>alert(2)</script>", password="x")

    async def run() -> None:
        lobby = _lobby()
        await _opened(lobby, "lobby")
        table = await call(table_create)(host=host, settings=TableSettings(seats=2))
        await _row(lobby, table.pk)
        await call(table_join)(table=table, user=guest)
        row = await _row(lobby, table.pk) or ""
        assert "<img" not in row and "<script" not in row
        assert "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&amp;amp;" in row
        assert "&lt;script&gt;alert(2)&lt;/script&gt;" in row
        await lobby.disconnect()
        again = _lobby()
        whole = (await _opened(again, "lobby"))["html"]
        assert "<img" not in whole and "<script" not in whole and "&lt;script&gt;" in whole
        await again.disconnect()

    asyncio.run(run())


def test_the_table_socket_follows_who_may_view_the_table(make_user: Any) -> None:
    host, guest, stranger = make_user(), make_user(), make_user()
    private = table_create(host=host, settings=PRIVATE)
    table_join(table=private, user=guest, invite_code=private.invite_code)
    public = table_create(host=host, settings=TableSettings(seats=2))
    strangers, guests = user_token(user=stranger), user_token(user=guest)

    async def run() -> None:
        await _refused(_table(private.pk))  # anonymous, no invite
        await _refused(_table(private.pk, f"?token={strangers}"))
        await _refused(_table(private.pk, "?invite=wrong"))
        await _refused(_table(999999))
        for query in (f"?invite={private.invite_code}", f"?token={guests}"):
            comm = _table(private.pk, query)
            assert (await _opened(comm, "changed"))["table"] == private.pk
            await comm.disconnect()
        anyone = _table(public.pk)
        await _opened(anyone, "changed")
        await anyone.disconnect()

    asyncio.run(run())


def test_the_table_socket_tells_each_change_and_survives_bad_messages(make_user: Any) -> None:
    host, guest = make_user(), make_user()
    table = table_create(host=host, settings=TableSettings(seats=2))
    other = table_create(host=guest, settings=TableSettings(seats=2))
    token = user_token(user=host)

    async def run() -> None:
        comm = _table(table.pk, f"?token={token}")
        await _opened(comm, "changed")  # a (re)connecting page syncs once
        await call(table_join)(table=table, user=guest)
        assert await comm.receive_json_from(timeout=3) == {"type": "changed", "table": table.pk}
        await call(table_add_bot)(table=other, user=guest)  # another table: not this socket's
        assert await comm.receive_nothing(timeout=0.3)
        for bad in ("{not json", '"a string"', '{"type": "fly"}', "[]"):
            await comm.send_to(text_data=bad)
            error = await comm.receive_json_from(timeout=3)
            assert error["type"] == "error" and error["code"] == "bad_message"
        await comm.send_json_to({"type": "ping"})
        assert await comm.receive_json_from(timeout=3) == {"type": "pong"}
        await call(table_start)(table=table, user=host)
        assert (await comm.receive_json_from(timeout=3))["type"] == "changed"
        await comm.disconnect()

    asyncio.run(run())


def test_the_lobby_socket_survives_bad_messages() -> None:
    async def run() -> None:
        lobby = _lobby()
        await _opened(lobby, "lobby")
        for bad in ("{not json", '{"type": "table"}', "null"):
            await lobby.send_to(text_data=bad)
            error = await lobby.receive_json_from(timeout=3)
            assert error["type"] == "error" and error["code"] == "bad_message"
        await lobby.send_json_to({"type": "ping"})
        assert await lobby.receive_json_from(timeout=3) == {"type": "pong"}
        await lobby.disconnect()

    asyncio.run(run())


def test_signing_out_closes_the_table_socket(make_user: Any) -> None:
    host = make_user()
    table = table_create(host=host, settings=TableSettings(seats=2))
    token = user_token(user=host)

    async def run() -> None:
        comm = _table(table.pk, f"?token={token}")
        await _opened(comm, "changed")
        await call(publish_user_signed_out)(host.pk)
        assert await comm.receive_output(timeout=3) == {"type": "websocket.close", "code": 4403}

    asyncio.run(run())


def test_lobby_sockets_opening_together_share_the_list_read_after_they_joined(monkeypatch: Any) -> None:
    """A burst of lobby sockets (a restarted server's pages) shares a few reads of the list; a
    socket that joined after a read began never takes that read (a change between the read and
    its joining would be lost), it gets a read of its own."""
    import threading

    import live.lobby as lobby_consumers

    gate = threading.Event()
    reads: list[int] = []

    def counted_list(language: str | None = None) -> str:
        reads.append(len(reads) + 1)
        number = len(reads)
        gate.wait(5)
        return f"<ul>read {number}</ul>"

    monkeypatch.setattr(lobby_consumers, "lobby_html", counted_list)
    monkeypatch.setattr(lobby_consumers, "_lobby_reads", {})

    async def first_message(comm: WebsocketCommunicator) -> str:
        return (await _opened(comm, "lobby"))["html"]

    async def until(reached: int) -> None:
        for _ in range(500):
            if len(reads) >= reached:
                return
            await asyncio.sleep(0.01)
        raise AssertionError(f"{len(reads)} reads, waited for {reached}")

    async def run() -> tuple[str, str, list[str]]:
        early = asyncio.ensure_future(first_message(_lobby()))
        await until(1)  # its read has begun, and waits at the gate
        late = asyncio.ensure_future(first_message(_lobby()))  # joins after that read began
        await asyncio.sleep(0.3)
        assert len(reads) == 1  # one read at a time: the late socket waits for the next
        gate.set()
        early_html, late_html = await early, await late
        gate.clear()
        burst = [asyncio.ensure_future(first_message(_lobby())) for _ in range(10)]
        await until(3)
        await asyncio.sleep(0.3)  # the burst's sockets join meanwhile
        gate.set()
        return early_html, late_html, list(await asyncio.gather(*burst))

    early_html, late_html, burst = asyncio.run(run())
    assert (early_html, late_html) == ("<ul>read 1</ul>", "<ul>read 2</ul>")
    assert all(html.startswith("<ul>read ") for html in burst)
    assert len(reads) <= 4, reads  # the burst shared two reads: the one under way, and the next
