"""Browser tests: a real server process (PostgreSQL, Redis, Celery worker) and the system's Chromium."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.stack import Stack, stack_for_test

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
OUTPUT = Path(__file__).resolve().parents[2] / "test-output"
# Each browser test module may pick its own Redis database so parallel runs never share a broker.
DEFAULT_REDIS_DB = 10
# The sync Playwright API runs an event loop in the test thread; the database teardown of
# transactional tests then sees "an async context". The ORM calls are still made synchronously.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.fixture(scope="module")
def module_site(
    request: pytest.FixtureRequest, django_db_blocker: Any, servers_close_their_connections: None
) -> Iterator[Stack]:
    """One ASGI server and one Celery worker on the test database for a whole test module; bots
    move without delay. A module's SITE_ENV (a dict) adds to the processes' environment, e.g. a
    deck to deal, and its REDIS_DB picks the Redis database."""
    with (
        django_db_blocker.unblock(),
        stack_for_test(
            request.module.__name__.rpartition(".")[2],
            redis_db=getattr(request.module, "REDIS_DB", DEFAULT_REDIS_DB),
            servers=1,
            worker=True,
            BOT_DELAY_SECONDS=os.environ.get("BROWSER_BOT_DELAY", "0.3"),
            AWAY_GRACE_SECONDS="2",
            DEBUG="0",
            **getattr(request.module, "SITE_ENV", {}),
        ) as stack,
    ):
        yield stack


@pytest.fixture
def site(module_site: Stack, transactional_db: Any) -> Stack:
    """The module's server and worker, as a fresh site: the database is emptied after each test
    (transactional_db) and the processes' Redis state (cache, queued tasks) before each one.
    Starting them once per module instead of once per test saves about three seconds a test."""
    module_site.as_new()
    return module_site


# Module scope: Playwright's sync API keeps an event loop running while it is open, which would
# break the asyncio.run() of the socket tests collected after the browser tests.
@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture
def screenshots() -> Path:
    path = OUTPUT / "screenshots"
    path.mkdir(parents=True, exist_ok=True)
    return path
