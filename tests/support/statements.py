"""Counting the statements this process sends to PostgreSQL, whichever thread sends them: the
site's hand-written SQL (plumbing/rawsql.py) goes to psycopg's cursors past Django's query log,
so the count is taken at psycopg's Cursor, which Django's cursors use too."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


@contextmanager
def statements_sent() -> Iterator[list[str]]:
    """The SQL of each statement sent meanwhile, in order (a statement run for many rows counts once
    per row)."""
    import psycopg

    sent: list[str] = []
    lock = threading.Lock()
    execute, executemany = psycopg.Cursor.execute, psycopg.Cursor.executemany

    def text(query: Any) -> str:
        return query if isinstance(query, str) else repr(query)

    def counted_execute(self: Any, query: Any, *args: Any, **kwargs: Any) -> Any:
        with lock:
            sent.append(text(query))
        return execute(self, query, *args, **kwargs)

    def counted_executemany(self: Any, query: Any, params_seq: Any, **kwargs: Any) -> Any:
        params_seq = list(params_seq)
        with lock:
            sent.extend([text(query)] * len(params_seq))
        return executemany(self, query, params_seq, **kwargs)

    psycopg.Cursor.execute, psycopg.Cursor.executemany = counted_execute, counted_executemany  # type: ignore[method-assign]
    try:
        yield sent
    finally:
        psycopg.Cursor.execute, psycopg.Cursor.executemany = execute, executemany  # type: ignore[method-assign]
