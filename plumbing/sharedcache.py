"""One handle on Django's cache per process, for the paths every socket and request takes, and
Django's Redis cache with its clients kept (RedisCache).

Django keeps its cache handles in asgiref's `Local`, which follows the asyncio context: under
ASGI every socket and every request has a context of its own, and the database threads run in a
copy of it (plumbing/dbthreads.py), so each socket's first cache call made a new handle, a
new Redis connection pool and a new TCP connection to Redis (with redis-py's handshake
commands). A restarted server's pages opened over a thousand of them; a profile of a reconnection
storm put 16% of the server's time in making Redis connections (docs/SCALING.md). The backends
are safe to share between threads (redis-py's pool is; the local-memory cache locks), so one
handle serves them all."""

from __future__ import annotations

import threading
from typing import Any

from django.core.cache import BaseCache, caches
from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient
from django.core.signals import setting_changed

_made: dict[str, BaseCache] = {}
_lock = threading.Lock()


def shared_cache(alias: str = "default") -> BaseCache:
    """The process's one handle on the cache `alias` (settings.CACHES)."""
    found = _made.get(alias)
    if found is None:
        with _lock:
            found = _made.get(alias)
            if found is None:
                found = _made[alias] = caches.create_connection(alias)
    return found


def _forget(*, setting: str, **kwargs: object) -> None:
    if setting == "CACHES":  # a test's other cache: made afresh on its next use
        _made.clear()


setting_changed.connect(_forget)


class _KeptClient(RedisCacheClient):
    """Django's Redis cache client makes a new redis-py client around its pool for every command
    (about 0.2 ms: the client's table of reply parsers is built anew each time, as much as the
    command itself took). A redis-py client is safe to share between threads: one per pool."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._kept: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        index = self._get_connection_pool_index(write)
        client = self._kept.get(index)
        if client is None:
            client = self._kept[index] = super().get_client(key, write=write)
        return client


class RedisCache(DjangoRedisCache):
    """Django's Redis cache, with its redis-py clients kept (settings.CACHES)."""

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = _KeptClient
