"""The table page's tag for the next game's shuffler says it is the next game's, also (above all)
while a game runs, when "shuffles next" read as if it were about the game being played."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from games.models import GameStatus
from tests.factories import start_table

pytestmark = pytest.mark.django_db


def _tags(html: str) -> dict[str, list[str]]:
    cards = re.findall(r'<li class="seat-card[^"]*" data-seat="(\d)">(.*?)</li>', html, re.S)
    return {seat: re.findall(r'<span class="badge">([^<]+)</span>', body) for seat, body in cards}


def test_while_a_game_runs_the_tag_says_it_marks_the_next_games_shuffler(make_user: Any) -> None:
    ann, bob = make_user(), make_user()
    game = start_table([ann, bob])
    assert game.status == GameStatus.RUNNING
    for lang, words in (("en", "shuffles the next game"), ("cs", "míchá v příští hře")):
        html = Client().get(f"/tables/{game.table_id}/", HTTP_ACCEPT_LANGUAGE=lang).content.decode()
        tags = _tags(html)
        assert sum(words in t for t in tags.values()) == 1, tags
        assert "shuffles next" not in html
