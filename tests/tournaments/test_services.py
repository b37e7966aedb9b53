"""Tournaments played through their services with games made by games' services: results from the
logs through the "game ended" hook, equal to `rebuild_tournament`'s refold."""

from __future__ import annotations

import random
from datetime import timedelta
from io import StringIO
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from games.models import Game, GameSeat, GameStatus
from plumbing.errors import ServiceError
from tests.factories import play_out
from tournaments.models import Entry, EventTable, Result, Round, Status, Tournament
from tournaments.selectors import tournament_standings
from tournaments.services import (
    tournament_create,
    tournament_join,
    tournament_pause,
    tournament_seat_round,
    tournament_start,
    tournament_tick,
    tournament_withdraw,
)
from tournaments.tasks import tournaments_run

pytestmark = pytest.mark.django_db


def event(staff: Any, **spec: Any) -> Tournament:
    now = timezone.now()
    spec = {
        "name": "Test",
        "format": "swiss",
        "table_size": 3,
        "min_table_size": 3,
        "entry_opens_at": now - timedelta(minutes=5),
        "starts_at": now + timedelta(minutes=5),
        "turn_timer": 30,
        **spec,
    }
    return tournament_create(user=staff, **spec)


def play_open_tables(t: Tournament, rng: random.Random) -> int:
    n = 0
    for et in EventTable.objects.filter(tournament=t, done=False):
        play_out(Game.objects.get(pk=et.game_id), rng)
        n += 1
    return n


def rebuild(t: Tournament) -> str:
    out = StringIO()
    call_command("rebuild_tournament", str(t.pk), stdout=out)
    return out.getvalue()


def test_only_staff_feature_events_and_bad_settings_are_refused(staff: Any, make_user: Any) -> None:
    with pytest.raises(ServiceError) as e:
        event(make_user(), featured=True)
    assert e.value.code == "not_staff"
    for bad in (
        {"table_size": 7},
        {"min_table_size": 4},
        {"table_size": 6, "min_table_size": 6},
        {"rounds": 0},
    ):
        with pytest.raises(ServiceError) as e:
            event(staff, **bad)
        assert e.value.code == "bad_settings", bad


def test_a_swiss_event_with_a_bot_seat_is_played_and_rebuilt_exactly(staff: Any, make_user: Any) -> None:
    t = event(staff, rounds=2, rated=False)
    people = [make_user() for _ in range(5)]
    for u in people:
        tournament_join(tournament=t, user=u)
    with pytest.raises(ServiceError) as e:
        tournament_join(tournament=t, user=people[0])
    assert e.value.code == "already_entered"
    t = tournament_start(tournament=t, user=staff)
    tables = list(EventTable.objects.filter(tournament=t).order_by("id"))
    assert len(tables) == 2 and t.current_round == 1
    seats = [list(GameSeat.objects.filter(game_id=et.game_id).order_by("seat")) for et in tables]
    assert sorted(len(s) for s in seats) == [3, 3]
    assert sum(s.is_bot for g in seats for s in g) == 1  # 5 people at two tables of 3: one bot
    rng = random.Random(3)
    assert play_open_tables(t, rng) == 2
    assert Result.objects.filter(tournament=t).count() == 5  # the bot's seat scores for nobody
    tournament_seat_round(tournament=t)
    t.refresh_from_db()
    assert t.current_round == 2 and Round.objects.filter(tournament=t).count() == 2
    play_open_tables(t, rng)
    tournament_seat_round(tournament=t)
    t.refresh_from_db()
    assert t.status == Status.FINISHED
    for e in Entry.objects.filter(tournament=t):
        assert e.games == 2 and e.score == sum(r.points for r in e.results.all())
    standings = tournament_standings(t)
    assert [s.score for s in standings] == sorted((s.score for s in standings), reverse=True)
    assert rebuild(t).endswith("refolded 4 games; 5 entries; 0 differences\n")
    Entry.objects.filter(tournament=t).update(score=999)
    with pytest.raises(CommandError):
        rebuild(t)
    call_command("rebuild_tournament", str(t.pk), "--write", stdout=StringIO())
    assert "0 differences" in rebuild(t)


def test_a_swiss_event_without_bots_gives_a_bye(staff: Any, make_user: Any) -> None:
    t = event(staff, rounds=1, bots_fill=False, rated=False)
    for _ in range(4):
        tournament_join(tournament=t, user=make_user())
    tournament_start(tournament=t, user=staff)
    bye = Result.objects.get(tournament=t, game__isnull=True)
    assert bye.points == 6 and bye.entry.byes == 1 and bye.entry.score == 6
    play_open_tables(t, random.Random(1))
    assert "0 differences" in rebuild(t)


def test_an_arena_reseats_free_players_and_pauses_wait(staff: Any, make_user: Any) -> None:
    t = event(staff, format="arena", table_size=2, min_table_size=2, bots_fill=False, duration_minutes=30)
    people = [make_user() for _ in range(5)]
    for u in people:
        tournament_join(tournament=t, user=u)
    tournament_start(tournament=t, user=staff)
    assert EventTable.objects.filter(tournament=t, done=False).count() == 2  # one waits
    rng = random.Random(5)
    first = EventTable.objects.filter(tournament=t).order_by("id").first()
    assert first is not None
    play_out(Game.objects.get(pk=first.game_id), rng)
    made = tournament_seat_round(tournament=t)
    assert len(made) == 1  # the one who waited and one of the two just freed
    tournament_pause(tournament=t, user=people[0])
    entry = tournament_join(tournament=t, user=people[0])  # back: no wait after the first pause
    assert entry.pauses == 1 and entry.ready_at is not None and entry.ready_at <= timezone.now()
    tournament_pause(tournament=t, user=people[0])
    entry = tournament_join(tournament=t, user=people[0])
    assert entry.ready_at is not None and entry.ready_at > timezone.now() + timedelta(seconds=10)
    tournament_withdraw(tournament=t, user=people[1])
    while play_open_tables(t, rng):
        tournament_seat_round(tournament=t)
        if Result.objects.filter(tournament=t).count() > 12:
            break
    assert Result.objects.filter(tournament=t).count() >= 6
    assert "0 differences" in rebuild(t)


def test_the_beat_starts_due_events_and_one_failing_stops_no_other(staff: Any, make_user: Any) -> None:
    now = timezone.now()
    good, bad = (event(staff, rated=False, starts_at=now - timedelta(seconds=1)) for _ in range(2))
    for t in (good, bad):
        for _ in range(3):
            tournament_join(tournament=t, user=make_user())
    Round.objects.create(tournament=bad, number=1)  # its first round cannot be made
    assert tournaments_run() == [bad.pk]
    good.refresh_from_db()
    bad.refresh_from_db()
    assert good.status == Status.RUNNING and EventTable.objects.filter(tournament=good).count() == 1
    assert bad.status == Status.SCHEDULED  # rolled back whole
    tournament_tick(tournament_id=good.pk)  # nothing due: changes nothing
    assert EventTable.objects.filter(tournament=good).count() == 1
    game = Game.objects.get(pk=EventTable.objects.get(tournament=good).game_id)
    assert game.status == GameStatus.RUNNING
