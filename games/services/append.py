"""The one way events reach a game's log.

Every writer (a person's command, a timer, a bot, a seat handed to a bot or taken back, a table's
next game, a moderator's abort) takes the game's lock with `game_lock` and then calls
`game_append`, which appends the events, stamps the next decision's deadline, ends the game when
the rules say so, writes the game row, arms the follow-ups (a bot's move, the countdown) and, once
committed, publishes what every viewer needs and caches the new state.
"""

from __future__ import annotations

import logging
from collections.abc import Collection
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from harehra_site.errors import ServiceError
from ratings.services import ratings_record_game

from .. import sql
from ..engine import Decision, Event, GameState, Result
from ..eventlog import number_events, remember_state_at, save_snapshot
from ..followups import followups_arm
from ..models import Game, GameSeat, GameStatus, Seat, Table, TableStatus
from ..publish import publish_game_push, publish_table_changed
from ..push import SEAT_CONTROL_EVENTS, push_message
from ..selectors import presence_of, seat_names

log = logging.getLogger(__name__)
# The snapshot is refreshed when the log crosses a multiple of this, so a cold load folds fewer
# than this many events on top of it, and most moves skip the snapshot write.
SNAPSHOT_EVERY = 64


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


def game_lock(game_id: int) -> Game:
    """The game row with its table, both locked for this transaction: the table first, then the
    game, the one lock order of every writer. Game.DoesNotExist if there is none."""
    return sql.locked_game(game_id)


def log_mismatch(game: Game, log_seq: int) -> LogMismatch:
    log.error("game %s: its row says seq %s, its log ends at %s", game.pk, game.last_seq, log_seq)
    return LogMismatch(game.pk, game.last_seq, log_seq)


def game_append(
    game: Game,
    events: list[Event],
    *,
    before: GameState | None,
    after: GameState,
    actor_id: int | None,
    record: sql.CommandRecordRow | None = None,
    bot_seats: Collection[int] | None = None,
) -> list[tuple[int, Event]]:
    """Append `events` to `game`'s log and do everything that goes with it; returns them numbered.

    The caller holds the game's lock (`game_lock`, or the table's lock for a game it has just
    made) inside a transaction. `before` is the state the events apply to (None for a game's first
    events) and `after` the state they fold to. `record` is a person's command record; `bot_seats`,
    when the caller knows them, spares a query.
    """
    assert transaction.get_connection().in_atomic_block, "appending needs the caller's transaction"
    assert events, "nothing to append"
    table: Table = game.table  # fetched with the lock by game_lock
    if any(e["type"] not in SEAT_CONTROL_EVENTS for e in events):
        _stamp_deadline(game, table, events, after)
    ended = after.over and game.status == GameStatus.RUNNING
    if ended:
        _end(game, after)
    first_seq = game.last_seq + 1
    appended = number_events(game, events)
    if bot_seats is None:
        bot_seats = set(GameSeat.objects.filter(game=game, bot_playing=True).values_list("seat", flat=True))
    followups_arm(game, bot_to_move=game.awaiting_seat in bot_seats)
    try:
        sql.write_move(game, first_seq, events, actor_id, record)
    except sql.LogOutOfStep as e:
        # A row already holds one of these seqs: the move is refused, and its transaction (which
        # the failed statement has spoilt) rolls back whole. The sweep sets the game aside.
        log.error("game %s: seq %s is taken in its log, past its row's last seq", game.pk, first_seq)
        raise LogMismatch(game.pk, first_seq - 1, None) from e
    if ended and game.status == GameStatus.FINISHED:
        # Placings and ratings, once, in the transaction that ends the game (never per move).
        ratings_record_game(game_id=game.pk)
    if before is None or after.over or (first_seq - 1) // SNAPSHOT_EVERY != game.last_seq // SNAPSHOT_EVERY:
        save_snapshot(game, after)
    _after_commit(game, appended, before, after, frozenset(bot_seats))
    return appended


