"""Socket sign-in (live/ws_auth.py, accounts/signin.py): a browser's session cookie or a
program's token, read in one statement each; every case but the usual one is Django's own."""

from __future__ import annotations

import asyncio
import json
from datetime import timedelta
from typing import Any

import pytest
from channels.testing import WebsocketCommunicator
from django.utils import timezone

from accounts.models import Sanction, SanctionKind, UserSession
from accounts.services import user_token
from games.models import Game, GameSeat
from tests.factories import seated_game
from tests.moderation.conftest import make_moderator
from tests.support.sockets import game_socket, session_of

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("end_lingering_connections")]


async def _first(comm: WebsocketCommunicator) -> dict[str, Any]:
    """The socket's first message; a refused socket is accepted, then closed: {"closed": code}."""
    assert (await comm.connect())[0]
    out = await comm.receive_output(timeout=5)
    await comm.disconnect()
    if out["type"] == "websocket.close":
        return {"closed": out["code"]}
    return dict(json.loads(out["text"]))


def _first_of(game_id: int, **credentials: str) -> dict[str, Any]:
    return asyncio.run(_first(game_socket(game_id, **credentials)))


@pytest.fixture
def player(make_user: Any, client_for: Any) -> tuple[Game, Any]:
    users = [make_user() for _ in range(2)]
    return Game.objects.get(pk=seated_game([client_for(u) for u in users])), users[0]


def test_a_signed_in_session_and_a_token_each_open_their_seat(player):
    game, user = player
    seat = GameSeat.objects.get(game=game, user=user).seat
    for credentials in ({"session": session_of(user)}, {"token": user_token(user=user)}):
        state = _first_of(game.pk, **credentials)
        assert state["type"] == "state" and state["view"]["seat"] == seat, credentials
        assert state["view"]["hand"] is not None


def test_a_session_whose_password_changed_signs_in_no_one_and_is_ended(player):
    """Changing the password ends the account's other sessions (Django's session hash): the socket
    is a spectator's and the session is flushed, as Django's own sign-in check does."""
    game, user = player
    session = session_of(user)
    user.set_password("a-new-horse-battery")
    user.save()
    state = _first_of(game.pk, session=session)
    assert state["type"] == "state" and state["view"]["hand"] is None and state["legal"] == []
    assert not UserSession.objects.filter(session_key=session).exists()


def test_an_expired_or_unknown_session_and_an_inactive_account_sign_in_no_one(player):
    game, user = player
    expired = session_of(user)
    UserSession.objects.filter(session_key=expired).update(expire_date=timezone.now() - timedelta(seconds=1))
    inactive = session_of(user)
    for session in (expired, "no-such-session-key"):
        state = _first_of(game.pk, session=session)
        assert state["type"] == "state" and state["view"]["hand"] is None, session
    type(user).objects.filter(pk=user.pk).update(is_active=False)
    state = _first_of(game.pk, session=inactive)
    assert state["type"] == "state" and state["view"]["hand"] is None


def test_a_suspended_or_banned_player_is_refused_by_session_and_by_token(player, make_user):
    """A sanction placed while the player's session and token live on (written straight to the
    table: the moderation service would end them too) still refuses the socket."""
    game, user = player
    moderator = make_moderator(make_user)
    session, token = session_of(user), user_token(user=user)
    Sanction.objects.create(
        user=user,
        kind=SanctionKind.SUSPEND,
        until=timezone.now() + timedelta(hours=1),
        reason="test",
        created_by=moderator,
    )
    assert _first_of(game.pk, session=session) == {"closed": 4403}
    assert _first_of(game.pk, token=token) == {"closed": 4403}
    Sanction.objects.update(lifted_at=timezone.now(), lifted_by=moderator)
    assert _first_of(game.pk, token=token)["type"] == "state"
    Sanction.objects.create(user=user, kind=SanctionKind.BAN, reason="test", created_by=moderator)
    assert _first_of(game.pk, session=session) == {"closed": 4403}
