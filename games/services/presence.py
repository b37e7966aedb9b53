"""Who is at the table: open sockets per seat, and seats left empty past the grace period."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from ..followups import followups_check_away
from ..models import GameSeat, GameStatus
from ..publish import publish_game_meta
from ..selectors import presence_of
from .append import game_lock
from .seats import seat_hand_to_bot


def _announce(game_id: int) -> None:
    def send() -> None:
        publish_game_meta(game_id, "presence", {"seats": presence_of(game_id)})

    transaction.on_commit(send)


def presence_connect(*, game_id: int, seat: int) -> None:
    with transaction.atomic():
        GameSeat.objects.filter(game_id=game_id, seat=seat).update(
            connections=F("connections") + 1, disconnected_at=None
        )
        _announce(game_id)


def presence_disconnect(*, game_id: int, seat: int) -> None:
    with transaction.atomic():
        row = GameSeat.objects.select_for_update().filter(game_id=game_id, seat=seat).first()
        if row is None:
            return
        row.connections = max(0, row.connections - 1)
        if row.connections == 0:
            row.disconnected_at = timezone.now()
            transaction.on_commit(lambda: _check_later(game_id, seat))
        row.save(update_fields=["connections", "disconnected_at"])
        _announce(game_id)


def _check_later(game_id: int, seat: int) -> None:
    followups_check_away(game_id, seat, countdown=settings.AWAY_GRACE_SECONDS + 0.5)


def seats_gone_away() -> list[tuple[int, int]]:
    """(game, seat) of people disconnected longer than the grace period while a bot isn't playing."""
    cutoff = timezone.now() - timedelta(seconds=settings.AWAY_GRACE_SECONDS)
    return list(
        GameSeat.objects.filter(
            game__status=GameStatus.RUNNING,
            user__isnull=False,
            bot_playing=False,
            connections=0,
            disconnected_at__lte=cutoff,
        ).values_list("game_id", "seat")
    )


def seat_mark_away(*, game_id: int, seat: int) -> bool:
    """A bot takes the seat, if its person is still gone (checked again under the lock)."""
    cutoff = timezone.now() - timedelta(seconds=settings.AWAY_GRACE_SECONDS)
    with transaction.atomic():
        game = game_lock(game_id)
        row = GameSeat.objects.get(game=game, seat=seat)
        if row.connections or row.disconnected_at is None or row.disconnected_at > cutoff:
            return False
        taken = seat_hand_to_bot(game=game, seat=seat, reason="away")
        if taken:
            _announce(game_id)
        return taken
