"""The write path: every event that reaches a game's log goes through here.

A person's command reads top to bottom (`game_command_submit`):

1. lock: the game's table and row, in the one lock order (`game_lock`);
2. read: the seats, the mover's sanction, an earlier command with the same client id and where
   the log ends (a log that does not end where the row says is refused: `LogMismatch`);
3. check: may this user move for this seat now;
4. load: the state at the row's last seq (games/eventlog.py, the read side);
5. decide: the rules engine's `step` (harehra), shuffles recorded in its events;
6. append (`game_append`): number the events, stamp the next decision's deadline, end the game
   when the rules say so ("a game ended": games/ended.py), write events, command record and row
   in one statement (games/sql.py), refresh the snapshot now and then, arm the follow-ups (a
   bot's move, the countdown: games/followups.py);
7. after commit: cache the new state, make every viewer's frame (games/push.py) and hand the
   move's one message to the publish call (games/publish.py, plumbing/publish.py), counted
   with the move's time from its command's arrival (plumbing/metrics.py). The push never
   raises to the mover: a failure there is logged and counted.

Bots and timers (`game_command_submit_for_seat`), seats handed to bots and back, a table's next
game and a moderator's abort take the same lock and the same `game_append`.
"""

from __future__ import annotations

import logging
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games.publish import publish_game_head, publish_game_push, publish_table_changed
from games.push import SEAT_CONTROL_EVENTS, push_message
from harehra import (
    Decision,
    EngineError,
    Event,
    GameState,
    Result,
    StoredEvent,
    abort,
    legal_commands,
    parse_command,
    state_to_dict,
    step,
)
from plumbing import clock, metrics
from plumbing.errors import ServiceError

from .. import sql
from ..access import AnyUser, access_game_seat_row
from ..ended import game_ended
from ..eventlog import events_with_seq, load_state, remember_state_at
from ..followups import followups_arm
from ..models import Game, GameSeat, GameSnapshot, GameStatus, Seat, Table, TableStatus
from ..selectors import game_places, presence_of, seat_names
from .holidays import holiday_deadline_for_seat
from .shuffle import deck_shuffle

log = logging.getLogger(__name__)
# Refusals that depend on the game's state answer 409; a malformed command is a 400.
_BAD_REQUEST_CODES = {"bad_command"}
MAX_CLIENT_CMD_ID = 64
# The snapshot is refreshed when the log crosses a multiple of this, so a cold load folds fewer
# than this many events on top of it, and most moves skip the snapshot write.
SNAPSHOT_EVERY = 64


@dataclass(frozen=True)
class CommandOutcome:
    game_id: int
    seat: int
    events: list[tuple[int, StoredEvent]]  # as logged: the last may carry the next deadline
    duplicate: bool = False

    @property
    def last_seq(self) -> int:
        return self.events[-1][0] if self.events else 0


class LogMismatch(ServiceError):
    """The game's log does not end at the seq its row says (a row written past it, or one
    missing): nothing can be appended until a moderator ends the game."""

    def __init__(self, game_id: int, row_seq: int, log_seq: int | None) -> None:
        super().__init__(
            "log_mismatch",
            "this game's record is damaged and it cannot go on; moderators have been told",
            409,
        )
        self.game_id, self.row_seq, self.log_seq = game_id, row_seq, log_seq


# --- 1. lock ------------------------------------------------------------------------------------


def game_lock(game_id: int) -> Game:
    """The game row with its table, both locked for this transaction: the table first, then the
    game, the one lock order of every writer. Game.DoesNotExist if there is none."""
    return sql.locked_game(game_id)


def log_mismatch(game: Game, log_seq: int | None) -> LogMismatch:
    log.error("game %s: its row says seq %s, its log ends at %s", game.pk, game.last_seq, log_seq)
    return LogMismatch(game.pk, game.last_seq, log_seq)


