"""Hand-written SQL for the statements that run on every move (games/sql.py says why), shared by
the apps that own them: a cursor that binds on the server, and statement texts built once."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

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
