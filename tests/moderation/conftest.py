from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group

from games.models import Game
from moderation.groups import MODERATORS
from tests.factories import seated_game

PASSWORD = "correct-horse-battery"


def make_moderator(make_user: Callable[..., Any], name: str | None = None) -> Any:
    user = make_user(name)
    user.is_staff = True
    user.save(update_fields=["is_staff"])
    user.groups.add(Group.objects.get(name=MODERATORS))
    return get_user_model().objects.get(pk=user.pk)  # fresh: no cached permissions


@pytest.fixture
def moderator(make_user: Callable[..., Any]) -> Any:
    return make_moderator(make_user)


@pytest.fixture
def two_player_game(
    make_user: Callable[..., Any], client_for: Callable[[Any], Any]
) -> tuple[Game, list[Any]]:
    users = [make_user() for _ in range(2)]
    game = Game.objects.get(pk=seated_game([client_for(u) for u in users]))
    return game, users
