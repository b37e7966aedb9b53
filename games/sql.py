"""The queries every move makes, written out by hand.

Building a query with the ORM costs 300 to 600 µs of CPU on this project's machine, against 60 to
70 µs for the same SQL through a cursor. A person's move makes three: `locked_game`, `move_read`
and `write_move` (docs/benchmarks/2026-11-command-service.md). The tables, columns and value
conversions still come from the models, so the models stay the one schema; the same reads run on
PostgreSQL and on the embedded SQLite, where the write runs as its three parts.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, connections, models
from django.db.backends.base.base import BaseDatabaseWrapper
from django.utils import timezone

from accounts.standing import sanction_in_force_params, sanction_in_force_sql
from harehra import StoredEvent
from plumbing.rawsql import Rows, cursor, field_converters, statement

from .models import CommandRecord, Game, GameEvent, GameSeat, GameSnapshot, Table

_DB = "default"


def _db() -> BaseDatabaseWrapper:
    return connections[_DB]


def _table(db: BaseDatabaseWrapper, model: type[models.Model]) -> str:
    return db.ops.quote_name(model._meta.db_table)


def _for_update(db: BaseDatabaseWrapper, of: str | None = None) -> str:
    if not db.features.has_select_for_update:
        return ""
    if of and db.features.has_select_for_update_of:
        return f" FOR UPDATE OF {of}"
    return " FOR UPDATE"


_GAME = Rows(Game, "g")
_TABLE = Rows(Table, "t")
_SEAT = Rows(GameSeat, "s")


def _locked_game_sql(db: BaseDatabaseWrapper) -> str:
    # PostgreSQL locks the rows of a FOR UPDATE OF list in the list's order: the table, then the
    # game, the one lock order of every writer (a move that ends a game updates its table, and
    # leaving a table hands the seat to a bot, so the opposite order in either would deadlock).
    return (
        f"SELECT {_GAME.columns(db)}, {_TABLE.columns(db)} FROM {_table(db, Table)} t "
        f"JOIN {_table(db, Game)} g ON g.table_id = t.id WHERE g.id = %s" + _for_update(db, "t, g")
    )


def locked_game(game_id: int) -> Game:
    """The game row with its table, both locked for this transaction (the table first: see above);
    Game.DoesNotExist if there is none. Every writer to a game takes its lock through this."""
    db = _db()
    sql = statement(db, "locked_game", _locked_game_sql)
    with cursor(db) as cur:
        cur.execute(sql, [game_id])
        row = cur.fetchone()
    if row is None:
        raise Game.DoesNotExist(f"no game {game_id}")
    n = len(_GAME.fields)
    game = _GAME.build(db, row[:n])
    game.table = _TABLE.build(db, row[n:])
    return game


def _log_end_sql(db: BaseDatabaseWrapper) -> str:
    return f"(SELECT COALESCE(MAX(e.seq), 0) FROM {_table(db, GameEvent)} e WHERE e.game_id = %s)"


def log_end(game_id: int) -> int:
    """The last seq the game's log holds (one probe of the (game, seq) index). Read it after
    locking the game: a statement begun before the lock was granted would not see the events
    the lock's holder committed."""
    db = _db()
    with cursor(db) as cur:
        cur.execute("SELECT " + statement(db, "log_end", _log_end_sql), [game_id])
        return int(cur.fetchone()[0])


class LogOutOfStep(Exception):
    """A move's events would take seqs the log already holds: its row is behind its log."""


@dataclass(frozen=True)
class MoveRead:
    """What a person's move reads once it holds the game's lock, in one statement."""

    seats: list[GameSeat]
    sanctioned: bool  # the mover is suspended or banned now
    record: tuple[int, int, int] | None  # (seat, first_seq, last_seq) of an earlier same cmd_id
    log_seq: int  # the last seq the log holds (the game row should say the same)


def _move_read_sql(db: BaseDatabaseWrapper) -> str:

    return (
        f"SELECT {_SEAT.columns(db)}, {sanction_in_force_sql(db)}, r.seat, r.first_seq, r.last_seq, "
        f"{_log_end_sql(db)} "
        f"FROM {_table(db, GameSeat)} s LEFT JOIN {_table(db, CommandRecord)} r "
        "ON r.game_id = s.game_id AND r.user_id = %s AND r.client_cmd_id = %s "
        "WHERE s.game_id = %s ORDER BY s.seat"
    )


