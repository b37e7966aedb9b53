"""One time for a game on the profile and the replay list: when it ended (its result known), said
as such; a running game on the profile shows when it started, said as such."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from django.test import Client

from games.models import Game
from tests.factories import finished_game, start_table

pytestmark = pytest.mark.django_db

STARTED = datetime(2026, 3, 4, 10, 15, tzinfo=UTC)
ENDED = datetime(2026, 3, 4, 11, 42, tzinfo=UTC)


def test_the_profile_and_the_replay_list_show_when_a_game_ended(make_user: Any) -> None:
    ann, bob = make_user(), make_user()
    game = finished_game([ann, bob])
    Game.objects.filter(pk=game.pk).update(created_at=STARTED, finished_at=ENDED)

    profile = Client().get(f"/players/{ann.username}/").content.decode()
    # In UTC, said so, until the page script shows it in the reader's zone (tests/plumbing/test_times.py).
    assert (
        'ended <time datetime="2026-03-04T11:42:00Z" data-when="datetime">2026-03-04 11:42 UTC</time>'
        in profile
    )
    assert "2026-03-04 10:15" not in profile  # not its start
    replays = Client().get("/replays/").content.decode()
    assert '<time datetime="2026-03-04T11:42:00Z" data-when="datetime">2026-03-04 11:42 UTC</time>' in replays

    czech = Client().get(f"/players/{ann.username}/", HTTP_ACCEPT_LANGUAGE="cs").content.decode()
    assert (
        'skončila <time datetime="2026-03-04T11:42:00Z" data-when="datetime">2026-03-04 11:42 UTC</time>'
        in czech
    )


def test_a_running_game_on_the_profile_says_it_is_its_start(make_user: Any) -> None:
    ann, bob = make_user(), make_user()
    game = start_table([ann, bob])
    Game.objects.filter(pk=game.pk).update(created_at=STARTED)
    profile = Client().get(f"/players/{ann.username}/").content.decode()
    assert (
        'started <time datetime="2026-03-04T10:15:00Z" data-when="datetime">2026-03-04 10:15 UTC</time>'
        in profile
    )
