"""A game has one number people can say aloud and find again: the one in its address."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from tests.factories import play_out, start_table


@pytest.mark.django_db
def test_a_games_pages_name_it_by_the_number_in_its_address(make_user: Callable[..., Any]) -> None:
    start_table([make_user(), make_user()], rated=False)  # another table's game takes the first id
    players = [make_user(), make_user()]
    game = start_table(players, rated=False)
    assert game.pk != game.number  # the table's first game, the site's second
    client = Client()
    client.force_login(players[0])
    said = f"Game {game.pk} at table {game.table_id}"
    assert said in client.get(f"/games/{game.pk}/").content.decode()
    assert f"Game {game.pk} is being played." in client.get(f"/tables/{game.table_id}/").content.decode()
    play_out(game, random.Random(1))
    assert said in client.get(f"/players/{players[0].username}/").content.decode()
    assert f"game {game.pk} at table {game.table_id}" in client.get(f"/replays/{game.pk}/").content.decode()
    assert f"Game {game.pk}, table {game.table_id}" in client.get("/replays/").content.decode()
