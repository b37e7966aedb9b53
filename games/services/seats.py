"""Who plays a seat during a game: its person, or a bot standing in for them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction

from harehra.events import seat_reclaimed, seat_taken_by_bot
from plumbing.errors import ServiceError

from ..access import AnyUser, access_game_seat
from ..eventlog import load_state
from ..models import STANDING_SKIP, STANDING_VOLLEY, Game, GameSeat, GameStatus, Seat
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


@dataclass(frozen=True)
class StandingAnswers:
    """A seat's standing answers (GameSeat.standing_volley, standing_skip): what it answers a volley
    and a skip with when its person has not answered by the end of the short window."""

    volley: str
    skip: str

    def as_dict(self) -> dict[str, str]:
        return {"volley": self.volley, "skip": self.skip}


def seat_set_standing_answers(
    *, game: Game, user: AnyUser, volley: Any = None, skip: Any = None
) -> StandingAnswers:
    """The seat's person sets its standing answers (either or both; None leaves one as it is):
    `volley` one of STANDING_VOLLEY ("ask", "taptap": a Hare Taptap when the seat holds one,
    "never"), `skip` one of STANDING_SKIP ("ask", "strom": forward with a Strom when it holds one,
    "never"). Only the seat's own person may, and only they are told (the answer, the game page's
    config, their socket): to anyone else the setting would say what the seat may hold. A window's
    length is fixed when it opens, so the short window comes from the next one the seat is asked
    for; what its end plays is read at that end, so a change within an open window decides it
    (at the moment that window ends anyway, telling nothing). It carries over to the table's next
    games (tables.py _game_create). Returns the seat's standing answers now."""
    if volley is not None and (not isinstance(volley, str) or volley not in STANDING_VOLLEY):
        raise ServiceError("bad_standing_answer", f"volley is one of {', '.join(STANDING_VOLLEY)}")
    if skip is not None and (not isinstance(skip, str) or skip not in STANDING_SKIP):
        raise ServiceError("bad_standing_answer", f"skip is one of {', '.join(STANDING_SKIP)}")
    with transaction.atomic():
        # The game's lock, which the window's end (autoplay.game_deadline_expire) holds while it
        # reads the seat's answer: a change comes wholly before that end or wholly after it.
        game = game_lock(game.pk)
        seat = access_game_seat(game, user)
        row = GameSeat.objects.get(game=game, seat=seat)
        changed = []
        if volley is not None and volley != row.standing_volley:
            row.standing_volley = volley
            changed.append("standing_volley")
        if skip is not None and skip != row.standing_skip:
            row.standing_skip = skip
            changed.append("standing_skip")
        if changed:
            row.save(update_fields=changed)
    return StandingAnswers(row.standing_volley, row.standing_skip)


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
