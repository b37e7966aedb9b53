"""Counts what a server process sends to PostgreSQL (statements and transactions, at psycopg's
Cursor.execute and executemany) into `<HAREHRA_BENCH_COUNTS>/<pid>`, for bench/reconnect.py. Put
first on PYTHONPATH, it is imported at start-up, so it counts an older checkout's servers too."""

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
