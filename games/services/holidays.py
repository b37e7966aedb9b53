"""Holidays: a person pauses the clocks of their slow games for some days.

While a person is on holiday, a decision awaited from them at a slow table waits: its deadline
lies past the holiday's end, with the time that was left kept (`holiday_deadline`, the one rule;
the write path asks it where it stamps a slow decision's deadline, games/services/moves.py).
Taking a holiday moves the deadlines of the decisions awaited from the person now; ending it
early moves them back, each to at most its decision's whole time from now. Live tables ignore
holidays: everyone there is online together. Each slow table the person plays at is told, in its
chat (the `holiday_changed` hook: the chat app writes the line). At most HOLIDAY_DAYS_PER_YEAR
days in any 365, each holiday charged its whole days (at least one).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import F

from games.publish import publish_game_meta
from plumbing import clock
from plumbing.errors import ServiceError
from plumbing.hooks import Hook

from .. import sql
from ..access import AnyUser, access_signed_in
from ..models import Game, GameSeat, GameStatus, Holiday, Pace, Seat, TableStatus
from ..selectors import holiday_current, holiday_days_used

DAY = timedelta(days=1)

# A person's holiday began or ended: (user id, the slow tables they play at, "started" or
# "ended", when it ends). The chat app subscribes and writes the line each table's people see.
holiday_changed = Hook("a person's holiday began or ended")


def _paused(deadline: datetime, now: datetime, ends_at: datetime) -> datetime:
    """A deadline as a holiday from `now` to `ends_at` leaves it: the time it had left, after the end."""
    return ends_at + max(deadline - now, timedelta(0))


def holiday_deadline(user_id: int | None, deadline: datetime, now: datetime) -> datetime:
    """The deadline of a decision awaited from `user_id` at a slow table, stamped at `now`: as
    given, or, while the person is on holiday, past its end with the time it had left."""
    if user_id is None:
        return deadline
    ends = (
        Holiday.objects.filter(user_id=user_id, starts_at__lte=now, ends_at__gt=now)
        .values_list("ends_at", flat=True)
        .first()
    )
    return deadline if ends is None else _paused(deadline, now, ends)


def holiday_deadline_for_seat(game_id: int, seat: int, deadline: datetime, now: datetime) -> datetime:
    """`holiday_deadline` for the person who plays `seat` of a game (none when a bot plays it),
    in one statement: what the write path asks when a slow table's decision opens."""
    ends = (
        Holiday.objects.filter(
            user__game_seats__game_id=game_id,
            user__game_seats__seat=seat,
            user__game_seats__bot_playing=False,
            starts_at__lte=now,
            ends_at__gt=now,
        )
        .values_list("ends_at", flat=True)
        .first()
    )
    return deadline if ends is None else _paused(deadline, now, ends)


def _days(days: Any) -> int:
    allowance = settings.HOLIDAY_DAYS_PER_YEAR
    if isinstance(days, str) and days.strip().isdigit():
        days = int(days)
    if isinstance(days, bool) or not isinstance(days, int) or not 1 <= days <= allowance:
        raise ServiceError("bad_days", f"a holiday is 1 to {allowance} days")
    return days


def _person_locked(user_id: int) -> None:
    """The person's row, locked: one holiday change of theirs at a time."""
    get_user_model().objects.select_for_update().filter(pk=user_id).exists()


def holiday_take(*, user: AnyUser, days: Any, now: datetime | None = None) -> Holiday:
    """`user` goes on holiday from now for `days` days: the decisions awaited from them at slow
    tables wait past its end. Refused while one runs (already_on_holiday) and past the year's
    allowance (holiday_allowance_exceeded)."""
    access_signed_in(user)
    days = _days(days)
    now = now or clock.now()
    with transaction.atomic():
        _person_locked(user.pk)
        if holiday_current(user.pk, now) is not None:
            raise ServiceError("already_on_holiday", "you are on holiday already: end it first", 409)
        left = settings.HOLIDAY_DAYS_PER_YEAR - holiday_days_used(user.pk, now)
        if days > left:
            raise ServiceError(
                "holiday_allowance_exceeded",
                f"you have {max(left, 0)} days of holiday left in these 365 days",
                409,
            )
        holiday = Holiday.objects.create(user_id=user.pk, starts_at=now, ends_at=now + days * DAY, days=days)
        ends = holiday.ends_at
        _awaited_move(user.pk, lambda game: _paused(game.deadline_at, now, ends))  # type: ignore[arg-type]
        holiday_changed.send(user.pk, _slow_tables_of(user.pk), "started", ends)
    return holiday


