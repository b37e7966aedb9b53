"""One handle on Django's cache per process, for the paths every socket and request takes.

Django keeps its cache handles in asgiref's `Local`, which follows the asyncio context: under
ASGI every socket and every request has a context of its own, and the database threads run in a
copy of it (harehra_site/dbthreads.py), so each socket's first cache call made a new handle, a
new Redis connection pool and a new TCP connection to Redis (with redis-py's handshake
commands). A restarted server's pages opened over a thousand of them; a profile of a reconnection
storm put 16% of the server's time in making Redis connections (docs/SCALING.md). The backends
are safe to share between threads (redis-py's pool is; the local-memory cache locks), so one
handle serves them all."""

from __future__ import annotations

import threading

from django.core.cache import BaseCache, caches
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
