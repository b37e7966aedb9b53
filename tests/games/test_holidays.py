"""Holidays: the deadline rule, a holiday taken and ended early moving the awaited decisions'
deadlines of slow games (never a live one's), the decisions stamped during it, the chat's lines,
the year's allowance and the refusals' codes, through the services, the API and the page."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from chat.models import ChatMessage
from games.models import Game, GameSeat, Holiday, Pace
from games.services.holidays import holiday_deadline, holiday_end, holiday_take
from tests.games.slow_tables import DAY, play_until_awaits, slow_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def ann(make_user: Any) -> Any:
    return make_user("ann")


@pytest.fixture
def ben(make_user: Any) -> Any:
    return make_user("ben")


def test_the_rule_keeps_the_time_left_past_the_end(ann: Any) -> None:
    now = timezone.now()
    deadline = now + timedelta(hours=5)
    assert holiday_deadline(ann.pk, deadline, now) == deadline  # not on holiday
    assert holiday_deadline(None, deadline, now) == deadline  # a bot's decision
    holiday = holiday_take(user=ann, days=3, now=now)
    later = now + timedelta(days=1)
    assert holiday_deadline(ann.pk, later + timedelta(hours=5), later) == holiday.ends_at + timedelta(hours=5)
    after = holiday.ends_at + timedelta(minutes=1)
    assert holiday_deadline(ann.pk, after + timedelta(hours=5), after) == after + timedelta(hours=5)


def test_a_holiday_moves_the_awaited_slow_deadline_and_back_and_tells_the_tables(ann: Any, ben: Any) -> None:
    slow = play_until_awaits(slow_game([ann, ben]), ann)
    live = play_until_awaits(slow_game([ann, ben], seconds=30, pace=Pace.LIVE), ann)
    waiting_for_ben = play_until_awaits(slow_game([ben, ann]), ben)
    live_deadline, ben_deadline = live.deadline_at, waiting_for_ben.deadline_at
    now = timezone.now()
    left = slow.deadline_at - now
    holiday = holiday_take(user=ann, days=5, now=now)
    assert holiday.ends_at == now + timedelta(days=5) and holiday.days == 5
    slow.refresh_from_db()
    assert slow.deadline_at == holiday.ends_at + left
    assert Game.objects.get(pk=live.pk).deadline_at == live_deadline  # live tables are not paused
    assert Game.objects.get(pk=waiting_for_ben.pk).deadline_at == ben_deadline  # not Ann's decision
    # Each slow table Ann plays at is told, in both channels; the live one is not.
    lines = ChatMessage.objects.filter(notice="holiday_started", user=ann)
    assert sorted({m.table_id for m in lines}) == sorted([slow.table_id, waiting_for_ben.table_id])
    assert {m.channel for m in lines} == {"players", "spectators"}
    assert all(m.notice_at == holiday.ends_at for m in lines)

    # A decision awaited from Ann during the holiday waits past its end with its whole time.
    play_until_awaits(waiting_for_ben, ann, waits=True)
    fresh = Game.objects.get(pk=waiting_for_ben.pk)
    assert holiday.ends_at + timedelta(seconds=DAY) <= fresh.deadline_at
    assert fresh.deadline_at <= holiday.ends_at + timedelta(seconds=DAY, minutes=1)

    # Back two days later: the time she had when it began, at most a decision's whole time.
    back = now + timedelta(days=2)
    ended = holiday_end(user=ann, now=back)
    assert ended.ends_at == back and ended.days == 2
    slow.refresh_from_db()
    assert slow.deadline_at == back + left
    fresh.refresh_from_db()
    assert fresh.deadline_at == back + timedelta(seconds=DAY)
    assert ChatMessage.objects.filter(notice="holiday_ended", user=ann).count() == 4


def test_the_games_open_pages_hear_the_moved_deadline(
    ann: Any, ben: Any, monkeypatch: Any, django_capture_on_commit_callbacks: Any
) -> None:
    game = play_until_awaits(slow_game([ann, ben]), ann)
    sent: list[tuple[str, dict[str, Any]]] = []
    monkeypatch.setattr("plumbing.publish._send", lambda group, message: sent.append((group, message)))
    with django_capture_on_commit_callbacks(execute=True):
        holiday_take(user=ann, days=2)
    game.refresh_from_db()
    told = [m for g, m in sent if m["type"] == "game.meta" and m["kind"] == "deadline"]
    assert told == [
        {
            "type": "game.meta",
            "kind": "deadline",
            "data": {
                "seq": game.last_seq,
                "seat": game.awaiting_seat,
                "kind": game.awaiting_kind,
                "deadline": game.deadline_at.isoformat(),
            },
        }
    ]
    assert any(m["type"] == "chat.message" and m["message"]["notice"] == "holiday_started" for _, m in sent)


def test_a_seat_a_bot_plays_is_not_paused(ann: Any, ben: Any) -> None:
    game = play_until_awaits(slow_game([ann, ben]), ann)
    GameSeat.objects.filter(game=game, user=ann).update(bot_playing=True)
    deadline = game.deadline_at
    holiday_take(user=ann, days=2)
    assert Game.objects.get(pk=game.pk).deadline_at == deadline


def test_the_allowance_and_the_refusals_through_the_api(ann: Any, client_for: Any, settings: Any) -> None:
    settings.HOLIDAY_DAYS_PER_YEAR = 10
    api = client_for(ann)
    r = api.get("/api/holidays/")
    assert r.json() == {"allowance": 10, "used": 0, "left": 10, "current": None}
    for days, code in ((0, "bad_days"), (11, "bad_days"), ("x", "invalid")):
        r = api.post("/api/holidays/", {"days": days}, format="json")
        assert (r.status_code, r.json()["code"]) == (400, code), days
    r = api.post("/api/holidays/end/")
    assert (r.status_code, r.json()["code"]) == (409, "not_on_holiday")
    r = api.post("/api/holidays/", {"days": 7}, format="json")
    assert r.status_code == 201 and r.json()["current"]["days"] == 7 and r.json()["left"] == 3
    r = api.post("/api/holidays/", {"days": 1}, format="json")
    assert (r.status_code, r.json()["code"]) == (409, "already_on_holiday")
    r = api.post("/api/holidays/end/")  # at once: it costs a day
    assert r.status_code == 200 and r.json() == {"allowance": 10, "used": 1, "left": 9, "current": None}
    r = api.post("/api/holidays/", {"days": 10}, format="json")
    assert (r.status_code, r.json()["code"]) == (409, "holiday_allowance_exceeded")
    assert api.post("/api/holidays/", {"days": 9}, format="json").status_code == 201
    # A year on, the days are there again.
    Holiday.objects.filter(user=ann).update(
        starts_at=timezone.now() - timedelta(days=400), ends_at=timezone.now() - timedelta(days=390)
    )
    assert api.get("/api/holidays/").json()["left"] == 10
    anyone = Client()
    assert anyone.get("/api/holidays/").status_code in (401, 403)


def test_the_page_takes_and_ends_a_holiday_in_the_readers_words(ann: Any) -> None:
    page = Client()
    page.force_login(ann)
    r = page.post("/games/mine/holiday/take/", {"days": "3"}, follow=True)
    assert r.status_code == 200
    assert Holiday.objects.filter(user=ann).count() == 1
    assert "You are on holiday until" in r.content.decode()
    r = page.post("/games/mine/holiday/take/", {"days": "3"}, follow=True, HTTP_ACCEPT_LANGUAGE="cs")
    assert "Dovolenou už máte: nejdřív ji ukončete." in r.content.decode()
    r = page.post("/games/mine/holiday/end/", follow=True)
    assert r.status_code == 200 and "End my holiday now" not in r.content.decode()
    assert page.post("/games/mine/holiday/nonsense/").status_code == 404
