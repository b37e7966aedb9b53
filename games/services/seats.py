"""Who plays a seat during a game: its person, or a bot standing in for them."""

from __future__ import annotations

from django.db import transaction

from harehra.events import seat_reclaimed, seat_taken_by_bot
from plumbing.errors import ServiceError

from ..access import AnyUser, access_game_seat
from ..eventlog import load_state
from ..models import Game, GameSeat, GameStatus, Seat
from .moves import game_append, game_lock


def seat_hand_to_bot(*, game: Game, seat: int, reason: str) -> bool:
    """A bot takes `seat` (away, timed out, left or banned); False when one already plays it.

    The caller holds a transaction; the game is locked here (table, then game) if it isn't yet.
    """
    game = game_lock(game.pk)
    if game.status != GameStatus.RUNNING:
        return False
    if not GameSeat.objects.filter(game=game, seat=seat, bot_playing=False).update(bot_playing=True):
        return False
    state = load_state(game)
    game_append(game, [seat_taken_by_bot(seat, reason)], before=state, after=state, actor_id=None)
    return True


def seat_set_auto_answer(*, game: Game, user: AnyUser, on: bool) -> bool:
    """The seat's person turns "answer for me when I can't" on or off; it holds from the next
    reaction window the seat is asked for (docs/RULES.md)."""
    with transaction.atomic():
        game = game_lock(game.pk)
        seat = access_game_seat(game, user)
        GameSeat.objects.filter(game=game, seat=seat).update(auto_answer=on)
    return on


def seat_reclaim(*, game: Game, user: AnyUser) -> int:
    """The seat's person takes it back from the bot and plays on from where it stands."""
    with transaction.atomic():
        game = game_lock(game.pk)
        seat = access_game_seat(game, user)
        if game.status != GameStatus.RUNNING:
            raise ServiceError("game_over", "the game is over", 409)
        if not Seat.objects.filter(table_id=game.table_id, user_id=user.pk).exists():
            # Leaving a table (or being taken off it) hands the seat to a bot for the rest of the
            # game: someone away still holds their chair, someone who left does not.
            raise ServiceError("left_table", "you left this table: a bot plays your seat to the end", 409)
        row = GameSeat.objects.get(game=game, seat=seat)
        if not row.bot_playing:
            raise ServiceError("not_away", "you already hold your seat", 409)
        row.bot_playing = False
        row.missed_deadlines = 0
        row.save(update_fields=["bot_playing", "missed_deadlines"])
        # The new seq makes an armed bot task stale; the append wakes the bots again if one must move.
        state = load_state(game)
        game_append(game, [seat_reclaimed(seat)], before=state, after=state, actor_id=user.pk)
    return seat


def game_replay_set_hidden(*, game: Game, hidden: bool) -> Game:
    """Hide a game's replay (or show it again), under the game's lock; already_hidden or
    not_hidden when it already is. The caller (moderation) checks who may and keeps the record."""
    with transaction.atomic():
        game = game_lock(game.pk)
        if game.replay_hidden == hidden:
            raise ServiceError(
                "already_hidden" if hidden else "not_hidden",
                "the replay is already hidden" if hidden else "the replay is not hidden",
                409,
            )
        Game.objects.filter(pk=game.pk).update(replay_hidden=hidden)
        game.replay_hidden = hidden
    return game
