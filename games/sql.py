"""The queries every move makes, written out by hand.

Building a query with the ORM costs 300 to 600 µs of CPU on this project's machine, against 60 to
70 µs for the same SQL through a cursor, and a move makes eight of them (docs/BENCHMARKS.md). The
tables, columns and value conversions still come from the models, so the models stay the one
schema, and the same statements run on PostgreSQL and on the embedded SQLite.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import connection, models
from django.utils import timezone

from .models import CommandRecord, Game, GameEvent, GameSeat, Table


def _q(name: str) -> str:
    return connection.ops.quote_name(name)


class Rows:
    """Selecting whole rows of one model and turning them into instances, as the ORM would."""

    def __init__(self, model: type[models.Model], alias: str) -> None:
        self.model = model
        self.alias = alias
        self.fields = list(model._meta.concrete_fields)
        self.names = [f.attname for f in self.fields]
        self._by_vendor: dict[str, list[tuple[int, list[Any], Any]]] = {}

    @property
    def table(self) -> str:
        return f"{_q(self.model._meta.db_table)} {self.alias}"

    @property
    def columns(self) -> str:
        return ", ".join(f"{self.alias}.{_q(f.column)}" for f in self.fields)

    def _converters(self, vendor: str) -> list[tuple[int, list[Any], Any]]:
        """(index, converters, column) for the fields whose database values need converting."""
        if vendor in self._by_vendor:
            return self._by_vendor[vendor]
        out = []
        for i, field in enumerate(self.fields):
            col = field.get_col(self.model._meta.db_table)
            found = connection.ops.get_db_converters(col) + field.get_db_converters(connection)
            if found:
                out.append((i, found, col))
        self._by_vendor[vendor] = out
        return out

    def build(self, values: Sequence[Any]) -> Any:
        row = list(values)
        for i, converters, col in self._converters(connection.vendor):
            for convert in converters:
                row[i] = convert(row[i], col, connection)
        return self.model.from_db(connection.alias, self.names, row)


_GAME = Rows(Game, "g")
_TABLE = Rows(Table, "t")
_SEAT = Rows(GameSeat, "s")


def _for_update(of: str | None = None) -> str:
    if not connection.features.has_select_for_update:
        return ""
    if of and connection.features.has_select_for_update_of:
        return f" FOR UPDATE OF {of}"
    return " FOR UPDATE"


def lock_table(table_id: int) -> None:
    with connection.cursor() as cur:
        cur.execute(f"SELECT 1 FROM {_q(Table._meta.db_table)} WHERE id = %s{_for_update()}", [table_id])


def game_with_table(game_id: int, lock: bool) -> Game:
    """The game row (locked when `lock`) with its table; Game.DoesNotExist when there is none."""
    sql = (
        f"SELECT {_GAME.columns}, {_TABLE.columns} FROM {_GAME.table} "
        f"JOIN {_TABLE.table} ON t.id = g.table_id WHERE g.id = %s"
    )
    if lock:
        sql += _for_update("g")
    with connection.cursor() as cur:
        cur.execute(sql, [game_id])
        row = cur.fetchone()
    if row is None:
        raise Game.DoesNotExist(f"no game {game_id}")
    n = len(_GAME.fields)
    game = _GAME.build(row[:n])
    game.table = _TABLE.build(row[n:])
    return game


def game_seats(game_id: int) -> list[GameSeat]:
    sql = f"SELECT {_SEAT.columns} FROM {_SEAT.table} WHERE s.game_id = %s ORDER BY s.seat"
    with connection.cursor() as cur:
        cur.execute(sql, [game_id])
        return [_SEAT.build(row) for row in cur.fetchall()]


def command_record(game_id: int, user_id: int, client_cmd_id: str) -> tuple[int, int, int] | None:
    """(seat, first_seq, last_seq) of the command the user already sent with this id, if any."""
    sql = (
        f"SELECT seat, first_seq, last_seq FROM {_q(CommandRecord._meta.db_table)} "
        "WHERE game_id = %s AND user_id = %s AND client_cmd_id = %s"
    )
    with connection.cursor() as cur:
        cur.execute(sql, [game_id, user_id, client_cmd_id])
        row = cur.fetchone()
    return None if row is None else (row[0], row[1], row[2])


def events_between(game_id: int, after: int, upto: int) -> list[dict[str, Any]]:
    """The engine events with after < seq <= upto, in order."""
    payload = GameEvent._meta.get_field("payload")
    col = payload.get_col(GameEvent._meta.db_table)
    converters = connection.ops.get_db_converters(col) + payload.get_db_converters(connection)
    sql = (
        f"SELECT type, version, payload FROM {_q(GameEvent._meta.db_table)} "
        "WHERE game_id = %s AND seq > %s AND seq <= %s ORDER BY seq"
    )
    with connection.cursor() as cur:
        cur.execute(sql, [game_id, after, upto])
        rows = cur.fetchall()
    events = []
    for type_, version, data in rows:
        for convert in converters:
            data = convert(data, col, connection)
        events.append({**data, "type": type_, "version": version})
    return events


def _prep(model: type[models.Model], name: str, value: Any) -> Any:
    return model._meta.get_field(name).get_db_prep_save(value, connection)


def insert(model: type[models.Model], rows: Sequence[dict[str, Any]]) -> None:
    """INSERT the rows (dicts by attname, all with the same keys) in one statement."""
    names = list(rows[0])
    columns = ", ".join(_q(model._meta.get_field(n).column) for n in names)
    one = "(" + ", ".join(["%s"] * len(names)) + ")"
    params = [_prep(model, n, row[n]) for row in rows for n in names]
    sql = f"INSERT INTO {_q(model._meta.db_table)} ({columns}) VALUES " + ", ".join([one] * len(rows))
    with connection.cursor() as cur:
        cur.execute(sql, params)


def insert_events(
    game_id: int, first_seq: int, events: Sequence[dict[str, Any]], actor_id: int | None
) -> None:
    now = timezone.now()
    insert(
        GameEvent,
        [
            {
                "game_id": game_id,
                "seq": first_seq + i,
                "type": e["type"],
                "version": e["version"],
                "payload": {k: v for k, v in e.items() if k not in ("type", "version")},
                "actor_id": actor_id,
                "created_at": now,
            }
            for i, e in enumerate(events)
        ],
    )


def insert_command_record(
    *, game_id: int, user_id: int, client_cmd_id: str, seat: int, first_seq: int, last_seq: int
) -> None:
    insert(
        CommandRecord,
        [
            {
                "game_id": game_id,
                "user_id": user_id,
                "client_cmd_id": client_cmd_id,
                "seat": seat,
                "first_seq": first_seq,
                "last_seq": last_seq,
                "created_at": timezone.now(),
            }
        ],
    )


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
    sets = ", ".join(f"{_q(Game._meta.get_field(n).column)} = %s" for n in _GAME_MOVE_FIELDS)
    params = [_prep(Game, n, getattr(game, n)) for n in _GAME_MOVE_FIELDS]
    with connection.cursor() as cur:
        cur.execute(f"UPDATE {_q(Game._meta.db_table)} SET {sets} WHERE id = %s", [*params, game.pk])
