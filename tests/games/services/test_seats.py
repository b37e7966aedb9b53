"""games/services/seats.py: who plays a seat during a game, its person or a bot standing in."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import transaction

from games.eventlog import events_with_seq
from games.models import Game, GameSeat, Table
from games.services.moves import game_abort
from games.services.seats import seat_hand_to_bot, seat_reclaim, seat_set_auto_answer
from games.services.tables import table_leave, table_seat_vacate
from harehra import EventType
from plumbing.errors import ServiceError
from tests.factories import start_table

pytestmark = pytest.mark.django_db


def _game(make_user: Any) -> tuple[Game, list[Any]]:
    users = [make_user() for _ in range(2)]
    return start_table(users, rated=False), users


def _last_event(game: Game) -> dict[str, Any]:
    game.refresh_from_db()
    return events_with_seq(game, after=game.last_seq - 1)[-1][1]


def test_a_bot_takes_a_seat_once_and_the_log_says_so(make_user: Any) -> None:
    game, _ = _game(make_user)
    with transaction.atomic():
        assert seat_hand_to_bot(game=game, seat=1, reason="away") is True
    taken = {"type": EventType.SEAT_TAKEN_BY_BOT, "version": 1, "seat": 1, "reason": "away"}
    assert _last_event(game) == taken
    seq = game.last_seq
    with transaction.atomic():
        assert seat_hand_to_bot(game=game, seat=1, reason="away") is False  # a bot already plays it
    game.refresh_from_db()
    assert game.last_seq == seq
    assert GameSeat.objects.get(game=game, seat=1).bot_playing


def test_no_bot_takes_a_seat_of_a_game_that_is_over(make_user: Any) -> None:
    game, _ = _game(make_user)
    game_abort(game=game, actor_id=None)
    with transaction.atomic():
        assert seat_hand_to_bot(game=game, seat=0, reason="left") is False
    assert not GameSeat.objects.get(game=game, seat=0).bot_playing


def test_the_person_takes_the_seat_back_and_only_their_own(make_user: Any) -> None:
    game, users = _game(make_user)
    with pytest.raises(ServiceError) as not_away:
        seat_reclaim(game=game, user=users[1])
    assert not_away.value.code == "not_away"
    with transaction.atomic():
        seat_hand_to_bot(game=game, seat=1, reason="away")
    GameSeat.objects.filter(game=game, seat=1).update(missed_deadlines=2)
    stranger = make_user()
    with pytest.raises(ServiceError):
        seat_reclaim(game=game, user=stranger)
    assert seat_reclaim(game=game, user=users[1]) == 1
    row = GameSeat.objects.get(game=game, seat=1)
    assert not row.bot_playing and row.missed_deadlines == 0
    assert _last_event(game) == {"type": EventType.SEAT_RECLAIMED, "version": 1, "seat": 1}


def test_a_seat_cannot_be_reclaimed_once_the_game_is_over(make_user: Any) -> None:
    game, users = _game(make_user)
    with transaction.atomic():
        seat_hand_to_bot(game=game, seat=0, reason="away")
    game_abort(game=game, actor_id=None)
    with pytest.raises(ServiceError) as over:
        seat_reclaim(game=game, user=users[0])
    assert over.value.code == "game_over"


def test_who_left_the_table_or_was_taken_off_it_cannot_take_the_seat_back(make_user: Any) -> None:
    users = [make_user() for _ in range(3)]
    game = start_table(users, rated=False)
    table = Table.objects.get(pk=game.table_id)
    table_leave(table=table, user=users[1])
    assert _last_event(game)["reason"] == "left"
    with pytest.raises(ServiceError) as left:
        seat_reclaim(game=game, user=users[1])
    assert left.value.code == "left_table"
    assert table_seat_vacate(table=table, user_id=users[2].pk, reason="left") is True
    taken = {"type": EventType.SEAT_TAKEN_BY_BOT, "version": 1, "seat": 2, "reason": "left"}
    assert _last_event(game) == taken
    assert GameSeat.objects.get(game=game, seat=2).bot_playing
    assert not table.seat_set.filter(user=users[2]).exists()
    with pytest.raises(ServiceError) as left:
        seat_reclaim(game=game, user=users[2])
    assert left.value.code == "left_table"
    assert table_seat_vacate(table=table, user_id=users[2].pk) is False  # no longer there


def test_answer_for_me_is_set_for_the_persons_own_seat_only(make_user: Any) -> None:
    game, users = _game(make_user)
    assert seat_set_auto_answer(game=game, user=users[1], on=True) is True
    assert GameSeat.objects.get(game=game, seat=1).auto_answer
    assert not GameSeat.objects.get(game=game, seat=0).auto_answer
    with pytest.raises(ServiceError):
        seat_set_auto_answer(game=game, user=make_user(), on=True)
