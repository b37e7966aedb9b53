"""Hand-written SQL for the statements that run on every move and every socket open (games/sql.py
says why), shared by the apps that own them: a cursor that binds on the server, statement texts
built once, and rows turned into model instances as the ORM would."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from django.db import models
from django.db.backends.base.base import BaseDatabaseWrapper

_STATEMENTS: dict[tuple[str, str], str] = {}


@contextmanager
def cursor(db: BaseDatabaseWrapper) -> Iterator[Any]:
    """A cursor for these statements. On PostgreSQL it sends the parameters apart from the SQL
    (server-side binding), which costs less than Django's cursors quoting them into the text,
    and runs each statement prepared once it has run a few times (settings: prepare_threshold)."""
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


def field_converters(db: BaseDatabaseWrapper, field: models.Field[Any, Any]) -> tuple[list[Any], Any]:
    """What turns the field's database values into Python ones, as the ORM would, and its column."""
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

    def _converters(self, db: BaseDatabaseWrapper) -> list[tuple[int, list[Any], Any]]:
        """(index, converters, column) for the fields whose database values need converting."""
        found = self._by_vendor.get(db.vendor)
        if found is None:
            found = []
            for i, field in enumerate(self.fields):
                converters, col = field_converters(db, field)
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
