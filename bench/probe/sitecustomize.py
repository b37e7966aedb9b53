"""Counts what a server process sends to PostgreSQL, for a bench that started it (bench/reconnect.py).

A bench puts this directory first on the server's PYTHONPATH and names a directory in
HAREHRA_BENCH_COUNTS; Python imports this module at start-up, before the site's code, so it
works as well for a server of an older checkout, whose code the bench cannot change. Every
statement goes through psycopg's Cursor.execute or executemany (Django's cursors and the site's
own SQL, plumbing/rawsql.py, alike), so they are counted there, and so are the transactions:
a statement run in autocommit is one, and one that starts a transaction (the connection idle
outside one) opens one, whose COMMIT psycopg sends itself. A thread writes the counts to
`<dir>/<pid>` a few times a second (`statements transactions`); the bench reads them between
phases. Without the variable this module does nothing.
"""

from __future__ import annotations

import os
import threading
import time
from typing import Any


def _install(directory: str) -> None:
    import psycopg
    from psycopg.pq import TransactionStatus

    counts = [0, 0]  # statements, transactions
    lock = threading.Lock()
    execute, executemany = psycopg.Cursor.execute, psycopg.Cursor.executemany

    def _count(cur: Any, statements: int) -> None:
        conn = cur.connection
        starts = conn.autocommit or conn.pgconn.transaction_status == TransactionStatus.IDLE
        with lock:
            counts[0] += statements
            counts[1] += statements if conn.autocommit else int(starts)

    def counted_execute(self: Any, *args: Any, **kwargs: Any) -> Any:
        _count(self, 1)
        return execute(self, *args, **kwargs)

    def counted_executemany(self: Any, query: Any, params_seq: Any, **kwargs: Any) -> Any:
        params_seq = list(params_seq)
        _count(self, len(params_seq))
        return executemany(self, query, params_seq, **kwargs)

    psycopg.Cursor.execute, psycopg.Cursor.executemany = counted_execute, counted_executemany  # type: ignore[method-assign]
    path = os.path.join(directory, str(os.getpid()))

    def write() -> None:
        while True:
            with lock:
                text = f"{counts[0]} {counts[1]}\n"
            with open(path + ".tmp", "w") as f:
                f.write(text)
            os.replace(path + ".tmp", path)
            time.sleep(0.1)

    threading.Thread(target=write, name="bench-counts", daemon=True).start()


if os.environ.get("HAREHRA_BENCH_COUNTS"):
    _install(os.environ["HAREHRA_BENCH_COUNTS"])
