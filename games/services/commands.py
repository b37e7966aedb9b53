"""Every move in every game goes through here: check, lock, decide, append, publish after commit."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction

from harehra_site.errors import ServiceError

from .. import sql
from ..access import AnyUser, access_game_seat_row
from ..engine import EngineError, Event, abort, parse_command, step
from ..eventlog import events_with_seq, load_state
from ..models import Game, GameSeat, GameStatus
from .append import game_append, game_end_unappendable, game_lock, log_mismatch
from .shuffle import deck_shuffle

# Refusals that depend on the game's state answer 409; a malformed command is a 400.
_BAD_REQUEST_CODES = {"bad_command"}
MAX_CLIENT_CMD_ID = 64


@dataclass(frozen=True)
class CommandOutcome:
    game_id: int
    seat: int
    events: list[tuple[int, Event]]
    duplicate: bool = False

    @property
    def last_seq(self) -> int:
        return self.events[-1][0] if self.events else 0


def game_command_submit(
    *,
    game: Game,
    user: AnyUser,
    command: Any,
    client_cmd_id: Any,
    expected_seq: Any = None,
) -> CommandOutcome:
    """A person's command. Resending the same client_cmd_id returns the first outcome, writing nothing."""
    if not isinstance(client_cmd_id, str) or not 1 <= len(client_cmd_id) <= MAX_CLIENT_CMD_ID:
        raise ServiceError("bad_command", f"client_cmd_id is a string of 1 to {MAX_CLIENT_CMD_ID} characters")
    if expected_seq is not None and (isinstance(expected_seq, bool) or not isinstance(expected_seq, int)):
        raise ServiceError("bad_command", "expected_seq is an integer")
    if not isinstance(command, dict):
        raise ServiceError("bad_command", "a command is a JSON object")
    with transaction.atomic():
        game = game_lock(game.pk)
        read = sql.move_read(game.pk, user.pk, client_cmd_id)
        if read.log_seq != game.last_seq and game.status == GameStatus.RUNNING:
            raise log_mismatch(game, read.log_seq)
        rows = read.seats
        row = access_game_seat_row(game, user, rows, sanctioned=read.sanctioned)
        seat = row.seat
        if read.record is not None:
            first_seat, first_seq, last_seq = read.record
            events = events_with_seq(game, after=first_seq - 1, upto=last_seq)
            return CommandOutcome(game.pk, first_seat, events, duplicate=True)
        if row.bot_playing:
            raise ServiceError("seat_away", "a bot is playing your seat: take it back first", 409)
        if expected_seq is not None and expected_seq != game.last_seq:
            raise ServiceError("stale", f"the game has moved on to seq {game.last_seq}", 409)
        bots = {r.seat for r in rows if r.bot_playing}
        appended = _decide_and_append(
            game,
            seat,
            command,
            actor_id=user.pk,
            bot_seats=bots,
            record=sql.CommandRecordRow(user.pk, client_cmd_id, seat),
        )
        if row.missed_deadlines:
            GameSeat.objects.filter(pk=row.pk).update(missed_deadlines=0)
    return CommandOutcome(game.pk, seat, appended)


def game_command_submit_for_seat(
    *, game: Game, seat: int, command: dict[str, Any], guard_seq: int
) -> CommandOutcome | None:
    """A bot's or a timer's command for `seat`, valid only while the game is still at `guard_seq`.

    A late, repeated or superseded task finds the game moved on and changes nothing (None).
    """
    with transaction.atomic():
        game = game_lock(game.pk)
        if game.status != GameStatus.RUNNING or game.last_seq != guard_seq:
            return None
        appended = _decide_and_append(game, seat, command, actor_id=None)
    return CommandOutcome(game.pk, seat, appended)


def _decide_and_append(
    game: Game,
    seat: int,
    command: dict[str, Any],
    actor_id: int | None,
    bot_seats: set[int] | None = None,
    record: sql.CommandRecordRow | None = None,
) -> list[tuple[int, Event]]:
    """Decide and append (with the person's command `record`, if any); `bot_seats` (where bots
    play now), when known, spares a query."""
    if game.status != GameStatus.RUNNING:
        raise ServiceError("game_over", "the game is over", 409)
    state = load_state(game)
    try:
        events, new_state = step(state, parse_command(command, seat=seat), deck_shuffle)
    except EngineError as e:
        code = e.code.value
        raise ServiceError(code, e.detail, 400 if code in _BAD_REQUEST_CODES else 409) from e
    return game_append(
        game, events, before=state, after=new_state, actor_id=actor_id, record=record, bot_seats=bot_seats
    )


def game_abort(*, game: Game, actor_id: int | None) -> int:
    """End a running game with no winner (GameAborted); returns its seq. The caller checks who may
    (a moderator) and keeps its own record of why: the game's log is public with its replay."""
    with transaction.atomic():
        game = game_lock(game.pk)
        if game.status != GameStatus.RUNNING:
            raise ServiceError("game_over", "only a running game can be aborted", 409)
        if sql.log_end(game.pk) != game.last_seq:
            game_end_unappendable(game)
            return game.last_seq
        state = load_state(game)
        events, new_state = abort(state)
        appended = game_append(game, events, before=state, after=new_state, actor_id=actor_id)
    return appended[-1][0]
