"""Every socket and request of a process shares one cache handle, so one Redis connection pool
(plumbing/sharedcache.py): Django's own handle is made anew in each asyncio context, and a
restart's thousand reconnecting pages each opened a connection to Redis."""

from __future__ import annotations

import asyncio

import redis

from plumbing.dbthreads import db
from plumbing.sharedcache import shared_cache
from tests.redis_server import redis_url

REDIS_DB = 5
TASKS = 40


def _renew(i: int) -> None:
    shared_cache().set(f"renewed:{i}", i, 60)


def test_forty_sockets_renewing_presence_open_a_handful_of_redis_connections_not_forty(settings):
    settings.CACHES = {
        "default": {"BACKEND": "plumbing.sharedcache.RedisCache", "LOCATION": redis_url(REDIS_DB)}
    }
    server = redis.Redis.from_url(redis_url(REDIS_DB))
    server.flushdb()
    before = server.info("stats")["total_connections_received"]

    async def sockets() -> None:  # each in a task of its own, as each socket is
        await asyncio.gather(*(asyncio.ensure_future(db(_renew)(i)) for i in range(TASKS)))

    asyncio.run(sockets())
    opened = server.info("stats")["total_connections_received"] - before
    assert shared_cache().get_many([f"renewed:{i}" for i in range(TASKS)]) == {
        f"renewed:{i}": i for i in range(TASKS)
    }
    assert opened <= 8, f"{opened} Redis connections for {TASKS} sockets"  # one per pool thread at most
    # and one redis-py client for all of them, not one made per command
    clients = {id(shared_cache()._cache.get_client(write=True)) for _ in range(3)}
    assert len(clients) == 1
