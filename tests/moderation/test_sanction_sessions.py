"""A suspension or ban ends every session and every token of the user at once."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from rest_framework.test import APIClient

from accounts.models import UserSession
from accounts.services import user_token
from moderation import services
from tests.moderation.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def _browser(username: str) -> Client:
    c = Client()
    assert c.login(username=username, password=PASSWORD)
    return c


@pytest.mark.parametrize("kind", ["ban", "suspend"])
def test_a_sanction_signs_the_user_out_of_every_browser_and_client(kind, moderator, two_player_game):
    game, users = two_player_game
    target, other = users
    browsers = [_browser(target.username), _browser(target.username)]
    bystander = _browser(other.username)
    token = APIClient()
    token.credentials(HTTP_AUTHORIZATION=f"Token {user_token(user=target)}")
    for c in (*browsers, token):
        assert c.get("/api/accounts/me/").status_code == 200
    assert browsers[0].get(f"/api/games/{game.pk}/").json()["view"]["hand"]
    assert UserSession.objects.filter(user=target).count() == 2

    if kind == "ban":
        services.user_ban(moderator=moderator, user=target, reason="cheating")
    else:
        services.user_suspend(moderator=moderator, user=target, period=timedelta(days=1), reason="rude")

    for c in (*browsers, token):
        assert c.get("/api/accounts/me/").status_code in (401, 403)
    seen = browsers[0].get(f"/api/games/{game.pk}/").json()["view"]
    assert seen["seat"] is None and seen["hand"] is None  # a spectator's view at most
    assert not UserSession.objects.filter(user=target).exists()
    assert bystander.get("/api/accounts/me/").status_code == 200  # nobody else is signed out
