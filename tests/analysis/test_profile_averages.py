"""The profile's averages of the analyses: accuracy and luck against skill over the player's
analysed rated games (analysis.selectors), on the API and the page, in English and Czech."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from analysis.models import GameAnalysis
from analysis.selectors import user_analysis_averages
from analysis.services import analysis_run
from games.models import GameSeat
from ratings.models import Placing
from tests.factories import finished_game

pytestmark = pytest.mark.django_db

PLAYOUTS = 2


def _seat_figures(game_id: int, user: Any) -> tuple[float | None, dict[str, float]]:
    body = json.loads(GameAnalysis.objects.get(game_id=game_id).body)
    seat = GameSeat.objects.get(game_id=game_id, user=user).seat
    return body["accuracy"][seat], body["luck"][seat]


def test_the_profile_averages_the_analysed_rated_games_only(make_user: Any) -> None:
    alice, bob = make_user("alice"), make_user("bob")
    rated = [finished_game([alice, bob], seed=seed) for seed in (3, 5)]
    casual = finished_game([alice, bob], seed=7, rated=False)
    unanalysed = finished_game([alice, bob], seed=9)
    for game in [*rated, casual]:
        analysis_run(game.pk, playouts=PLAYOUTS)
    assert Placing.objects.filter(user=alice, rated=True).count() == 3  # two analysed, one not
    old = GameAnalysis.objects.get(game=rated[0])
    # An analysis of an older version (kept until a newer one is made) is not counted twice.
    GameAnalysis.objects.create(game=unanalysed, version=old.version - 1, playouts=1, body="{}", seconds=0)

    figures = [_seat_figures(g.pk, alice) for g in rated]
    accuracies = [a for a, _ in figures if a is not None]
    parts = ("decisions", "draws", "others")
    expected = {part: round(sum(luck[part] for _, luck in figures) / 2, 4) for part in parts}
    body = Client().get("/api/accounts/users/alice/").json()["analysis"]
    assert body["games"] == 2
    assert body["luck"] == expected
    assert body["accuracy"] == (round(sum(accuracies) / len(accuracies), 1) if accuracies else None)
    assert user_analysis_averages(alice, limit=1)["games"] == 1  # the latest only

    page = Client().get("/players/alice/").content.decode()
    assert "Averaged over 2 analysed rated games." in page
    assert 'data-stat="luck-decisions"' in page and "Draws and shuffles" in page
    czech = Client().get("/players/alice/", HTTP_ACCEPT_LANGUAGE="cs").content.decode()
    assert "Rozbor hodnocených her" in czech and "Dobírání a míchání" in czech


def test_a_player_with_no_analysed_rated_game_has_no_averages(make_user: Any) -> None:
    alice, bob = make_user("alice"), make_user("bob")
    finished_game([alice, bob], seed=3)
    assert Client().get("/api/accounts/users/alice/").json()["analysis"] == {
        "games": 0,
        "accuracy": None,
        "luck": None,
    }
    assert "No analysed rated games yet." in Client().get("/players/alice/").content.decode()
