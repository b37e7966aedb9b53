"""ORM work from an event loop (sockets), on the loop's thread pool rather than Channels' one
shared sync thread, so a process's sockets don't queue behind each other. Each call is
self-contained (its own transaction), so nothing relies on thread affinity."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from channels.db import database_sync_to_async
from django.db import close_old_connections


def db(func: Callable[..., Any]) -> Any:
    """`func` run on the thread pool, its connection given back to the pool when it returns.

    Channels closes old connections around the call, yet the connection the call used was found
    still open after it (Channels 4.3, asgiref 3.13): each pool thread kept one. A thread that ends
    (a loop's executor shut down: every test's loop) then never gave it back, and the process's pool
    ran dry. Closed here, inside the call, it goes back at once."""

    @functools.wraps(func)
    def call(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        finally:
            close_old_connections()

    return database_sync_to_async(call, thread_sensitive=False)
