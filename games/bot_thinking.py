"""Where a bot that searches thinks: in a child process, not on the thread of the task that moves it.

The hard bot's search (harehra/bots/search.py) is a few hundred milliseconds of pure Python per
decision, holding the interpreter's lock of whatever process runs it. In the embedded server that
is the server's own process: every socket waited on it, and on a busy machine a thread that holds
the lock and is not scheduled stalls the event loop for as long (up to half a second, three to ten
times as often with hard bots). In a `celery worker` its
searches hold up the worker's own event loop, which starts the timed tasks. A child process
thinks instead; the task's thread waits for the answer without the lock. BOT_THINK_PROCESSES
child processes (0: every bot thinks on the task's thread, as before) serve a whole process.

The choice is the same wherever it is made: a bot's randomness is seeded from the view alone.
"""

from __future__ import annotations

import logging
import os
import threading
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from django.conf import settings

from games.lifeline import end_with, forkserver_context
from harehra.bots import SEARCHING_LEVELS, bot_choose

log = logging.getLogger(__name__)
_pool: ProcessPoolExecutor | None = None
_pool_lock = threading.Lock()


def _thinkers() -> ProcessPoolExecutor:
    global _pool
    with _pool_lock:
        if _pool is None:
            # forkserver: children forked from a clean one-threaded process, not from this one with
            # its threads (a server's, a worker's) and open connections. They, and the forkserver,
            # end when this process ends, however it ends (games/lifeline.py).
            _pool = ProcessPoolExecutor(
                max_workers=settings.BOT_THINK_PROCESSES,
                mp_context=forkserver_context(),
                initializer=end_with,
                initargs=(os.getpid(),),
            )
        return _pool


def _thinkers_lost(pool: ProcessPoolExecutor) -> None:
    global _pool
    with _pool_lock:
        if _pool is pool:
            _pool = None
    pool.shutdown(wait=False, cancel_futures=True)


def think(level: str, view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
    """The command the bot of `level` chooses from `view` and `legal` (see the module's doc)."""
    if settings.BOT_THINK_PROCESSES <= 0 or level not in SEARCHING_LEVELS:
        return bot_choose(level, view, legal)
    pool = _thinkers()
    try:
        return pool.submit(bot_choose, level, view, legal).result()  # type: ignore[no-any-return]
    except BrokenProcessPool:  # a child died (killed, out of memory): think here, start afresh next time
        log.warning("a bot's thinking process died: this bot thinks on the task's thread")
        _thinkers_lost(pool)
        return bot_choose(level, view, legal)
