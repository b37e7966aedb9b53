"""The tournaments REST API through Django's test client on PostgreSQL: lists, detail with
standings, entry, withdrawal, pause, staff creation, and JSON errors with stable codes."""

from __future__ import annotations

import itertools
import random
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from tests.tournaments.test_services import event, play_open_tables
from tournaments.models import Entry, EventTable, Status, Tournament
from tournaments.services import tournament_join, tournament_seat_round, tournament_start

pytestmark = pytest.mark.django_db


def test_the_list_sorts_events_by_state_and_counts_entrants(staff: Any, make_user: Any) -> None:
    upcoming = event(staff, name="Soon")
    running = event(staff, name="Now", format="arena", table_size=2, min_table_size=2)
    for _ in range(2):
        tournament_join(tournament=running, user=make_user())
    tournament_start(tournament=running, user=staff)
    done = event(staff, name="Done")
    Tournament.objects.filter(pk=done.pk).update(status=Status.FINISHED, finished_at=timezone.now())
    off = event(staff, name="Off")
    Tournament.objects.filter(pk=off.pk).update(status=Status.CANCELLED, finished_at=timezone.now())
    body = APIClient().get("/api/tournaments/").json()
    assert [t["id"] for t in body["upcoming"]] == [upcoming.pk]
    assert [t["id"] for t in body["running"]] == [running.pk]
    assert [(t["id"], t["status"]) for t in body["finished"]] == [
        (off.pk, "cancelled"),
        (done.pk, "finished"),
    ]
    now = body["running"][0]
    assert now["entrants"] == 2 and now["format"] == "arena" and now["rounds"] is None
    assert now["ends_at"] is not None and now["entry_open"] is True
    assert now["url"] == f"/tournaments/{running.pk}/"
    soon = body["upcoming"][0]
    assert soon["rounds"] == 5 and soon["ends_at"] is None and soon["entrants"] == 0


def test_join_withdraw_and_pause_answer_the_event_or_a_coded_error(
    staff: Any,
    make_user: Any,
    client_for: Any,
) -> None:
    t = event(staff, name="Swiss")
    url = f"/api/tournaments/{t.pk}/"
    r = APIClient().post(url + "join/")
    assert r.status_code == 401 and r.json()["code"] == "not_authenticated"
    ana = client_for(make_user("ana"))
    r = ana.post(url + "join/")
    assert r.status_code == 200 and r.json()["me"]["entered"] is True
    assert [row["player"] for row in r.json()["standings"]] == ["ana"]
    r = ana.post(url + "join/")
    assert r.status_code == 409
    assert r.json() == {"code": "already_entered", "detail": "you are in this tournament"}
    r = ana.post(url + "pause/")
    assert r.status_code == 409 and r.json()["code"] == "not_arena"
    r = ana.post(url + "withdraw/")  # before the start: the entry is taken back
    assert r.status_code == 200 and r.json()["me"]["entered"] is False and r.json()["standings"] == []
    assert ana.post(url + "join/").status_code == 200
    r = client_for(make_user()).post(url + "withdraw/")
    assert r.status_code == 403 and r.json()["code"] == "not_entered"
    assert APIClient().get("/api/tournaments/999999/").json()["code"] == "not_found"
    assert ana.post("/api/tournaments/999999/join/").status_code == 404


def test_an_arena_player_pauses_comes_back_and_withdraws(staff: Any, make_user: Any, client_for: Any) -> None:
    t = event(staff, format="arena", table_size=2, min_table_size=2, bots_fill=False)
    people = [make_user() for _ in range(3)]
    for u in people[1:]:
        tournament_join(tournament=t, user=u)
    tournament_start(tournament=t, user=staff)
    me = client_for(people[0])
    url = f"/api/tournaments/{t.pk}/"
    body = me.post(url + "join/").json()  # an arena takes entrants while it runs
    assert body["me"] == {
        "entered": True, "paused": False, "withdrawn": False, "removed": False, "pauses": 0, "table": None,
        "game": None,
    }  # fmt: skip
    seated = client_for(people[1]).get(url).json()["me"]
    assert seated["table"] is not None  # the two who entered first sit at a table
    assert seated["game"] == EventTable.objects.get(tournament=t).game_id
    body = me.post(url + "pause/").json()
    assert body["me"]["paused"] is True and body["me"]["pauses"] == 1
    assert me.post(url + "pause/").json()["code"] == "not_playing"
    assert me.post(url + "join/").json()["me"]["paused"] is False
    body = me.post(url + "withdraw/").json()
    assert body["me"]["withdrawn"] is True
    assert next(r for r in body["standings"] if r["player"] == people[0].username)["withdrawn"] is True
    r = me.post(url + "join/")
    assert r.status_code == 409 and r.json()["code"] == "withdrawn"


