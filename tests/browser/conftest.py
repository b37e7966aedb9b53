"""Browser tests: a real server process (PostgreSQL, Redis, Celery worker) and the system's Chromium."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.browsers import close_pages, shared_browser
from tests.support.stack import Stack

OUTPUT = Path(__file__).resolve().parents[2] / "test-output"
REDIS_DB = 10
# The sync Playwright API runs an event loop in the test thread; the database teardown of
# transactional tests then sees "an async context". The ORM calls are still made synchronously.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.fixture(scope="module")
def stack_options(request: pytest.FixtureRequest) -> dict[str, Any]:
    """One ASGI server and one Celery worker per browser test module; bots move without delay.
    A module's SITE_ENV (a dict) adds to the processes' environment, e.g. a deck to deal. Modules
    with the same SITE_ENV one after another in a process share the servers (tests/conftest.py:
    `_KeptStack`), all on one Redis database: a process runs one module at a time, and each
    pytest-xdist worker but the first has a Redis server of its own."""
    return {
        "redis_db": REDIS_DB,
        "servers": 1,
        "worker": True,
        "BOT_DELAY_SECONDS": os.environ.get("BROWSER_BOT_DELAY", "0.3"),
        "AWAY_GRACE_SECONDS": "2",
        "DEBUG": "0",
        **getattr(request.module, "SITE_ENV", {}),
    }


@pytest.fixture
def site(stack: Stack) -> Stack:
    """The module's server and worker (tests/conftest.py: `stack`), as a fresh site."""
    return stack


@pytest.fixture(scope="module")
def browser(_browser_closed_in_time: None) -> Iterator[Any]:
    """The process's one Chromium (tests/support/browsers.py); the module's pages are closed at its
    end, with its servers."""
    b = shared_browser()
    yield b
    close_pages(b)


@pytest.fixture
def screenshots() -> Path:
    path = OUTPUT / "screenshots"
    path.mkdir(parents=True, exist_ok=True)
    return path
