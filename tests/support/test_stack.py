"""The test harness's own promise: a shared stack is handed to the next test with Redis emptied
but Celery's queue bindings kept (tests/support/stack.py)."""

from __future__ import annotations

import redis

from tests.redis_server import redis_url
from tests.support.stack import forget_site_state

REDIS_DB = 5


def test_forgetting_a_sites_state_keeps_only_the_queue_bindings() -> None:
    url = redis_url(REDIS_DB)
    r = redis.Redis.from_url(url)
    r.flushdb()
    r.sadd("_kombu.binding.celery", "celery\x06\x16\x06\x16celery")
    r.set(":1:harehra:throttle_sign_in_1.2.3.4", "3")  # the cache's keys, as Django prefixes them
    r.rpush("celery", '{"task": "games.tasks.bot_move"}')  # a task the last test left queued
    r.hset("unacked", "tag", "{}")

    forget_site_state(url)

    assert sorted(r.keys()) == [b"_kombu.binding.celery"]
    assert r.smembers("_kombu.binding.celery") == {b"celery\x06\x16\x06\x16celery"}
    r.flushdb()
