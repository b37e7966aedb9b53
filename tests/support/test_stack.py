"""The test harness's own promises: a shared stack is handed to the next test with Redis emptied
but Celery's queue bindings kept, and a stopped stack leaves no process of its running
(tests/support/stack.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
import redis

from tests.redis_server import redis_url
from tests.support.stack import forget_site_state, stack_for_test
from tests.support.waits import wait_until

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


def _children(pid: int) -> list[int]:
    try:
        return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def _running(pid: int) -> bool:
    """Still running: there, and neither a zombie nor dead."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


@pytest.mark.server
@pytest.mark.django_db(transaction=True)
def test_a_killed_workers_beat_does_not_outlive_its_stack() -> None:
    """A worker started with -B runs its beat as a child process; killed (as a worker that would
    not stop in time is), it leaves the beat running. The stack's stop ends it."""
    with stack_for_test("test_stack", redis_db=REDIS_DB, servers=0, worker=True) as stack:
        worker = stack.workers[0]
        beat = wait_until(lambda: _children(worker.pid), "the worker started no beat", timeout=60)
        worker.kill()
        worker.wait(10)
        assert all(_running(pid) for pid in beat), "the beat ended with its worker"
    assert [pid for pid in beat if _running(pid)] == []
