"""The queries every move makes, written out by hand.

Building a query with the ORM costs 300 to 600 µs of CPU on this project's machine, against 60 to
70 µs for the same SQL through a cursor, and a move makes eight of them (docs/BENCHMARKS.md). The
tables, columns and value conversions still come from the models, so the models stay the one
schema, and the same statements run on PostgreSQL and on the embedded SQLite.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from django.db import connections, models
from django.db.backends.base.base import BaseDatabaseWrapper
from django.utils import timezone

from .models import CommandRecord, Game, GameEvent, GameSeat, Table

_DB = "default"
_STATEMENTS: dict[tuple[str, str], str] = {}


def _db() -> BaseDatabaseWrapper:
    return connections[_DB]


@contextmanager
def cursor(db: BaseDatabaseWrapper) -> Iterator[Any]:
    """A cursor for these statements. On PostgreSQL it sends the parameters apart from the SQL
    (server-side binding), which costs less than Django's cursors quoting them into the text.
    Preparing the statements as well was measured and saved nothing."""
    if db.vendor != "postgresql":
        with db.cursor() as cur:
            yield cur
        return
    import psycopg

    db.ensure_connection()
    with db.wrap_database_errors, psycopg.Cursor(db.connection) as cur:
        yield cur


def statement(db: BaseDatabaseWrapper, key: str, build: Callable[[BaseDatabaseWrapper], str]) -> str:
    """The SQL text for `key` on this database's vendor, built once per process."""
    found = _STATEMENTS.get((db.vendor, key))
    if found is None:
        found = _STATEMENTS[(db.vendor, key)] = build(db)
    return found


def _table(db: BaseDatabaseWrapper, model: type[models.Model]) -> str:
    return db.ops.quote_name(model._meta.db_table)


def _for_update(db: BaseDatabaseWrapper, of: str | None = None) -> str:
    if not db.features.has_select_for_update:
        return ""
    if of and db.features.has_select_for_update_of:
        return f" FOR UPDATE OF {of}"
    return " FOR UPDATE"


def _converters(db: BaseDatabaseWrapper, field: models.Field[Any, Any]) -> tuple[list[Any], Any]:
    col = field.get_col(field.model._meta.db_table)
    return db.ops.get_db_converters(col) + field.get_db_converters(db), col


class Rows:
    """Selecting whole rows of one model and turning them into instances, as the ORM would."""

    def __init__(self, model: type[models.Model], alias: str) -> None:
        self.model = model
        self.alias = alias
        self.fields = list(model._meta.concrete_fields)
        self.names = [f.attname for f in self.fields]
        self._by_vendor: dict[str, list[tuple[int, list[Any], Any]]] = {}

    def columns(self, db: BaseDatabaseWrapper) -> str:
        return ", ".join(f"{self.alias}.{db.ops.quote_name(f.column)}" for f in self.fields)

    def select(self, db: BaseDatabaseWrapper) -> str:
        return f"SELECT {self.columns(db)} FROM {_table(db, self.model)} {self.alias}"

    def _converters(self, db: BaseDatabaseWrapper) -> list[tuple[int, list[Any], Any]]:
        """(index, converters, column) for the fields whose database values need converting."""
        found = self._by_vendor.get(db.vendor)
        if found is None:
            found = []
            for i, field in enumerate(self.fields):
                converters, col = _converters(db, field)
                if converters:
                    found.append((i, converters, col))
            self._by_vendor[db.vendor] = found
        return found

    def build(self, db: BaseDatabaseWrapper, values: Sequence[Any]) -> Any:
        row = list(values)
        for i, converters, col in self._converters(db):
            for convert in converters:
                row[i] = convert(row[i], col, db)
        return self.model.from_db(db.alias, self.names, row)


_GAME = Rows(Game, "g")
_TABLE = Rows(Table, "t")
_SEAT = Rows(GameSeat, "s")


def lock_table(table_id: int) -> None:
    db = _db()
    sql = statement(
        db, "lock_table", lambda db: f"SELECT 1 FROM {_table(db, Table)} WHERE id = %s{_for_update(db)}"
    )
    with cursor(db) as cur:
        cur.execute(sql, [table_id])