# --- the writers --------------------------------------------------------------------------------


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
        row = access_game_seat_row(game, user, read.seats, sanctioned=read.sanctioned)
        seat = row.seat
        if read.record is not None:
            first_seat, first_seq, last_seq = read.record
            events = events_with_seq(game, after=first_seq - 1, upto=last_seq)
            # Sent again by a client that got no answer: the server that applied it may have been
            # killed before it pushed the move, leaving the game's other sockets behind with nothing
            # to tell them. Tell them how far the game is; those behind read the rest.
            game_id, head = game.pk, game.last_seq
            publish_game_head(game_id, head)
            return CommandOutcome(game.pk, first_seat, events, duplicate=True)
        if row.bot_playing:
            raise ServiceError("seat_away", "a bot is playing your seat: take it back first", 409)
        if expected_seq is not None and expected_seq != game.last_seq:
            raise ServiceError("stale", f"the game has moved on to seq {game.last_seq}", 409)
        appended = _decide_and_append(
            game,
            seat,
            command,
            actor_id=user.pk,
            bot_seats={r.seat for r in read.seats if r.bot_playing},
            # The mover's missed deadlines end with this move (below): no warning for them.
            warned_seats={r.seat for r in read.seats if r.warned_at(slow=game.slow) and r.seat != seat},
            # A reaction window's length depends on them (_with_deadline): read with the seats.
            answering_seats={(r.seat, k) for r in read.seats for k in _REACTIONS if r.answers_at_once(k)},
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


def game_end_unappendable(game: Game) -> None:
    """End a running game whose log cannot be appended to (LogMismatch) as aborted, on its row
    alone: its log is left exactly as it is (nothing rewritten, nothing added after rows nobody
    can vouch for), and every reader stops at the row's last seq. The caller holds its lock."""
    game.status, game.result, game.winner_seat = GameStatus.ABORTED, "aborted", None
    game.awaiting_seat, game.awaiting_kind, game.deadline_at, game.timer_armed_for = None, "", None, None
    game.slow_deadline_at, game.slow_tell = None, False
    game.finished_at = timezone.now()
    Game.objects.filter(pk=game.pk).update(
        status=game.status,
        result=game.result,
        winner_seat=None,
        awaiting_seat=None,
        awaiting_kind="",
        deadline_at=None,
        timer_armed_for=None,
        slow_deadline_at=None,
        slow_tell=False,
        finished_at=game.finished_at,
    )
    _table_after_game(game)


# --- 4, 5. load and decide ----------------------------------------------------------------------


def _decide_and_append(
    game: Game,
    seat: int,
    command: dict[str, Any],
    actor_id: int | None,
    bot_seats: set[int] | None = None,
    warned_seats: set[int] | None = None,
    record: sql.CommandRecordRow | None = None,
    answering_seats: set[tuple[int, str]] | None = None,
) -> list[tuple[int, StoredEvent]]:
    """Decide and append (with the person's command `record`, if any); `bot_seats` (where bots
    play now), `warned_seats` and `answering_seats` (see game_append), when known, spare a query."""
    if game.status != GameStatus.RUNNING:
        raise ServiceError("game_over", "the game is over", 409)
    state = load_state(game)
    try:
        events, new_state = step(state, parse_command(command, seat=seat), deck_shuffle)
    except EngineError as e:
        code = e.code.value
        raise ServiceError(code, e.detail, 400 if code in _BAD_REQUEST_CODES else 409) from e
    return game_append(
        game,
        events,
        before=state,
        after=new_state,
        actor_id=actor_id,
        record=record,
        bot_seats=bot_seats,
        warned_seats=warned_seats,
        answering_seats=answering_seats,
    )


# --- 6. append ----------------------------------------------------------------------------------


def game_append(
    game: Game,
    events: Sequence[Event],
    *,
    before: GameState | None,
    after: GameState,
    actor_id: int | None,
    record: sql.CommandRecordRow | None = None,
    bot_seats: Collection[int] | None = None,
    warned_seats: Collection[int] | None = None,
    answering_seats: Collection[tuple[int, str]] | None = None,
) -> list[tuple[int, StoredEvent]]:
    """Append `events` to `game`'s log and do everything that goes with it; returns them numbered.

    The caller holds the game's lock (`game_lock`, or the table's lock for a game it has just
    made) inside a transaction. `before` is the state the events apply to (None for a game's first
    events) and `after` the state they fold to. `record` is a person's command record; `bot_seats`
    (where bots play now) and `warned_seats` (the people one more missed deadline hands to a bot:
    GameSeat.away_warned), when the caller knows both, spare a query; so does `answering_seats`
    ((seat, kind) pairs whose reaction windows of that kind are short: "answer for me when I
    can't" or a standing answer), read when a reaction window opens (most moves open one).
    """
    assert transaction.get_connection().in_atomic_block, "appending needs the caller's transaction"
    assert events, "nothing to append"
    logged: Sequence[StoredEvent] = events  # as the log keeps them: with the next deadline
    if any(e["type"] not in SEAT_CONTROL_EVENTS for e in events):
        logged = _with_deadline(game, events, after, answering_seats)
    ended = after.over and game.status == GameStatus.RUNNING
    if ended:
        _end(game, after)
    first_seq = game.last_seq + 1
    game.last_seq = first_seq + len(logged) - 1
    appended = [(first_seq + i, e) for i, e in enumerate(logged)]
    if bot_seats is None or warned_seats is None:
        rows = list(
            GameSeat.objects.filter(game=game).only("seat", "is_bot", "bot_playing", "missed_deadlines")
        )
        bot_seats = {r.seat for r in rows if r.bot_playing}
        warned_seats = {r.seat for r in rows if r.warned_at(slow=game.slow)}
    followups_arm(game, bot_to_move=game.awaiting_seat in bot_seats)
    try:
        sql.write_move(game, first_seq, logged, actor_id, record)
    except sql.LogOutOfStep as e:
        # A row already holds one of these seqs: the move is refused, and its transaction (which
        # the failed statement has spoilt) rolls back whole. The sweep sets the game aside.
        log.error("game %s: seq %s is taken in its log, past its row's last seq", game.pk, first_seq)
        raise LogMismatch(game.pk, first_seq - 1, None) from e
    if ended and game.status == GameStatus.FINISHED:
        game_ended.send(game.pk)
    if before is None or after.over or (first_seq - 1) // SNAPSHOT_EVERY != game.last_seq // SNAPSHOT_EVERY:
        _save_snapshot(game, after)
    _push_after_commit(game, appended, before, after, frozenset(bot_seats), frozenset(warned_seats))
    return appended


def _timer_for(table: Table, kind: Decision) -> int:
    if kind is Decision.TURN:
        return table.turn_timer
    if kind is Decision.DISCARD:
        return table.discard_timer
    return table.reaction_timer


_REACTIONS = ("volley", "skip")


def _answers_for_itself(
    game: Game, seat: int, kind: str, answering_seats: Collection[tuple[int, str]] | None
) -> bool:
    """Whether the seat gets the short window for a reaction of `kind`: "answer for me when I
    can't" or a standing answer for it is on, and no bot plays it (GameSeat.answers_at_once). From
    the seat rows the caller read (`answering_seats`: (seat, kind) pairs), else read now (only
    when a reaction window opens)."""
    if answering_seats is not None:
        return (seat, kind) in answering_seats
    row = (
        GameSeat.objects.filter(game=game, seat=seat)
        .only("bot_playing", "auto_answer", "standing_volley", "standing_skip")
        .first()
    )
    return row is not None and row.answers_at_once(kind)


def _with_deadline(
    game: Game,
    events: Sequence[Event],
    state: GameState,
    answering_seats: Collection[tuple[int, str]] | None = None,
) -> Sequence[StoredEvent]:
    """The events with the next decision's deadline on the last one (the decision it opens), and
    that deadline on the game row. The engine's events are not changed: the deadline is the log
    row's, not the rules'."""
    awaiting = state.awaiting
    if awaiting is None or state.over:
        game.awaiting_seat, game.awaiting_kind, game.deadline_at = None, "", None
        game.slow_tell = False
        return events
    seconds: float = _timer_for(game.table, awaiting.kind)
    reaction = awaiting.kind in (Decision.VOLLEY, Decision.SKIP)
    if reaction and _answers_for_itself(game, awaiting.seat, awaiting.kind.value, answering_seats):
        # The same short window whether or not the seat holds an answer: its timing tells nothing.
        # A standing answer is played at this window's end too, never at once (autoplay.py
        # standing_command): "answer for me", a standing pass and a standing Taptap or Strom,
        # card held or not, all answer at the same moment, so the moment tells nothing of the hand.
        seconds = min(seconds, settings.AUTO_ANSWER_SECONDS)
    elif reaction and game.slow and len(legal_commands(state, awaiting.seat)) < 2:
        # A slow table's reaction waits hours for a seat that could answer, but a seat with no
        # possible answer (declining is its only command) is not kept waiting for its person, nor
        # the table with it: it declines after the short window of "answer for me", the same
        # delay after which a seat that holds an answer and answers for itself declines. A quick
        # decline so tells the others nothing a live table's would not; a seat that could answer
        # is asked (and told: decisions_tell), as a live table's is.
        seconds = min(seconds, settings.AUTO_ANSWER_SECONDS)
    now = clock.now()
    deadline = now + timedelta(seconds=seconds)
    # A slow game's decision that waits for its person (not a reaction answered in seconds
    # whoever holds what, above): they are told of it once, and their holiday pauses it.
    waits_for_person = game.slow and seconds >= settings.YOUR_TURN_MIN_SECONDS
    if waits_for_person:
        deadline = holiday_deadline_for_seat(game.pk, awaiting.seat, deadline, now)
    game.awaiting_seat, game.awaiting_kind, game.deadline_at = awaiting.seat, awaiting.kind.value, deadline
    game.slow_tell = waits_for_person
    return [*events[:-1], {**events[-1], "deadline": deadline.isoformat()}]


def _end(game: Game, state: GameState) -> None:
    """The game is over: record how, and the table waits for its next game, or closes when no
    person sits there any more."""
    aborted = state.result is Result.ABORTED
    game.status = GameStatus.ABORTED if aborted else GameStatus.FINISHED
    game.result = state.result.value if state.result else ""
    game.winner_seat = None if aborted else state.winner
    game.finished_at = timezone.now()
    _table_after_game(game)


def _table_after_game(game: Game) -> None:
    people = Seat.objects.filter(table_id=game.table_id, user__isnull=False).exists()
    status = TableStatus.BETWEEN if people else TableStatus.CLOSED
    Table.objects.filter(pk=game.table_id).update(status=status)
    table_id = game.table_id
    transaction.on_commit(lambda: publish_table_changed(table_id))


def _save_snapshot(game: Game, state: GameState) -> None:
    data: dict[str, Any] = state_to_dict(state)
    updated = GameSnapshot.objects.filter(game=game).update(seq=game.last_seq, state=data)
    if not updated:
        GameSnapshot.objects.create(game=game, seq=game.last_seq, state=data)


# --- 7. after commit: push ----------------------------------------------------------------------


def _push_after_commit(
    game: Game,
    appended: list[tuple[int, StoredEvent]],
    before: GameState | None,
    after: GameState,
    bot_seats: frozenset[int],
    warned_seats: frozenset[int] = frozenset(),
) -> None:
    game_id, replay_key, seq, status = game.pk, game.replay_key, game.last_seq, str(game.status)
    deadline = game.deadline_at.isoformat() if game.deadline_at else None
    frames = game.watched_until is not None and game.watched_until > timezone.now()
    seat_control = before is None or any(e["type"] in SEAT_CONTROL_EVENTS for _, e in appended)

    def push() -> None:
        try:
            remember_state_at(game_id, replay_key, seq, after)
            message = push_message(
                appended=appended,
                before=before,
                after=after,
                status=status,
                deadline=deadline,
                bot_seats=bot_seats,
                warned_seats=warned_seats if status == GameStatus.RUNNING else frozenset(),
                names=seat_names(game_id) if frames else (),
                presence=presence_of(game_id) if seat_control else None,
                frames=frames,
                places=game_places(game_id, status, seq),
            )
            publish_game_push(game_id, message)
            metrics.move_pushed(len(appended))
        except Exception:
            # The move is committed: the mover's answer stands, and the viewers catch up on the
            # next push (each carries the seqs it follows) or when they resume.
            metrics.push_failed()
            log.exception("the push of game %s at seq %s failed", game_id, seq)

    transaction.on_commit(push)
