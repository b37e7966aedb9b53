"""One rule per resource: a table's game list shows exactly the games its viewer may open, and
a running game is watched over the replay API and /watch/ by exactly those the live socket lets in."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.test import Client
from rest_framework.test import APIClient

from games.access import access_game_view
from games.models import Game, GameStatus, Table, TableStatus
from games.services.tables import TableSettings, table_create, table_join, table_next_game, table_start
from plumbing.errors import ServiceError
from tests.moderation.conftest import make_moderator

pytestmark = pytest.mark.django_db


def _series(users: list[Any], **settings: Any) -> list[Game]:
    """A finished game and a running one at one table."""
    table = table_create(host=users[0], settings=TableSettings(seats=2, **settings))
    table_join(table=table, user=users[1], invite_code=table.invite_code)
    first = table_start(table=table, user=users[0])
    Game.objects.filter(pk=first.pk).update(status=GameStatus.FINISHED, result="win", winner_seat=1)
    Table.objects.filter(pk=table.pk).update(status=TableStatus.BETWEEN)
    second = table_next_game(table=table, user=users[0])
    return [Game.objects.get(pk=first.pk), Game.objects.get(pk=second.pk)]


def _client(user: Any) -> APIClient:
    c = APIClient()
    if user is not None:
        c.force_authenticate(user)
    return c


def _may_view(game: Game, user: Any) -> bool:
    try:
        access_game_view(game, user or AnonymousUser())
    except ServiceError:
        return False
    return True


@pytest.mark.parametrize(
    "settings",
    [
        {"replay_access": "public"},
        {"replay_access": "players"},
        {"replay_access": "link"},
        {"replay_access": "public", "hidden": True},
        {"visibility": "private", "replay_access": "public"},
    ],
    ids=["public", "players", "link", "hidden", "private"],
)
def test_the_game_list_and_the_replay_api_follow_the_one_rule(settings, make_user: Callable[..., Any]):
    hidden = settings.pop("hidden", False)
    users = [make_user(), make_user()]
    games = _series(users, **settings)
    if hidden:
        Game.objects.filter(pk__in=[g.pk for g in games]).update(replay_hidden=True)
        games = [Game.objects.get(pk=g.pk) for g in games]
    table_id = games[0].table_id
    invite = games[0].table.invite_code
    actors = {
        "anonymous": None,
        "stranger": make_user(),
        "player": users[1],
        "moderator": make_moderator(make_user),
    }
    for name, user in actors.items():
        r = _client(user).get(f"/api/tables/{table_id}/games/?invite={invite}")
        assert r.status_code == 200
        listed = {g["id"] for g in r.json()}
        expected = {g.pk for g in games if _may_view(g, user) or _may_view_with_invite(g, user, invite)}
        assert listed == expected, (name, listed, expected)
        for g in games:
            replay = _client(user).get(f"/api/replays/{g.pk}/").status_code
            socket_rule = _may_view(g, user)
            if g.status == GameStatus.RUNNING:
                assert (replay == 200) == socket_rule, (name, g.status, replay)
    if not hidden and settings.get("replay_access") != "public":
        anonymous = {
            g["id"] for g in _client(None).get(f"/api/tables/{table_id}/games/?invite={invite}").json()
        }
        assert games[0].pk not in anonymous  # a players-only result is not shown to visitors


def _may_view_with_invite(game: Game, user: Any, invite: str) -> bool:
    """The invite opens a private table's page, not its games beyond what the rule gives anyone."""
    if game.table.visibility != "private":
        return False
    shown = not game.replay_hidden and (
        game.status == GameStatus.RUNNING or game.table.replay_access == "public"
    )
    return shown


def test_a_moderator_cannot_watch_a_private_running_game_they_have_no_seat_in(make_user: Callable[..., Any]):
    users = [make_user(), make_user()]
    running = _series(users, visibility="private", replay_access="public")[1]
    moderator = make_moderator(make_user)
    c = Client()
    c.force_login(moderator)
    assert c.get(f"/watch/{running.pk}/").status_code == 404
    assert c.get(f"/api/replays/{running.pk}/").status_code == 404
    assert c.get(f"/api/replays/{running.pk}/frames/").status_code == 404
    assert not _may_view(running, moderator)  # as the live socket answers
