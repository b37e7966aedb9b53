"""The test servers: the kit's stack runner (bench/kit/stack.py), and `stack_for_test`, which starts
it on the test database and the test Redis."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from bench.kit.stack import (
    ANALYST_ARGS,
    ONE_ADDRESS_THROTTLES,
    ROOT,
    SERVER_SETTINGS,
    Stack,
    database_url,
    forget_site_state,
    free_port,
    live_stack,
)

__all__ = [
    "ANALYST_ARGS",
    "ONE_ADDRESS_THROTTLES",
    "OUTPUT",
    "ROOT",
    "SERVER_SETTINGS",
    "Stack",
    "database_url",
    "forget_site_state",
    "free_port",
    "live_stack",
    "stack_for_test",
]

OUTPUT = ROOT / "test-output"


@contextmanager
def stack_for_test(
    name: str, *, redis_db: int, servers: int = 2, worker: bool = True, **extra_env: str
) -> Iterator[Stack]:
    """`live_stack` for a test: on the test database (Django's connection), on Redis database
    `redis_db` of the test Redis (emptied first), logging to test-output/servers/`name`, with the
    settings of bench/kit/server_settings.py unless `extra_env` names others.

    The `stack` fixture (tests/conftest.py) starts it once per module, with the module's
    `stack_options`."""
    import redis
    from django.db import connection

    from tests.redis_server import redis_url

    url = redis_url(redis_db)
    redis.Redis.from_url(url).flushdb()
    # This run's logs only: a test that reads them (test_observability_servers) would otherwise
    # find an earlier run's lines for the same game and command ids.
    log_dir = OUTPUT / "servers" / name
    for old in log_dir.glob("*.log"):
        old.unlink()
    with live_stack(
        database_url=database_url(connection.settings_dict),
        redis_url=url,
        servers=servers,
        worker=worker,
        log_dir=log_dir,
        **{"DJANGO_SETTINGS_MODULE": SERVER_SETTINGS, **extra_env},
    ) as stack:
        yield stack