def game_end_unappendable(game: Game) -> None:
    """End a running game whose log cannot be appended to (LogMismatch) as aborted, on its row
    alone: its log is left exactly as it is (nothing rewritten, nothing added after rows nobody
    can vouch for), and every reader stops at the row's last seq. The caller holds its lock."""
    game.status, game.result, game.winner_seat = GameStatus.ABORTED, "aborted", None
    game.awaiting_seat, game.awaiting_kind, game.deadline_at, game.timer_armed_for = None, "", None, None
    game.finished_at = timezone.now()
    Game.objects.filter(pk=game.pk).update(
        status=game.status,
        result=game.result,
        winner_seat=None,
        awaiting_seat=None,
        awaiting_kind="",
        deadline_at=None,
        timer_armed_for=None,
        finished_at=game.finished_at,
    )
    people = Seat.objects.filter(table_id=game.table_id, user__isnull=False).exists()
    Table.objects.filter(pk=game.table_id).update(
        status=TableStatus.BETWEEN if people else TableStatus.CLOSED
    )
    table_id = game.table_id
    transaction.on_commit(lambda: publish_table_changed(table_id))


def _timer_for(table: Table, kind: Decision) -> int:
    if kind is Decision.TURN:
        return table.turn_timer
    if kind is Decision.DISCARD:
        return table.discard_timer
    return table.reaction_timer


def _answers_for_itself(game: Game, seat: int) -> bool:
    """Whether the seat chose "answer for me when I can't" (read only when a reaction window opens)."""
    return GameSeat.objects.filter(game=game, seat=seat, auto_answer=True, bot_playing=False).exists()


def _stamp_deadline(game: Game, table: Table, events: list[Event], state: GameState) -> None:
    """Write the deadline into the event that starts the next decision, and onto the game row."""
    awaiting = state.awaiting
    if awaiting is None or state.over:
        game.awaiting_seat, game.awaiting_kind, game.deadline_at = None, "", None
        return
    seconds: float = _timer_for(table, awaiting.kind)
    if awaiting.kind in (Decision.VOLLEY, Decision.SKIP) and _answers_for_itself(game, awaiting.seat):
        # The same short window whether or not the seat holds an answer: its timing tells nothing.
        seconds = min(seconds, settings.AUTO_ANSWER_SECONDS)
    deadline = timezone.now() + timedelta(seconds=seconds)
    events[-1]["deadline"] = deadline.isoformat()
    game.awaiting_seat, game.awaiting_kind, game.deadline_at = awaiting.seat, awaiting.kind.value, deadline


def _end(game: Game, state: GameState) -> None:
    """The game is over: record how, and the table waits for its next game, or closes when no
    person sits there any more."""
    aborted = state.result is Result.ABORTED
    game.status = GameStatus.ABORTED if aborted else GameStatus.FINISHED
    game.result = state.result.value if state.result else ""
    game.winner_seat = None if aborted else state.winner
    game.finished_at = timezone.now()
    people = Seat.objects.filter(table_id=game.table_id, user__isnull=False).exists()
    status = TableStatus.BETWEEN if people else TableStatus.CLOSED
    Table.objects.filter(pk=game.table_id).update(status=status)
    table_id = game.table_id
    transaction.on_commit(lambda: publish_table_changed(table_id))


def _after_commit(
    game: Game,
    appended: list[tuple[int, Event]],
    before: GameState | None,
    after: GameState,
    bot_seats: frozenset[int],
) -> None:
    game_id, replay_key, seq, status = game.pk, game.replay_key, game.last_seq, str(game.status)
    deadline = game.deadline_at.isoformat() if game.deadline_at else None
    frames = game.watched_until is not None and game.watched_until > timezone.now()
    seat_control = before is None or any(e["type"] in SEAT_CONTROL_EVENTS for _, e in appended)

    def publish() -> None:
        remember_state_at(game_id, replay_key, seq, after)
        message = push_message(
            appended=appended,
            before=before,
            after=after,
            status=status,
            deadline=deadline,
            bot_seats=bot_seats,
            names=seat_names(game_id) if frames else (),
            presence=presence_of(game_id) if seat_control else None,
            frames=frames,
        )
        publish_game_push(game_id, message)

    transaction.on_commit(publish)
