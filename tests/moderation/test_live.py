"""Live effects through the full ASGI application: a ban closes sockets, an abort reaches everyone."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from accounts.services import user_token
from games.models import Game, GameSeat, GameStatus
from live.sockets import CLOSE_SANCTIONED
from moderation import services
from tests.support.sockets import game_socket, session_of

pytestmark = pytest.mark.django_db(transaction=True)


async def _until(comm: WebsocketCommunicator, kind: str, timeout: float = 5) -> dict[str, Any]:
    while True:
        message = await comm.receive_json_from(timeout=timeout)
        if message["type"] == kind:
            return message


async def _event(comm: WebsocketCommunicator, etype: str, timeout: float = 5) -> dict[str, Any]:
    while True:
        message = await _until(comm, "event", timeout)
        if message["event"]["type"] == etype:
            return message


async def _closed(comm: WebsocketCommunicator, timeout: float = 5) -> int:
    while True:
        output = await comm.receive_output(timeout=timeout)
        if output["type"] == "websocket.close":
            return output["code"]


def test_a_ban_closes_the_users_sockets_and_a_bot_takes_their_seat(moderator, two_player_game):
    game, users = two_player_game
    banned, other = users
    seat = GameSeat.objects.get(game=game, user=banned).seat
    token, session = user_token(user=banned), session_of(banned)
    other_token = user_token(user=other)

    async def run() -> None:
        by_token, by_session = game_socket(game.pk, token=token), game_socket(game.pk, session=session)
        watcher = game_socket(game.pk, token=other_token)
        for comm in (by_token, by_session, watcher):
            assert (await comm.connect())[0]
            await _until(comm, "state")
        await database_sync_to_async(services.user_ban)(moderator=moderator, user=banned, reason="abuse")
        # Each socket says why, then closes with the sanction's own code (the page stops there).
        for comm in (by_token, by_session):
            said = await _until(comm, "sanctioned")
            assert said == {"type": "sanctioned", "kind": "ban", "until": None, "reason": "abuse"}
            assert await _closed(comm) == CLOSE_SANCTIONED
        taken = await _event(watcher, "SeatTakenByBot")
        assert taken["event"] == {"type": "SeatTakenByBot", "version": 1, "seat": seat, "reason": "banned"}
        presence = await _until(watcher, "presence")
        assert any(s["seat"] == seat for s in presence["seats"])
        # Coming back with the old session is coming back signed out: the ban ended the session,
        # so the socket is a spectator's at this public game (and a token is refused outright).
        again = game_socket(game.pk, session=session)
        assert (await again.connect())[0]
        assert (await _until(again, "state"))["view"]["hand"] is None
        await again.disconnect()
        by_old_token = game_socket(game.pk, token=token)
        connected, _ = await by_old_token.connect()
        if connected:
            assert (await _until(by_old_token, "state"))["view"]["hand"] is None
            await by_old_token.disconnect()
        await watcher.disconnect()

    asyncio.run(run())
    assert GameSeat.objects.get(game=game, seat=seat).bot_playing is True


def test_an_abort_reaches_every_client_live(moderator, two_player_game):
    game, users = two_player_game
    tokens = [user_token(user=u) for u in users]

    async def run() -> None:
        # The players and a spectator.
        comms = [game_socket(game.pk, token=t) for t in tokens] + [game_socket(game.pk)]
        for comm in comms:
            assert (await comm.connect())[0]
            await _until(comm, "state")
        seq = await database_sync_to_async(services.game_abort)(
            moderator=moderator, game=game, reason="a bug ate the deck"
        )
        for comm in comms:
            got = await _event(comm, "GameAborted")
            assert got["seq"] == seq
            assert got["event"] == {"type": "GameAborted", "version": 1}
        # A client that reconnects gets a state that says the game is over, with no winner.
        late = game_socket(game.pk, token=tokens[0])
        await late.connect()
        state = await _until(late, "state")
        assert state["seq"] == seq and state["view"]["over"] is True
        for comm in [*comms, late]:
            await comm.disconnect()

    asyncio.run(run())
    game = Game.objects.get(pk=game.pk)
    assert game.status == GameStatus.ABORTED and game.winner_seat is None