def test_staff_create_events_and_bad_settings_are_coded(staff: Any, make_user: Any, client_for: Any) -> None:
    starts = (timezone.now() + timedelta(hours=1)).isoformat()
    spec = {"name": "Friday arena", "format": "arena", "table_size": 4, "starts_at": starts}
    r = client_for(make_user()).post("/api/tournaments/", {**spec, "featured": True}, format="json")
    assert r.status_code == 403 and r.json()["code"] == "not_staff"  # a player's event: not featured
    r = APIClient().post("/api/tournaments/", spec, format="json")
    assert r.status_code == 401
    boss = client_for(staff)
    r = boss.post("/api/tournaments/", {**spec, "table_size": 9}, format="json")
    assert r.status_code == 400 and r.json()["code"] == "invalid" and "table_size" in r.json()["fields"]
    r = boss.post("/api/tournaments/", {**spec, "table_size": 3, "min_table_size": 4}, format="json")
    assert r.status_code == 400 and r.json()["code"] == "bad_settings"
    r = boss.post("/api/tournaments/", [], format="json")
    assert r.status_code == 400 and r.json()["code"] == "invalid"
    r = boss.post("/api/tournaments/", spec, format="json")
    assert r.status_code == 201, r.json()
    body = r.json()
    assert body["min_table_size"] == 4 and body["status"] == "scheduled" and body["entry_open"] is True
    assert body["points_by_place"] == {"4": [12, 8, 4, 0]}
    assert Tournament.objects.get(pk=body["id"]).created_by == staff
    assert body["featured"] is True and body["host"] == staff.username


def test_the_detail_has_standings_each_players_games_and_the_podium(staff: Any, make_user: Any) -> None:
    t = event(staff, rounds=2, rated=False)  # tables of 3, bots fill
    people = [make_user() for _ in range(5)]
    for u in people:
        tournament_join(tournament=t, user=u)
    tournament_start(tournament=t, user=staff)
    rng = random.Random(7)
    play_open_tables(t, rng)
    tournament_seat_round(tournament=t)
    body = APIClient().get(f"/api/tournaments/{t.pk}/").json()
    assert body["status"] == "running" and body["current_round"] == 2 and body["podium"] == []
    rows = body["standings"]
    assert len(rows) == 5 and all(r["games"] == 1 for r in rows)
    assert [r["points"] for r in rows] == sorted((r["points"] for r in rows), reverse=True)
    assert rows[0]["rank"] == 1 and all(a["rank"] <= b["rank"] for a, b in itertools.pairwise(rows))
    stored = {e.user.username: e.score for e in Entry.objects.filter(tournament=t).select_related("user")}
    assert {r["player"]: r["points"] for r in rows} == stored
    play_open_tables(t, rng)
    tournament_seat_round(tournament=t)
    body = APIClient().get(f"/api/tournaments/{t.pk}/").json()
    assert body["status"] == "finished"
    assert body["podium"] and body["podium"][0] == body["standings"][0]
    assert all(r["rank"] <= 3 for r in body["podium"])
    name = body["standings"][0]["player"]
    games = APIClient().get(f"/api/tournaments/{t.pk}/players/{name}/").json()
    assert games["standing"]["player"] == name and len(games["results"]) == 2
    assert [g["round"] for g in games["results"]] == [1, 2]
    assert sum(g["points"] for g in games["results"]) == games["standing"]["points"]
    assert all(g["replay"] == f"/replays/{g['game']}/" for g in games["results"])
    r = APIClient().get(f"/api/tournaments/{t.pk}/players/nobody/")
    assert r.status_code == 404 and r.json()["code"] == "not_entered"


def test_the_schema_describes_the_tournaments_api() -> None:
    schema = APIClient().get("/api/schema/?format=json").json()
    paths = schema["paths"]
    assert {"get", "post"} <= set(paths["/api/tournaments/"])
    for action in ("join", "withdraw", "pause"):
        assert "409" in paths[f"/api/tournaments/{{id}}/{action}/"]["post"]["responses"]
    standing = schema["components"]["schemas"]["Standing"]["properties"]
    assert {"rank", "player", "points", "games", "wins", "opposition"} <= set(standing)
