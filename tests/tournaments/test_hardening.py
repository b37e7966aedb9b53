"""Hardening: an event's dates are refused before anything is written (API, admin), the lists
survive a row stored before that, and a person plays at one table at a time across events."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from games.models import GameSeat, GameStatus
from tests.tournaments.test_services import event, play_open_tables
from tournaments.models import Entry, EventSeat, EventTable, Result, Status, Tournament
from tournaments.services import tournament_join, tournament_seat_round, tournament_start

pytestmark = pytest.mark.django_db

LAST_DAY = datetime(9999, 12, 31, 0, 0, tzinfo=UTC)


def test_an_arena_ending_past_the_last_date_is_refused_by_the_api_with_nothing_written(
    staff: Any, client_for: Any
) -> None:
    boss = client_for(staff)
    before = Tournament.objects.count()
    for spec in (
        {"starts_at": LAST_DAY.isoformat(), "duration_minutes": 24 * 60},  # the issue's: its end overflows
        {"starts_at": LAST_DAY.isoformat(), "duration_minutes": 30, "format": "swiss"},
        {"starts_at": (timezone.now() + timedelta(days=400)).isoformat()},  # more than a year ahead
    ):
        r = boss.post("/api/tournaments/", {"name": "Far", "format": "arena", **spec}, format="json")
        assert r.status_code == 400, (spec, r.content)
        assert r.json()["code"] == "bad_dates", spec
    assert Tournament.objects.count() == before
    assert Client().get("/lobby/").status_code == 200


def test_the_admin_refuses_such_dates_and_takes_the_packs_as_checkboxes(make_user: Any) -> None:
    boss = make_user()
    boss.is_staff = boss.is_superuser = True
    boss.save()
    c = Client()
    c.force_login(boss)
    url = "/admin/tournaments/tournament/add/"
    page = c.get(url).content.decode()
    assert 'type="checkbox" name="packs" value="big-warren"' in page
    form = {
        "name": "Far arena", "format": "arena", "table_size": "4", "min_table_size": "4",
        "bots_fill": "on", "bot_level": "normal", "bots_after_seconds": "30", "mini": "0",
        "turn_timer": "30", "reaction_timer": "10", "discard_timer": "10", "rated": "on",
        "entry_opens_at_0": "9999-12-30", "entry_opens_at_1": "00:00:00",
        "starts_at_0": "9999-12-31", "starts_at_1": "00:00:00",
        "duration_minutes": "1440", "rounds": "5",
    }  # fmt: skip
    r = c.post(url, form)
    assert r.status_code == 200 and "an event starts within a year" in r.content.decode()
    assert not Tournament.objects.exists()
    soon = (timezone.now() + timedelta(days=1)).strftime("%Y-%m-%d")
    ok = {**form, "entry_opens_at_0": soon, "starts_at_0": soon, "packs": ["big-warren"], "table_size": "6"}
    r = c.post(url, ok)
    assert r.status_code == 302, r.content.decode()[:3000]
    t = Tournament.objects.get()
    assert t.packs == ["big-warren"] and t.table_size == 6 and t.created_by == boss


def test_one_row_that_cannot_be_shown_breaks_no_list_and_not_its_own_page(staff: Any, make_user: Any) -> None:
    good = event(staff, name="Good cup")
    # As the issue found it: a row stored before the dates were checked (the admin saved it).
    bad = Tournament.objects.create(
        name="Broken arena", format="arena", created_by=staff,
        entry_opens_at=LAST_DAY - timedelta(days=1), starts_at=LAST_DAY, duration_minutes=24 * 60,
    )  # fmt: skip
    for url in ("/lobby/", "/tournaments/"):
        r = Client().get(url)
        assert r.status_code == 200, url
        assert "Good cup" in r.content.decode(), url
    r = Client().get("/api/tournaments/")
    assert r.status_code == 200 and good.pk in [t["id"] for t in r.json()["upcoming"]]
    Tournament.objects.filter(pk=bad.pk).update(featured=True)  # a staff event: in the lobby too
    r = Client().get("/lobby/")
    assert r.status_code == 200 and "Good cup" in r.content.decode()
    assert Client().get(f"/tournaments/{good.pk}/").status_code == 200
    assert Client().get(f"/tournaments/{bad.pk}/").status_code == 200
    assert Client().get(f"/api/tournaments/{bad.pk}/").status_code == 200
    # Its entry open: a person may enter it (its end, past the last date, is never reached).
    Tournament.objects.filter(pk=bad.pk).update(entry_opens_at=timezone.now())
    player = Client()
    player.force_login(make_user())
    assert player.post(f"/tournaments/{bad.pk}/join/").status_code == 302
    assert Entry.objects.filter(tournament=bad).count() == 1


def _running_games(user: Any) -> int:
    return GameSeat.objects.filter(user=user, game__status=GameStatus.RUNNING, bot_playing=False).count()


def test_a_person_plays_at_one_table_at_a_time_across_overlapping_events(staff: Any, make_user: Any) -> None:
    """The rule (docs/TOURNAMENTS.md, "Two events at once"): a person at a table of another event
    is not seated; an arena seats them when that game is over, a Swiss round goes on without them
    (no game, no bye), and a Swiss round with nobody free waits."""
    rng = random.Random(3)
    swiss = event(staff, table_size=2, min_table_size=2, rounds=2, bots_fill=False, rated=False)
    arena = event(staff, format="arena", table_size=2, min_table_size=2, bots_fill=False, rated=False)
    people = [make_user() for _ in range(4)]
    for u in people:
        tournament_join(tournament=swiss, user=u)
    for u in people[:2]:
        tournament_join(tournament=arena, user=u)
    tournament_start(tournament=swiss, user=staff)
    assert EventTable.objects.filter(tournament=swiss).count() == 2  # everyone at a Swiss table
    tournament_start(tournament=arena, user=staff)
    assert not EventTable.objects.filter(tournament=arena).exists()  # the old code seated them here too
    assert all(_running_games(u) == 1 for u in people)

    play_open_tables(swiss, rng)  # round 1 over: the two arena people are free now
    (table,) = tournament_seat_round(tournament=arena)
    seated = set(EventSeat.objects.filter(event_table=table).values_list("entry__user_id", flat=True))
    assert seated == {people[0].pk, people[1].pk}

    tournament_seat_round(tournament=swiss)  # round 2: the two in the arena sit it out
    swiss.refresh_from_db()
    assert swiss.current_round == 2
    (second,) = EventTable.objects.filter(tournament=swiss, done=False)
    seated = set(EventSeat.objects.filter(event_table=second).values_list("entry__user_id", flat=True))
    assert seated == {people[2].pk, people[3].pk}
    for u in people[:2]:
        entry = Entry.objects.get(tournament=swiss, user=u)
        assert Result.objects.filter(entry=entry).count() == 1 and entry.byes == 0  # no game, no bye
    assert all(_running_games(u) == 1 for u in people)

    play_open_tables(swiss, rng)
    play_open_tables(arena, rng)
    swiss.refresh_from_db()
    assert swiss.status == Status.RUNNING
    tournament_seat_round(tournament=swiss)  # after the last round: finished
    swiss.refresh_from_db()
    assert swiss.status == Status.FINISHED


def test_a_swiss_round_with_everyone_playing_elsewhere_waits(staff: Any, make_user: Any) -> None:
    rng = random.Random(5)
    arena = event(staff, format="arena", table_size=2, min_table_size=2, bots_fill=False, rated=False)
    swiss = event(staff, table_size=2, min_table_size=2, rounds=1, bots_fill=False, rated=False)
    people = [make_user() for _ in range(2)]
    for t in (arena, swiss):
        for u in people:
            tournament_join(tournament=t, user=u)
    tournament_start(tournament=arena, user=staff)
    tournament_start(tournament=swiss, user=staff)
    swiss.refresh_from_db()
    assert swiss.status == Status.RUNNING and swiss.current_round == 0  # waiting, not finished
    assert not Result.objects.filter(tournament=swiss).exists()
    play_open_tables(arena, rng)
    tournament_seat_round(tournament=swiss)
    swiss.refresh_from_db()
    assert swiss.current_round == 1 and EventTable.objects.filter(tournament=swiss).count() == 1
