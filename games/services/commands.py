"""Every move in every game goes through here: check, lock, decide, append, publish after commit."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from harehra_site.errors import ServiceError

from .. import sql
from ..access import AnyUser, access_game_seat_row
from ..engine import Decision, EngineError, Event, GameState, parse_command, step
from ..eventlog import events_with_seq, load_state, number_events, remember_state_at, save_snapshot
from ..models import Game, GameSeat, GameStatus, Table
from ..publish import publish_game_events
from .shuffle import system_shuffle

# Refusals that depend on the game's state answer 409; a malformed command is a 400.
_BAD_REQUEST_CODES = {"bad_command"}
MAX_CLIENT_CMD_ID = 64
# The snapshot is refreshed when the log crosses a multiple of this, so a cold load folds fewer
# than this many events on top of it, and most commands skip the snapshot write.
SNAPSHOT_EVERY = 64


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
        game = sql.locked_game(game.pk)
        read = sql.move_read(game.pk, user.pk, client_cmd_id)
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
        game = sql.locked_game(game.pk)
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
    """Decide, append (with the person's command `record`, if any) and arm what follows;
    `bot_seats` (where bots play now), when known, spares a query."""
    if game.status != GameStatus.RUNNING:
        raise ServiceError("game_over", "the game is over", 409)
    state = load_state(game)
    try:
        events, new_state = step(state, parse_command(command, seat=seat), system_shuffle)
    except EngineError as e:
        code = e.code.value
        raise ServiceError(code, e.detail, 400 if code in _BAD_REQUEST_CODES else 409) from e
    table = game.table  # fetched with the lock by locked_game (a query only for other callers)
    stamp_deadline(game, table, events, new_state)
    appended = number_events(game, events)
    _record_outcome(game, new_state)
    if new_state.over or (appended[0][0] - 1) // SNAPSHOT_EVERY != game.last_seq // SNAPSHOT_EVERY:
        save_snapshot(game, new_state)
    committed = (game.pk, game.replay_key, game.last_seq)
    transaction.on_commit(lambda: remember_state_at(*committed, new_state))
    transaction.on_commit(lambda: publish_game_events(game.pk, appended))
    bot_to_move = None if bot_seats is None else game.awaiting_seat in bot_seats
    after_commit_followups(game, bot_to_move=bot_to_move)
    sql.write_move(game, appended[0][0], events, actor_id, record)
    return appended


def _timer_for(table: Table, kind: Decision) -> int:
    if kind is Decision.TURN:
        return table.turn_timer
    if kind is Decision.DISCARD:
        return table.discard_timer
    return table.reaction_timer


def stamp_deadline(game: Game, table: Table, events: list[Event], state: GameState) -> None:
    """Write the deadline into the event that starts the next decision, and onto the game row."""
    awaiting = state.awaiting
    if awaiting is None or state.over:
        game.awaiting_seat, game.awaiting_kind, game.deadline_at = None, "", None
        return
    deadline = timezone.now() + timedelta(seconds=_timer_for(table, awaiting.kind))
    events[-1]["deadline"] = deadline.isoformat()
    game.awaiting_seat, game.awaiting_kind, game.deadline_at = awaiting.seat, awaiting.kind.value, deadline


def _record_outcome(game: Game, state: GameState) -> None:
    if not state.over:
        return
    from .tables import game_finish_table

    game.status = GameStatus.FINISHED
    game.result = state.result.value if state.result else ""
    game.winner_seat = state.winner
    game_finish_table(game)


def after_commit_followups(game: Game, *, bot_to_move: bool | None = None) -> None:
    """Once committed: wake a bot if one must move, and make sure a countdown covers the deadline.

    Call it before saving the game row: it may set `timer_armed_for`, which the caller saves.
    """
    if game.status != GameStatus.RUNNING or game.awaiting_seat is None:
        return
    if bot_to_move is None:
        bot_to_move = GameSeat.objects.filter(game=game, seat=game.awaiting_seat, bot_playing=True).exists()
    timer_at = timer_to_arm(game)
    if timer_at is not None:
        game.timer_armed_for = timer_at
    game_id, seq = game.pk, game.last_seq

    def followups() -> None:
        from .. import tasks

        tasks.schedule_followups(game_id, seq, bot_to_move=bot_to_move, timer_at=timer_at)

    if bot_to_move or timer_at is not None:
        transaction.on_commit(followups)


def timer_to_arm(game: Game) -> datetime | None:
    """The moment a new countdown task must fire for the game's deadline, or None if one is armed.

    A game keeps one countdown task pending, not one per decision: a deadline no earlier than the
    pending task's needs none (the task re-arms itself when it finds the game moved on), so a game
    where moves come every second costs a task per timer period, not per move.
    """
    deadline = game.deadline_at
    if deadline is None:
        return None
    armed = game.timer_armed_for
    if armed is not None and timezone.now() < armed <= deadline:
        return None
    return deadline
