"""My games (the page and the API): every running game of the person, those awaiting their
decision first, with the time left, nothing hidden; lately finished games apart; its cost in
statements does not grow with the number of games (the endpoint's cost, docs/OPERATIONS.md); and
the limit on slow games at once, at a table's seat and a challenge's answer."""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.models import Game, Pace, Table, TableStatus
from games.selectors import my_games
from tests.factories import play_out
from tests.games.slow_tables import DAY, awaiting_user, play_until_awaits, slow_game, slow_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def ann(make_user: Any) -> Any:
    return make_user("ann")


@pytest.fixture
def ben(make_user: Any) -> Any:
    return make_user("ben")


def test_the_games_awaiting_the_person_come_first_with_the_time_left(
    ann: Any, ben: Any, client_for: Any
) -> None:
    theirs = play_until_awaits(slow_game([ben, ann]), ben)
    mine = play_until_awaits(slow_game([ann, ben], bots=1), ann)
    live = slow_game([ann, ben], seconds=30, pace=Pace.LIVE)
    done = play_out(slow_game([ann, ben]), random.Random(3))
    old = play_out(slow_game([ann, ben]), random.Random(4))
    Game.objects.filter(pk=old.pk).update(finished_at=timezone.now() - timedelta(days=30))

    body = client_for(ann).get("/api/games/mine/").json()
    games = body["games"]
    assert games[0]["game"] == mine.pk and games[0]["your_decision"] is True
    assert body["waiting"] == sum(1 for g in games if g["your_decision"])
    assert {g["game"] for g in games} == {theirs.pk, mine.pk, live.pk}
    first = games[0]
    assert first["pace"] == "slow" and first["decision_seconds"] == DAY
    assert first["awaiting"] == {
        "seat": first["seat"],
        "name": "ann",
        "kind": first["awaiting"]["kind"],
        "you": True,
    }
    assert DAY - 120 <= first["seconds_left"] <= DAY
    assert first["others"][0]["name"] == "ben" and first["others"][1]["is_bot"] is True
    other = next(g for g in games if g["game"] == theirs.pk)
    assert other["awaiting"]["name"] == "ben" and other["your_decision"] is False
    assert next(g for g in games if g["game"] == live.pk)["pace"] == "live"
    # Finished lately, apart; one finished a month ago is not listed.
    assert [g["game"] for g in body["finished"]] == [done.pk]
    assert (
        body["finished"][0]["outcome"] in ("won", "lost", "draw") and body["finished"][0]["deadline"] is None
    )
    # Nothing a spectator could not see: no hand, no pile, no legal commands.
    text = str(body)
    for hidden in ("hand", "pile", "legal", "view"):
        assert f"'{hidden}'" not in text


def test_the_page_lists_them_in_the_readers_language(ann: Any, ben: Any) -> None:
    play_until_awaits(slow_game([ann, ben]), ann)
    page = Client()
    page.force_login(ann)
    html = page.get("/games/mine/").content.decode()
    assert 'class="my-game yours"' in html and "Your decision" in html and "1 day a decision" in html
    assert 'href="/games/mine/"' in html  # the menu's link
    assert Client().get("/games/mine/").status_code == 302  # signed out: to sign in


def _statements(user: Any, url: str) -> int:
    client = Client()
    client.force_login(user)
    client.get(url)  # the session's and the person's rows warm
    with CaptureQueriesContext(connection) as q:
        assert client.get(url).status_code == 200
    return len(q.captured_queries)


def test_endpoint_cost_my_games_statements_do_not_grow_with_the_games(
    ann: Any, ben: Any, make_user: Any
) -> None:
    """Endpoint cost: the page and the API read the same number of statements for 2 games as
    for 8 (no statement per game or per seat)."""
    for _ in range(2):
        slow_game([ann, ben], bots=1)
    few = (_statements(ann, "/games/mine/"), _statements(ann, "/api/games/mine/"))
    for _ in range(6):
        slow_game([ann, make_user()], bots=2)
    play_out(slow_game([ann, ben]), random.Random(5))
    assert len(my_games(ann)["games"]) == 8
    many = (_statements(ann, "/games/mine/"), _statements(ann, "/api/games/mine/"))
    assert many == few, (few, many)
    assert few[1] <= 6  # the session, the person, three reads of games and seats


def test_a_limit_on_slow_games_at_once(ann: Any, ben: Any, client_for: Any, settings: Any) -> None:
    settings.SLOW_GAMES_MAX = 2
    slow_game([ann, ben])
    waiting = slow_table([ben, ann])
    live = slow_table([ben], seconds=30, pace=Pace.LIVE, open_seats=1)
    third = slow_table([ben], open_seats=1)
    api = client_for(ann)
    r = api.post(f"/api/tables/{third.pk}/join/", {}, format="json")
    assert (r.status_code, r.json()["code"]) == (409, "too_many_slow_games")
    assert api.post(f"/api/tables/{live.pk}/join/", {}, format="json").status_code == 200  # live: no limit
    page = Client()
    page.force_login(ann)
    r = page.post(f"/tables/{third.pk}/join/", {}, follow=True, HTTP_ACCEPT_LANGUAGE="en")
    assert "You already play 2 slow games at once" in r.content.decode()
    # A closed table no longer counts.
    Table.objects.filter(pk=waiting.pk).update(status=TableStatus.CLOSED)
    assert api.post(f"/api/tables/{third.pk}/join/", {}, format="json").status_code == 200


def test_accepting_a_slow_challenge_past_the_limit_is_refused(
    ann: Any, ben: Any, client_for: Any, settings: Any
) -> None:
    from challenges.models import Challenge, ChallengeAnswer

    settings.SLOW_GAMES_MAX = 1
    slow_game([ann, ben])
    challenge = Challenge.objects.create(
        challenger=ben,
        settings={"seats": 2, "rated": False, "pace": "slow"},
        expires_at=timezone.now() + timedelta(minutes=10),
    )
    ChallengeAnswer.objects.create(challenge=challenge, user=ann)
    r = client_for(ann).post(f"/api/challenges/{challenge.pk}/accept/")
    assert (r.status_code, r.json()["code"]) == (409, "too_many_slow_games")
    page = Client()
    page.force_login(ann)
    r = page.post(f"/challenges/{challenge.pk}/accept/", follow=True)
    assert "You already play as many slow games at once as there may be" in r.content.decode()
    assert awaiting_user(Game.objects.get(table__seat_set__user=ann)) in (ann.pk, ben.pk)