def move_read(game_id: int, user_id: int | None, client_cmd_id: str) -> MoveRead:
    """The game's seats, whether the mover is sanctioned, and the record of an earlier command
    with this id. Run it after locking the game (`locked_game`): a statement started before the
    lock was granted would miss what the transaction holding it committed."""

    db = _db()
    sql = statement(db, "move_read", _move_read_sql)
    with cursor(db) as cur:
        cur.execute(sql, [*sanction_in_force_params(db, user_id), game_id, user_id, client_cmd_id, game_id])
        rows = cur.fetchall()
    ns = len(_SEAT.fields)
    seats = [_SEAT.build(db, row[:ns]) for row in rows]
    sanctioned, seat, first_seq, last_seq, log_seq = rows[0][ns:] if rows else (False, None, None, None, 0)
    record = None if seat is None else (seat, first_seq, last_seq)
    return MoveRead(seats, bool(sanctioned), record, int(log_seq))


@dataclass(frozen=True)
class GameRead:
    """A game as a socket open (or a view of it) reads it, in one statement: the game row with its
    table's, its seat rows in seat order (each person's row holding only the username, for the
    seat's name), and whether the reader is suspended or banned now."""

    game: Game
    seats: list[GameSeat]
    sanctioned: bool


def _game_read_sql(db: BaseDatabaseWrapper) -> str:
    User = get_user_model()
    username = db.ops.quote_name(User._meta.get_field(User.USERNAME_FIELD).column)
    return (
        f"SELECT {_GAME.columns(db)}, {_TABLE.columns(db)}, {_SEAT.columns(db)}, "
        f"u.{username}, {sanction_in_force_sql(db)} "
        f"FROM {_table(db, Game)} g JOIN {_table(db, Table)} t ON t.id = g.table_id "
        f"LEFT JOIN {_table(db, GameSeat)} s ON s.game_id = g.id "
        f"LEFT JOIN {_table(db, User)} u ON u.id = s.user_id "
        "WHERE g.id = %s ORDER BY s.seat"
    )


def _seat_connect_sql(db: BaseDatabaseWrapper) -> str:
    return (
        f"UPDATE {_table(db, GameSeat)} SET connections = connections + 1, disconnected_at = NULL "
        "WHERE game_id = %s AND seat = %s RETURNING connections"
    )


def seat_connect(game_id: int, seat: int) -> int | None:
    """One more socket on the seat; its count now (None: no such seat)."""
    db = _db()
    with cursor(db) as cur:
        cur.execute(statement(db, "seat_connect", _seat_connect_sql), [game_id, seat])
        row = cur.fetchone()
    return row[0] if row else None


def game_read(game_id: int, user_id: int | None = None) -> GameRead | None:
    """The game, its table and its seats (`GameRead`), None if there is no such game; `user_id`:
    whose sanctions to look up."""
    db = _db()
    with cursor(db) as cur:
        cur.execute(
            statement(db, "game_read", _game_read_sql), [*sanction_in_force_params(db, user_id), game_id]
        )
        rows = cur.fetchall()
    if not rows:
        return None
    ng, nt, ns = len(_GAME.fields), len(_TABLE.fields), len(_SEAT.fields)
    first = rows[0]
    game = _GAME.build(db, first[:ng])
    game.table = _TABLE.build(db, first[ng : ng + nt])
    username_at = ng + nt + ns
    seats = []
    User = get_user_model()
    for row in rows:
        if row[ng + nt] is None:
            continue  # a game without seat rows (none is made so; the left join keeps the game)
        seat = _SEAT.build(db, row[ng + nt : username_at])
        if seat.user_id is not None:
            # The person's row as far as the seat's name needs it (labels.seat_name).
            GameSeat.user.field.set_cached_value(
                seat,
                User.from_db(
                    db.alias, [User._meta.pk.attname, User.USERNAME_FIELD], [seat.user_id, row[username_at]]
                ),
            )
        seat.game = game
        seats.append(seat)
    return GameRead(game, seats, bool(first[username_at + 1]))


def snapshot_of(game_id: int) -> tuple[int, dict[str, Any]] | None:
    """The game's snapshot as stored: (its seq, its state's dict), None if it has none. Read when
    a process first needs a game's state (games/eventlog.py), as every page of a restarted
    server's games comes back to a server that has never held them."""
    db = _db()
    sql = statement(
        db, "snapshot_of", lambda db: f"SELECT seq, state FROM {_table(db, GameSnapshot)} WHERE game_id = %s"
    )
    converters, col = field_converters(db, GameSnapshot._meta.get_field("state"))
    with cursor(db) as cur:
        cur.execute(sql, [game_id])
        row = cur.fetchone()
    if row is None:
        return None
    seq, state = row
    for convert in converters:
        state = convert(state, col, db)
    return int(seq), state


def events_between(game_id: int, after: int, upto: int) -> list[StoredEvent]:
    """The events with after < seq <= upto, in order, as logged (a deadline kept)."""
    return [event for _, event in events_with_seq_between(game_id, after, upto)]