def _game_with_table_sql(db: BaseDatabaseWrapper, lock: bool) -> str:
    sql = (
        f"SELECT {_GAME.columns(db)}, {_TABLE.columns(db)} FROM {_table(db, Game)} g "
        f"JOIN {_table(db, Table)} t ON t.id = g.table_id WHERE g.id = %s"
    )
    return sql + _for_update(db, "g") if lock else sql


def game_with_table(game_id: int, lock: bool) -> Game:
    """The game row (locked when `lock`) with its table; Game.DoesNotExist when there is none."""
    db = _db()
    sql = statement(db, f"game_with_table:{lock}", lambda db: _game_with_table_sql(db, lock))
    with cursor(db) as cur:
        cur.execute(sql, [game_id])
        row = cur.fetchone()
    if row is None:
        raise Game.DoesNotExist(f"no game {game_id}")
    n = len(_GAME.fields)
    game = _GAME.build(db, row[:n])
    game.table = _TABLE.build(db, row[n:])
    return game


def game_seats(game_id: int) -> list[GameSeat]:
    db = _db()
    sql = statement(db, "game_seats", lambda db: f"{_SEAT.select(db)} WHERE s.game_id = %s ORDER BY s.seat")
    with cursor(db) as cur:
        cur.execute(sql, [game_id])
        return [_SEAT.build(db, row) for row in cur.fetchall()]


def command_record(game_id: int, user_id: int, client_cmd_id: str) -> tuple[int, int, int] | None:
    """(seat, first_seq, last_seq) of the command the user already sent with this id, if any."""
    db = _db()
    sql = statement(
        db,
        "command_record",
        lambda db: (
            f"SELECT seat, first_seq, last_seq FROM {_table(db, CommandRecord)} "
            "WHERE game_id = %s AND user_id = %s AND client_cmd_id = %s"
        ),
    )
    with cursor(db) as cur:
        cur.execute(sql, [game_id, user_id, client_cmd_id])
        row = cur.fetchone()
    return None if row is None else (row[0], row[1], row[2])


def events_between(game_id: int, after: int, upto: int) -> list[dict[str, Any]]:
    """The engine events with after < seq <= upto, in order."""
    db = _db()
    sql = statement(
        db,
        "events_between",
        lambda db: (
            f"SELECT type, version, payload FROM {_table(db, GameEvent)} "
            "WHERE game_id = %s AND seq > %s AND seq <= %s ORDER BY seq"
        ),
    )
    converters, col = _converters(db, GameEvent._meta.get_field("payload"))
    with cursor(db) as cur:
        cur.execute(sql, [game_id, after, upto])
        rows = cur.fetchall()
    events = []
    for type_, version, data in rows:
        for convert in converters:
            data = convert(data, col, db)
        events.append({**data, "type": type_, "version": version})
    return events


def _insert(model: type[models.Model], names: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
    """One INSERT of `rows` (values in the order of the attnames `names`)."""
    db = _db()
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
    with cursor(db) as cur:
        cur.execute(sql + ", ".join([one] * len(rows)), params)


_EVENT_COLUMNS = ("game_id", "seq", "type", "version", "payload", "actor_id", "created_at")


def insert_events(
    game_id: int, first_seq: int, events: Sequence[dict[str, Any]], actor_id: int | None
) -> None:
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
    _insert(GameEvent, _EVENT_COLUMNS, rows)


_RECORD_COLUMNS = ("game_id", "user_id", "client_cmd_id", "seat", "first_seq", "last_seq", "created_at")


def insert_command_record(
    *, game_id: int, user_id: int, client_cmd_id: str, seat: int, first_seq: int, last_seq: int
) -> None:
    row = (game_id, user_id, client_cmd_id, seat, first_seq, last_seq, timezone.now())
    _insert(CommandRecord, _RECORD_COLUMNS, [row])


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
    "finished_at",
)


def save_game_move(game: Game) -> None:
    db = _db()
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
    params = [f.get_db_prep_save(getattr(game, f.attname), db) for f in fields]
    with cursor(db) as cur:
        cur.execute(sql, [*params, game.pk])
