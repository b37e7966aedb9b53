"""A game's end screen's rating changes: pushed to the game's sockets when a rated game ends, and
on the game page after a reload, the same figures the ratings recorded; never an error while
they are not there yet."""

from __future__ import annotations

import asyncio
import json
import random
import re
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.test import Client

from accounts.services import user_token
from games.models import Game
from games.services.moves import game_command_submit
from ratings.models import RatingChange
from tests.factories import play_out, seat_1_to_the_brink, start_table
from tests.live.test_game import _connect, _until

pytestmark = pytest.mark.django_db(transaction=True)


def _page_config(user: Any, game_id: int) -> dict[str, Any]:
    client = Client()
    client.force_login(user)
    r = client.get(f"/games/{game_id}/")
    assert r.status_code == 200
    found = re.search(
        r'<script id="game-config" type="application/json">(.*?)</script>', r.content.decode(), re.S
    )
    assert found is not None
    return json.loads(found.group(1))


def _recorded(game_id: int) -> dict[str, Any]:
    seats = {s.user_id: s.seat for s in Game.objects.get(pk=game_id).game_seats.all()}
    rows = RatingChange.objects.filter(rated_game__game_id=game_id, pool="all")
    changes = sorted(
        ({"seat": seats[c.user_id], "before": c.display_before, "after": c.display_after} for c in rows),
        key=lambda c: c["seat"],
    )
    return {"state": "rated", "changes": changes}


def test_a_rated_games_end_pushes_each_persons_rating_before_and_after_and_the_page_shows_them(make_user):
    people = [make_user(), make_user(), make_user()]
    game = start_table(people, turn_timer=600, reaction_timer=600, discard_timer=600)
    seat_1_to_the_brink(game.pk)
    assert _page_config(people[0], game.pk)["ratings"] == {"state": "pending", "changes": []}

    async def run() -> dict[str, Any]:
        watcher = _connect(game.pk, await database_sync_to_async(user_token)(user=people[0]))
        assert (await watcher.connect())[0]
        await _until(watcher, "state")
        # Seat 1 takes the volley that puts it out: seat 0 wins.
        await database_sync_to_async(game_command_submit)(
            game=await database_sync_to_async(Game.objects.get)(pk=game.pk),
            user=people[1],
            command={"react": "none"},
            client_cmd_id="last",
        )
        told = await _until(watcher, "ratings")
        await watcher.disconnect()
        return told

    told = asyncio.run(run())
    recorded = _recorded(game.pk)
    assert len(recorded["changes"]) == 3
    assert {"state": told["state"], "changes": told["changes"]} == recorded
    assert _page_config(people[2], game.pk)["ratings"] == recorded  # after a reload


def test_a_casual_games_page_has_no_rating_changes(make_user):
    people = [make_user(), make_user()]
    game = start_table(people, rated=False)
    assert _page_config(people[0], game.pk)["ratings"] == {"state": "unrated", "changes": []}
    play_out(game, random.Random(3))
    assert _page_config(people[0], game.pk)["ratings"] == {"state": "unrated", "changes": []}
