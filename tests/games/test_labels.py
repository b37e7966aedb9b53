"""A seat's name and the bot levels each have one owner, and every page and API says the same."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib import admin
from django.test import Client
from django.utils import translation

from games.forms import TableCreateForm
from games.labels import LEVEL_LABELS, seat_name
from games.models import BotLevel, Game, GameSeat, Seat
from games.selectors import seat_labels
from harehra.bots import DEFAULT_LEVEL, LEVELS, get_bot
from moderation.admin import ModeratedGameAdmin
from moderation.models import ModeratedGame
from ratings.rating import BOT_RATINGS
from replays.selectors import replay_list_rows
from tests.factories import create_table, post

pytestmark = pytest.mark.django_db


def test_a_seat_has_the_same_name_in_the_table_api_the_game_the_replay_list_and_the_pages(
    make_user: Any, client_for: Any
) -> None:
    host = make_user("Hazel")
    client = client_for(host)
    table = create_table(client, seats=3)
    add_bot = f"/api/tables/{table['id']}/add-bot/"
    assert post(client, add_bot, {"seat": 1, "level": "hard"}).status_code == 200
    listed = client.get(f"/api/tables/{table['id']}/").json()["seat_list"]
    assert [s["name"] for s in listed] == ["Hazel", "Bot 2 · hard", None]  # the third seat is empty
    assert [seat_name(s) for s in Seat.objects.filter(table_id=table["id"]).order_by("number")] == [
        "Hazel",
        "Bot 2 · hard",
        None,
    ]
    page = Client()
    page.force_login(host)
    html = page.get(f"/tables/{table['id']}/").content.decode()
    assert ">Bot 2 · hard<" in html and ">Hazel" in html
    lobby = page.get("/lobby/?fragment=1").content.decode()
    assert ">Bot 2 · hard<" in lobby and ">Hazel" in lobby

    assert post(client, add_bot, {"seat": 2, "level": "easy"}).status_code == 200
    game_id = post(client, f"/api/tables/{table['id']}/start/").json()["current_game"]
    names = ["Hazel", "Bot 2 · hard", "Bot 3 · easy"]
    assert [s["name"] for s in seat_labels(game_id)] == names
    assert [p["name"] for p in replay_list_rows([Game.objects.get(pk=game_id)])[0]["players"]] == names
    assert [seat_name(s) for s in GameSeat.objects.filter(game_id=game_id).select_related("user")] == names
    with translation.override("cs"):
        assert seat_labels(game_id)[1]["name"] == "Bot 2 · těžký"
    # The moderators' games list names the seats alike.
    listed_game = ModeratedGame.objects.prefetch_related("game_seats__user").get(pk=game_id)
    players = ModeratedGameAdmin(ModeratedGame, admin.site).player_list(listed_game)
    assert players == "0: Hazel, 1: Bot 2 · hard, 2: Bot 3 · easy"


def test_the_bot_levels_are_the_pure_games_and_everything_else_follows_them(
    make_user: Any, client_for: Any
) -> None:
    assert DEFAULT_LEVEL in LEVELS
    for level in LEVELS:
        assert get_bot(level) is not None
    assert tuple(BotLevel.values) == LEVELS
    assert set(LEVEL_LABELS) == set(LEVELS) == set(BOT_RATINGS)
    form = TableCreateForm()
    assert [value for value, _ in form.fields["away_bot_level"].choices] == list(LEVELS)
    assert form.fields["away_bot_level"].initial == DEFAULT_LEVEL
    # The host's "add a bot" choice on the table page offers the levels, the default chosen.
    host = make_user()
    page = Client()
    page.force_login(host)
    table = create_table(client_for(host), seats=2)["id"]
    html = page.get(f"/tables/{table}/").content.decode()
    select = html.split('name="level"', 1)[1].split("</select>")[0]
    options = re.findall(r'<option value="(\w+)"( selected)?>', select)
    assert options == [(level, " selected" if level == DEFAULT_LEVEL else "") for level in LEVELS]
    czech = page.get(f"/tables/{table}/", HTTP_ACCEPT_LANGUAGE="cs").content.decode()
    assert ">těžký</option>" in czech