def events_with_seq_between(game_id: int, after: int, upto: int) -> list[tuple[int, StoredEvent]]:
    """`events_between` with each event's seq: what a socket that missed them is sent."""
    db = _db()
    sql = statement(
        db,
        "events_between",
        lambda db: (
            f"SELECT seq, type, version, payload FROM {_table(db, GameEvent)} "
            "WHERE game_id = %s AND seq > %s AND seq <= %s ORDER BY seq"
        ),
    )
    converters, col = field_converters(db, GameEvent._meta.get_field("payload"))
    with cursor(db) as cur:
        cur.execute(sql, [game_id, after, upto])
        rows = cur.fetchall()
    events: list[tuple[int, StoredEvent]] = []
    for seq, type_, version, data in rows:
        for convert in converters:
            data = convert(data, col, db)
        events.append((seq, {**data, "type": type_, "version": version}))
    return events


Statement = tuple[str, list[Any]]  # SQL text and its parameters


def _run(db: BaseDatabaseWrapper, statement: Statement) -> None:
    with cursor(db) as cur:
        cur.execute(*statement)


def _insert(
    db: BaseDatabaseWrapper, model: type[models.Model], names: Sequence[str], rows: Sequence[Sequence[Any]]
) -> Statement:
    """One INSERT of `rows` (values in the order of the attnames `names`)."""
    fields = [model._meta.get_field(n) for n in names]
    sql = statement(
        db,
        f"insert:{model._meta.label}:{','.join(names)}",
        lambda db: (
            f"INSERT INTO {_table(db, model)} "
            f"({', '.join(db.ops.quote_name(f.column) for f in fields)}) VALUES "
        ),
    )
    one = "(" + ", ".join(["%s"] * len(names)) + ")"
    params = [f.get_db_prep_save(v, db) for row in rows for f, v in zip(fields, row, strict=True)]
    return sql + ", ".join([one] * len(rows)), params


_EVENT_COLUMNS = ("game_id", "seq", "type", "version", "payload", "actor_id", "created_at")


def _insert_event_values(
    db: BaseDatabaseWrapper,
    game_id: int,
    first_seq: int,
    events: Sequence[StoredEvent],
    actor_id: int | None,
) -> Statement:
    now = timezone.now()
    rows = [
        (
            game_id,
            first_seq + i,
            e["type"],
            e["version"],
            {k: v for k, v in e.items() if k not in ("type", "version")},
            actor_id,
            now,
        )
        for i, e in enumerate(events)
    ]
    return _insert(db, GameEvent, _EVENT_COLUMNS, rows)


def _insert_events_from_array(
    db: BaseDatabaseWrapper,
    game_id: int,
    first_seq: int,
    events: Sequence[StoredEvent],
    actor_id: int | None,
) -> Statement:
    """PostgreSQL: the events as one JSON array, split into rows by the database. The text and
    the parameters are then the same whatever the number of events: psycopg converts the text
    once, and PostgreSQL prepares one statement instead of one per length."""
    field = GameEvent._meta.get_field

    def build(db: BaseDatabaseWrapper) -> str:
        columns = ", ".join(db.ops.quote_name(field(n).column) for n in _EVENT_COLUMNS)
        cast = {n: field(n).cast_db_type(db) for n in _EVENT_COLUMNS}
        return (
            f"INSERT INTO {_table(db, GameEvent)} ({columns}) "
            f"SELECT %s::{cast['game_id']}, %s::{cast['seq']} + e.n - 1, e.v ->> 'type', "
            f"(e.v ->> 'version')::{cast['version']}, e.v - 'type' - 'version', "
            f"%s::{cast['actor_id']}, %s::{cast['created_at']} "
            "FROM jsonb_array_elements(%s) WITH ORDINALITY AS e(v, n)"
        )

    sql = statement(db, "insert_events_from_array", build)
    now = field("created_at").get_db_prep_save(timezone.now(), db)
    return sql, [game_id, first_seq, actor_id, now, field("payload").get_db_prep_save(list(events), db)]


def _insert_events(
    db: BaseDatabaseWrapper,
    game_id: int,
    first_seq: int,
    events: Sequence[StoredEvent],
    actor_id: int | None,
) -> Statement:
    insert = _insert_events_from_array if db.vendor == "postgresql" else _insert_event_values
    return insert(db, game_id, first_seq, events, actor_id)


_RECORD_COLUMNS = ("game_id", "user_id", "client_cmd_id", "seat", "first_seq", "last_seq", "created_at")


@dataclass(frozen=True)
class CommandRecordRow:
    """A person's command, kept so that resending its client_cmd_id writes nothing."""

    user_id: int
    client_cmd_id: str
    seat: int