def holiday_end(*, user: AnyUser, now: datetime | None = None) -> Holiday:
    """`user` ends their holiday now (not_on_holiday when none runs): the decisions awaited from
    them get back the time they had when it began, each at most its whole time from now. The
    days it lasted, whole, count against the allowance."""
    access_signed_in(user)
    now = now or clock.now()
    with transaction.atomic():
        _person_locked(user.pk)
        holiday = holiday_current(user.pk, now)
        if holiday is None:
            raise ServiceError("not_on_holiday", "you are not on holiday", 409)
        planned_end = holiday.ends_at
        holiday.ends_at = max(now, holiday.starts_at + timedelta(microseconds=1))
        holiday.days = max(1, math.ceil((holiday.ends_at - holiday.starts_at) / DAY))
        holiday.save(update_fields=["ends_at", "days"])
        early = planned_end - holiday.ends_at

        def back(game: Game) -> datetime | None:
            deadline = game.deadline_at
            if deadline is None or deadline < planned_end:
                return None  # not paused by this holiday
            return min(deadline - early, now + timedelta(seconds=_decision_seconds(game)))

        _awaited_move(user.pk, back)
        holiday_changed.send(user.pk, _slow_tables_of(user.pk), "ended", holiday.ends_at)
    return holiday


def _decision_seconds(game: Game) -> int:
    """The whole time of the decision the game awaits, by its table's timers."""
    table = game.table
    if game.awaiting_kind == "turn":
        return table.turn_timer
    if game.awaiting_kind == "discard":
        return table.discard_timer
    return table.reaction_timer


def _awaited_move(user_id: int, deadline_for: Callable[[Game], datetime | None]) -> int:
    """Move the deadline of every decision awaited from `user_id` at a running slow game (their
    own seat, not a bot's turn for them) to `deadline_for(game)` (None: leave it). Each game is
    locked as every writer locks it (table, then game), in the order of their ids."""
    game_ids = list(
        GameSeat.objects.filter(
            user_id=user_id,
            bot_playing=False,
            game__status=GameStatus.RUNNING,
            game__table__pace=Pace.SLOW,
            game__awaiting_seat=F("seat"),
        )
        .order_by("game_id")
        .values_list("game_id", flat=True)
    )
    moved = 0
    for game_id in game_ids:
        game = sql.locked_game(game_id)  # as moves.game_lock: the table, then the game
        mine = GameSeat.objects.filter(
            game_id=game_id, seat=game.awaiting_seat, user_id=user_id, bot_playing=False
        ).exists()
        if game.status != GameStatus.RUNNING or game.deadline_at is None or not mine:
            continue
        deadline = deadline_for(game)
        if deadline is None or deadline == game.deadline_at:
            continue
        # Not a move: only the deadline changes. The countdown task, finding it later, arms
        # itself again for it (games/services/autoplay.py); an earlier one the sweep picks up.
        Game.objects.filter(pk=game_id).update(deadline_at=deadline)
        # The game's open pages hear it as they hear a decision's deadline (docs/PROTOCOL.md).
        publish_game_meta(
            game_id,
            "deadline",
            {
                "seq": game.last_seq,
                "seat": game.awaiting_seat,
                "kind": game.awaiting_kind,
                "deadline": deadline.isoformat(),
            },
        )
        moved += 1
    return moved


def _slow_tables_of(user_id: int) -> list[int]:
    """The slow tables the person plays at: seated there, or still playing a running game there."""
    seated = Seat.objects.filter(user_id=user_id, table__pace=Pace.SLOW).exclude(
        table__status=TableStatus.CLOSED
    )
    playing = GameSeat.objects.filter(
        user_id=user_id, bot_playing=False, game__status=GameStatus.RUNNING, game__table__pace=Pace.SLOW
    )
    ids = set(seated.values_list("table_id", flat=True))
    ids |= set(playing.values_list("game__table_id", flat=True))
    return sorted(ids)
