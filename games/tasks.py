"""Celery tasks stay thin: each wakes a service with the seq it was armed for."""

from __future__ import annotations

from celery import shared_task
from django.conf import settings

from .models import Game, GameSeat, GameStatus
from .services.autoplay import due_deadlines, game_bot_move, game_deadline_expire
from .services.presence import seat_mark_away, seats_gone_away


@shared_task(ignore_result=True)
def bot_move(game_id: int, seq: int) -> None:
    game_bot_move(game_id=game_id, guard_seq=seq)


@shared_task(ignore_result=True)
def deadline_expire(game_id: int, seq: int) -> None:
    game_deadline_expire(game_id=game_id, guard_seq=seq)


@shared_task(ignore_result=True)
def sweep_deadlines() -> None:
    """The safety net under the countdown tasks: a lost task delays a timeout by one sweep at most."""
    for game_id, seq in due_deadlines():
        game_deadline_expire(game_id=game_id, guard_seq=seq)
    for game_id, seat in seats_gone_away():
        seat_mark_away(game_id=game_id, seat=seat)


@shared_task(ignore_result=True)
def check_away(game_id: int, seat: int) -> None:
    seat_mark_away(game_id=game_id, seat=seat)


def schedule_followups(game_id: int, seq: int) -> None:
    game = Game.objects.filter(pk=game_id, status=GameStatus.RUNNING, last_seq=seq).first()
    if game is None or game.awaiting_seat is None:
        return
    if GameSeat.objects.filter(game=game, seat=game.awaiting_seat, bot_playing=True).exists():
        bot_move.apply_async((game_id, seq), countdown=settings.BOT_DELAY_SECONDS)
    if game.deadline_at is not None:
        deadline_expire.apply_async((game_id, seq), eta=game.deadline_at)
