"""Presence that cannot get stuck: a seat whose sockets ended unseen is away within the grace
period of its last sign of life, whatever happened to them."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest
from django.core.cache import cache

from games.models import GameEvent, GameSeat
from games.services.presence import (
    presence_connect,
    presence_disconnect,
    presence_heartbeat,
    presence_leave_for_restart,
    presence_renew,
    presence_stale_seats,
    presence_sweep,
    seat_presence_reset,
)
from games.services.tables import TableSettings, table_create, table_join, table_start
from games.tasks import sweep_deadlines

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(make_user: Callable[..., Any]) -> Any:
    users = [make_user(), make_user()]
    table = table_create(host=users[0], settings=TableSettings(seats=2))
    table_join(table=table, user=users[1])
    return table_start(table=table, user=users[0])


def _age_lease(game_id: int, seat: int, seconds: float) -> None:
    cache.set(f"seat-seen:{game_id}:{seat}", time.time() - seconds, 600)


def test_a_seat_whose_sockets_ended_unseen_is_handed_to_a_bot(game, settings):
    settings.AWAY_GRACE_SECONDS = 60
    settings.PRESENCE_LEASE_SECONDS = 30
    for _ in range(3):  # three sockets on seat 0 that never say goodbye (a crash, a killed server)
        presence_connect(game_id=game.pk, seat=0)
    presence_connect(game_id=game.pk, seat=1)  # seat 1 keeps renewing
    _age_lease(game.pk, 0, 20)
    assert presence_sweep() == 0  # renewed 20 s ago: still there
    _age_lease(game.pk, 0, 65)  # last renewed 65 s ago: gone for longer than the grace period
    sweep_deadlines()  # the beat's sweep: counts set right, then away seats handed to bots
    row = GameSeat.objects.get(game=game, seat=0)
    assert row.connections == 0 and row.bot_playing
    last = GameEvent.objects.filter(game=game, type="SeatTakenByBot").values_list("payload", flat=True)
    assert list(last) == [{"seat": 0, "reason": "away"}]
    other = GameSeat.objects.get(game=game, seat=1)
    assert other.connections == 1 and not other.bot_playing


def test_a_seat_gone_unseen_waits_out_the_rest_of_its_grace(game, settings):
    settings.AWAY_GRACE_SECONDS = 60
    settings.PRESENCE_LEASE_SECONDS = 30
    presence_connect(game_id=game.pk, seat=0)
    _age_lease(game.pk, 0, 40)
    sweep_deadlines()
    row = GameSeat.objects.get(game=game, seat=0)
    assert row.connections == 0 and not row.bot_playing  # 40 s gone: 20 s of grace left
    assert 39 < time.time() - row.disconnected_at.timestamp() < 45


def test_a_renewed_seat_is_never_taken_and_a_goodbye_needs_no_lease(game, settings):
    settings.AWAY_GRACE_SECONDS = 0
    presence_connect(game_id=game.pk, seat=0)
    presence_connect(game_id=game.pk, seat=0)
    presence_disconnect(game_id=game.pk, seat=0)
    presence_renew([(game.pk, 0)])
    sweep_deadlines()
    assert not GameSeat.objects.get(game=game, seat=0).bot_playing
    presence_disconnect(game_id=game.pk, seat=0)  # the last socket said goodbye
    sweep_deadlines()
    assert GameSeat.objects.get(game=game, seat=0).bot_playing


def test_a_restart_close_counts_down_in_silence_and_a_page_that_never_comes_back_is_swept(
    game, settings, django_capture_on_commit_callbacks
):
    settings.AWAY_GRACE_SECONDS = 60
    for _ in range(2):
        presence_connect(game_id=game.pk, seat=0)
    with django_capture_on_commit_callbacks() as told:
        presence_leave_for_restart(game_id=game.pk, seat=0)
        row = GameSeat.objects.get(game=game, seat=0)
        assert (row.connections, row.disconnected_at) == (1, None)  # another socket is still open
        presence_leave_for_restart(game_id=game.pk, seat=0)
        presence_leave_for_restart(game_id=game.pk, seat=0)  # one close too many stays at 0
    assert told == []  # no presence pushed, no check of its own
    row = GameSeat.objects.get(game=game, seat=0)
    assert row.connections == 0 and time.time() - row.disconnected_at.timestamp() < 5

    # Back on another server within the grace period: present, nothing taken.
    presence_connect(game_id=game.pk, seat=0)
    sweep_deadlines()
    assert not GameSeat.objects.get(game=game, seat=0).bot_playing
    # Closed by the next restart and never back: the sweep hands the seat to a bot once the grace
    # period has passed.
    presence_leave_for_restart(game_id=game.pk, seat=0)
    sweep_deadlines()
    assert not GameSeat.objects.get(game=game, seat=0).bot_playing
    settings.AWAY_GRACE_SECONDS = 0
    cache.delete(f"seat-seen:{game.pk}:0")  # its lease ran out meanwhile
    sweep_deadlines()
    assert GameSeat.objects.get(game=game, seat=0).bot_playing


def test_a_seat_renewed_after_the_sweep_read_it_is_not_counted_out(game, settings):
    """The sweep read the seat's lease run out, then a socket opened on it (or a late heartbeat
    came) before the sweep wrote: the seat keeps its count."""
    settings.PRESENCE_LEASE_SECONDS = 30
    presence_connect(game_id=game.pk, seat=0)
    _age_lease(game.pk, 0, 40)
    ((game_id, seat, last),) = [s for s in presence_stale_seats() if s[:2] == (game.pk, 0)]
    presence_renew([(game.pk, 0)])  # the socket opening renews, then waits for the row
    assert not seat_presence_reset(game_id=game_id, seat=seat, last_seen=last)
    assert GameSeat.objects.get(game=game, seat=0).connections == 1


def test_a_heartbeat_counts_again_a_seat_counted_out_under_its_socket_not_one_that_left(game, settings):
    presence_connect(game_id=game.pk, seat=0)
    presence_connect(game_id=game.pk, seat=1)
    looked_at = time.time()
    _age_lease(game.pk, 0, 60)
    assert seat_presence_reset(game_id=game.pk, seat=0, last_seen=time.time() - 60)
    presence_disconnect(game_id=game.pk, seat=1)  # said goodbye after the heartbeat looked
    assert presence_heartbeat({(game.pk, 0): 2, (game.pk, 1): 1}, looked_at=looked_at) == [game.pk]
    assert GameSeat.objects.get(game=game, seat=0).connections == 2
    assert GameSeat.objects.get(game=game, seat=1).connections == 0