def _insert_command_record(
    db: BaseDatabaseWrapper, game_id: int, record: CommandRecordRow, first_seq: int, last_seq: int
) -> Statement:
    row = (game_id, record.user_id, record.client_cmd_id, record.seat, first_seq, last_seq, timezone.now())
    return _insert(db, CommandRecord, _RECORD_COLUMNS, [row])


# What a move changes on the game row; the rest is set when the game is made.
_GAME_MOVE_FIELDS = (
    "last_seq",
    "status",
    "result",
    "winner_seat",
    "awaiting_seat",
    "awaiting_kind",
    "deadline_at",
    "timer_armed_for",
    "slow_deadline_at",
    "slow_tell",
    "finished_at",
)


def _save_game_move(db: BaseDatabaseWrapper, game: Game) -> Statement:
    fields = [Game._meta.get_field(n) for n in _GAME_MOVE_FIELDS]
    sql = statement(
        db,
        "save_game_move",
        lambda db: (
            f"UPDATE {_table(db, Game)} SET "
            + ", ".join(f"{db.ops.quote_name(f.column)} = %s" for f in fields)
            + " WHERE id = %s"
        ),
    )
    return sql, [*(f.get_db_prep_save(getattr(game, f.attname), db) for f in fields), game.pk]


def write_move(
    game: Game,
    first_seq: int,
    events: Sequence[StoredEvent],
    actor_id: int | None,
    record: CommandRecordRow | None,
) -> None:
    """Append a move's events (seqs first_seq, ...), its command record and the game row's new
    state. On PostgreSQL that is one statement (the inserts as data-modifying WITH clauses): a
    move's round trips and statements are most of what PostgreSQL spends on it. LogOutOfStep if
    the log already holds one of those seqs (the transaction is then unusable: let it roll back)."""
    db = _db()
    last_seq = first_seq + len(events) - 1
    parts = [_insert_events(db, game.pk, first_seq, events, actor_id)]
    if record is not None:
        parts.append(_insert_command_record(db, game.pk, record, first_seq, last_seq))
    update = _save_game_move(db, game)
    if db.vendor == "postgresql":
        clauses = ", ".join(f"w{i} AS ({sql})" for i, (sql, _) in enumerate(parts))
        params = [p for _, ps in parts for p in ps]
        statements = [(f"WITH {clauses} {update[0]}", [*params, *update[1]])]
    else:
        statements = [*parts, update]
    try:
        for one in statements:
            _run(db, one)
    except IntegrityError as e:
        if not SEQ_TAKEN.search(str(e)):
            raise
        raise LogOutOfStep(f"game {game.pk}: seq {first_seq} is taken") from e


# A seq already in the log: PostgreSQL names the constraint, the log's or a partition's (each named
# `<partition>_unique_seq`, games/partitions.py); SQLite names its columns.
SEQ_TAKEN = re.compile(r"gameevent\w*_unique_seq|games_gameevent\.seq")


def _mark_watched_sql(db: BaseDatabaseWrapper) -> str:
    return (
        f"UPDATE {_table(db, Game)} SET watched_until = %s "
        "WHERE id = %s AND status = %s AND (watched_until IS NULL OR watched_until < %s)"
    )


def mark_watched(game_id: int, until: Any, renew_before: Any, running: str) -> None:
    """The game's pushes carry replay frames until `until`, if it is `running` and not already
    marked past `renew_before` (games/services/presence.py, game_mark_watched). A watch page's
    heartbeat runs it every few seconds: written out, as the move's statements are."""
    db = _db()
    field = Game._meta.get_field("watched_until")
    with cursor(db) as cur:
        cur.execute(
            statement(db, "mark_watched", _mark_watched_sql),
            [field.get_db_prep_save(until, db), game_id, running, field.get_db_prep_save(renew_before, db)],
        )


def _seat_leave_sql(db: BaseDatabaseWrapper) -> str:
    return (
        f"UPDATE {_table(db, GameSeat)} SET connections = CASE WHEN connections > 0 THEN connections - 1 "
        "ELSE 0 END, disconnected_at = CASE WHEN connections <= 1 THEN %s ELSE disconnected_at END "
        "WHERE game_id = %s AND seat = %s"
    )


def seat_leave(game_id: int, seat: int, now: Any) -> None:
    """One socket fewer on the seat, dated `now` when it was the last: one statement, in its own
    transaction (games/services/presence.py, presence_leave_for_restart)."""
    db = _db()
    field = GameSeat._meta.get_field("disconnected_at")
    with cursor(db) as cur:
        params = [field.get_db_prep_save(now, db), game_id, seat]
        cur.execute(statement(db, "seat_leave", _seat_leave_sql), params)
