"""The leaderboard (API and page), the profile's rating, chart and statistics, the lobby's ratings."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.test import Client

from games.eventlog import events_with_seq
from games.models import GameSeat
from games.services.tables import TableSettings, table_create
from ratings.models import Rating
from ratings.rating import display_rating
from tests.factories import play_out, start_table

pytestmark = pytest.mark.django_db


def _rate(user: Any, display: int, games: int, pool: str = "all") -> None:
    Rating.objects.create(user=user, pool=pool, mu=25.0, sigma=5.0, display=display, games=games, wins=1)


def test_the_leaderboard_lists_players_with_enough_games_best_first(make_user: Any, settings: Any) -> None:
    settings.RATINGS_LEADERBOARD_MIN_GAMES = 5
    a, b, c, d, e = (make_user(n) for n in ("ann", "bob", "cat", "dan", "eve"))
    _rate(a, 1100, 12)
    _rate(b, 1250, 5)
    _rate(c, 1300, 4)  # too few games: not listed
    _rate(d, 1100, 30)  # the same rating as ann: the same rank, more games first
    _rate(e, 1400, 9, pool="3")  # only in the 3-player pool
    body = Client().get("/api/ratings/leaderboard/").json()
    assert body["pool"] == "all" and body["min_games"] == 5
    rows = [(r["rank"], r["name"], r["rating"], r["games"], r["provisional"]) for r in body["results"]]
    assert rows == [(1, "bob", 1250, 5, True), (2, "dan", 1100, 30, False), (2, "ann", 1100, 12, False)]
    three = Client().get("/api/ratings/leaderboard/?pool=3").json()["results"]
    assert [r["name"] for r in three] == ["eve"]
    bad = Client().get("/api/ratings/leaderboard/?pool=7")
    assert bad.status_code == 400 and bad.json()["code"] == "bad_pool"
    page = Client().get("/leaderboard/").content.decode()
    assert page.index("bob") < page.index("dan") < page.index("ann") and "cat" not in page
    assert Client().get("/leaderboard/?pool=5-6").status_code == 200
    assert "/api/ratings/leaderboard/" in Client().get("/api/schema/?format=json").content.decode()


def test_the_profile_shows_rating_history_placings_and_statistics(make_user: Any) -> None:
    alice, bob = make_user("alice"), make_user("bob")
    rng = random.Random(4)
    game = play_out(start_table([alice, bob]), rng)
    body = Client().get("/api/accounts/users/alice/").json()
    stored = Rating.objects.get(user=alice, pool="all")
    assert body["rating"]["rating"] == stored.display == display_rating(stored.mu, stored.sigma)
    assert body["rating"]["games"] == 1 and body["rating"]["provisional"] is True
    assert body["ratings_by_table_size"]["2"]["games"] == 1
    assert [h["game"] for h in body["rating_history"]] == [game.pk]
    assert body["rating_history"][0]["before"] == 1000
    stats = body["statistics"]
    assert stats["games"] == 1 and stats["by_table_size"]["2"]["games"] == 1
    # The figures are the game's: counted here from its log.
    seat = GameSeat.objects.get(game=game, user=alice).seat
    events = [e for _, e in events_with_seq(game)]
    ended = events[-1]
    assert ended["type"] == "GameEnded"
    place = 1 if seat in ended["survivors"] else 2
    given = sum(e["count"] for e in events if e["type"] == "VolleyPending" and e["attacker"] == seat)
    taken = sum(e["amount"] for e in events if e["type"] == "DamageTaken" and e["seat"] == seat)
    assert (stats["cumi_given"], stats["cumi_taken"], stats["average_place"]) == (given, taken, place)
    listed = body["games"][0]
    assert listed["id"] == game.pk and listed["placing"]["place"] == place and listed["placing"]["rated"]
    assert listed["replay"] == f"/replays/{game.pk}/"
    page = Client().get("/players/alice/").content.decode()
    assert f'data-rating="{stored.display}"' in page
    assert "<svg" in page and 'class="rating-line"' in page
    assert "place " in page and "Hare Cumi given" in page


def test_a_player_without_rated_games_has_no_rating(make_user: Any) -> None:
    make_user("newbie")
    body = Client().get("/api/accounts/users/newbie/").json()
    assert body["rating"] is None and body["rating_history"] == [] and body["statistics"]["games"] == 0
    assert "No rated games yet." in Client().get("/players/newbie/").content.decode()


def test_the_lobby_shows_each_seated_players_rating(make_user: Any) -> None:
    host = make_user("hostess")
    _rate(host, 1234, 3)
    table_create(host=host, settings=TableSettings(seats=2))
    html = Client().get("/lobby/?fragment=1").content.decode()
    assert "hostess" in html and '<span class="seat-rating"' in html and "1234?" in html


def test_the_table_form_offers_rated_and_casual(make_user: Any, client_for: Any) -> None:
    host = make_user()
    casual = client_for(host).post("/api/tables/", {"seats": 2, "rated": False}, format="json").json()
    assert casual["rated"] is False and casual["chat_enabled"] is True
    rated = client_for(host).post("/api/tables/", {"seats": 2}, format="json").json()
    assert rated["rated"] is True
