"""ORM work from an event loop (sockets), on the loop's thread pool rather than Channels' one
shared sync thread, so a process's sockets don't queue behind each other. Each call is
self-contained (its own transaction), so nothing relies on thread affinity."""

from __future__ import annotations

import asyncio
import contextvars
import functools
import inspect
import os
from collections.abc import Callable
from typing import Any

from asgiref.sync import SyncToAsync
from django.db import close_old_connections

# The wrapper of each function, made once: a socket's command calls db(game_command_submit) anew
# for every message.
_WRAPPED: dict[Callable[..., Any], Any] = {}


def db(func: Callable[..., Any]) -> Any:
    """`func` as a coroutine function that runs it on the running loop's thread pool, in a copy
    of the caller's context, its connection given back to the pool when it returns.

    One hop to the thread and one back, as `sync_to_async(thread_sensitive=False)` makes, without
    what that adds around each call (a wrapper built per call, its thread-sensitivity checks,
    shield and context copies back and forth): a hop's CPU, both threads together, went from
    71-80 µs to 42-46 µs on uvloop (docs/benchmarks/2026-12-live-play-browser.md).
    Nothing a call sets in its context comes back to the caller: no caller reads any.

    Closed inside the call, the connection goes back to the pool at once: Channels closed old
    connections around its calls, yet the connection a call used was found still open after it
    (Channels 4.3, asgiref 3.13), so each pool thread kept one, and a thread that ended (a loop's
    executor shut down: every test's loop) never gave it back and the process's pool ran dry."""
    found = _WRAPPED.get(func)
    if found is not None:
        return found
    # Only a plain function that lives as long as its module is kept: a closure, a partial or a
    # bound method made per call would each add an entry that is never dropped.
    cached = inspect.isfunction(func) and "<locals>" not in func.__qualname__

    @functools.wraps(func)
    async def hop(*args: Any, **kwargs: Any) -> Any:
        loop = asyncio.get_running_loop()
        context = contextvars.copy_context()
        return await loop.run_in_executor(None, context.run, _call, loop, func, args, kwargs)

    if cached:
        _WRAPPED[func] = hop
    return hop


def _call(loop: asyncio.AbstractEventLoop, func: Callable[..., Any], args: Any, kwargs: Any) -> Any:
    # What asgiref's thread handler would have set: the loop of the socket whose call this is,
    # where an `async_to_sync` inside the call and a publish from it (plumbing/publish.py) go.
    local = SyncToAsync.threadlocal
    local.main_event_loop = loop
    local.main_event_loop_pid = os.getpid()
    close_old_connections()
    try:
        return func(*args, **kwargs)
    finally:
        close_old_connections()
