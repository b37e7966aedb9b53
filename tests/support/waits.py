"""Waiting for a condition, not for a time: read it again until it holds, or fail saying what did
not happen (and, if asked, how things stood)."""

from __future__ import annotations

import asyncio
import inspect
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

T = TypeVar("T")
Said = str | Callable[[], str]


def _say(what: Said, timeout: float) -> str:
    return f"{what() if callable(what) else what} (waited {timeout:g} s)"


def wait_until(test: Callable[[], T], what: Said, timeout: float = 10, every: float = 0.05) -> T:
    """Call `test` until it returns something true, and return that; else fail with `what`."""
    end = time.monotonic() + timeout
    while True:
        got = test()
        if got:
            return got
        if time.monotonic() >= end:
            raise AssertionError(_say(what, timeout))
        time.sleep(every)  # between two readings of the condition


async def until(
    test: Callable[[], T | Awaitable[T]], what: Said, timeout: float = 10, every: float = 0.05
) -> T:
    """`wait_until` in an event loop; `test` may be a coroutine function (e.g. a database read
    through asyncio.to_thread)."""
    end = time.monotonic() + timeout
    while True:
        got: Any = test()
        if inspect.isawaitable(got):
            got = await got
        if got:
            return got  # type: ignore[no-any-return]
        if time.monotonic() >= end:
            raise AssertionError(_say(what, timeout))
        await asyncio.sleep(every)  # between two readings of the condition


async def db_thread(read: Callable[[], T]) -> T:
    """`read` (which uses the ORM) run in a thread from an event loop, as asyncio.to_thread does,
    closing the connection it opened there: none is left open on the test database at teardown."""

    def run() -> T:
        from django.db import connections

        try:
            return read()
        finally:
            connections.close_all()

    return await asyncio.to_thread(run)
