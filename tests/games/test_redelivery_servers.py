"""A task a killed worker had taken comes back after the broker's visibility timeout, which the
settings choose (CELERY_VISIBILITY_TIMEOUT; kombu's own is an hour: 78 tasks were left there after
two kills), and then changes nothing: beat's sweep did its work long before. On real Redis with
real `celery worker` processes, the first one killed with SIGKILL while it held the task."""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
import redis
from celery import Celery
from django.utils import timezone

from games.models import Game, GameEvent
from games.services.tables import TableSettings, table_create, table_join, table_start
from games.tasks import sweep_deadlines
from tests.support.stack import stack_for_test
from tests.support.waits import wait_until

pytestmark = [pytest.mark.server, pytest.mark.django_db(transaction=True)]
VISIBILITY = 4  # seconds: the workers' CELERY_VISIBILITY_TIMEOUT here
WORKER = ["--pool", "threads", "--concurrency", "2"]  # no beat: the test runs the sweep itself


def _log(game_id: int) -> list[tuple[int, str]]:
    return list(GameEvent.objects.filter(game_id=game_id).order_by("seq").values_list("seq", "type"))


def test_a_killed_workers_task_comes_back_after_the_visibility_timeout_and_changes_nothing(
    make_user: Callable[..., Any],
) -> None:
    users = [make_user(), make_user()]
    table = table_create(host=users[0], settings=TableSettings(seats=2))
    table_join(table=table, user=users[1])
    game = table_start(table=table, user=users[0])
    armed_seq = Game.objects.get(pk=game.pk).last_seq
    armed_for = timezone.now() - timedelta(minutes=5)
    # The deadline passed long ago; its task was lost with a worker; the sweep applied it.
    Game.objects.filter(pk=game.pk).update(deadline_at=armed_for)
    sweep_deadlines()
    swept = _log(game.pk)
    assert swept[-1][0] > armed_seq

    with stack_for_test(
        "test_redelivery_servers",
        redis_db=12,
        servers=0,
        worker=False,
        CELERY_VISIBILITY_TIMEOUT=str(VISIBILITY),
    ) as stack:
        broker = redis.Redis.from_url(stack.env["REDIS_URL"])
        stack._celery("worker", WORKER)
        first = stack.workers[-1]
        wait_until(lambda: broker.exists("_kombu.binding.celery"), "the worker declared no queue", timeout=60)
        # The deadline's task as the server sent it, held by the worker until its ETA. The sender
        # is not made the process's current app: the site's tasks sent after this test go through it.
        sender = Celery(broker=stack.env["REDIS_URL"], set_as_current=False)
        sender.send_task(
            "games.tasks.deadline_expire",
            args=[game.pk, armed_seq, armed_for.isoformat()],
            eta=timezone.now() + timedelta(seconds=20),
        )
        wait_until(lambda: broker.hlen("unacked") == 1, "the worker did not take the task", timeout=30)
        first.kill()
        first.wait(10)
        taken_at = broker.zrange("unacked_index", 0, -1, withscores=True)[0][1]
        # Past the visibility timeout, a new worker hands it out again at its start.
        time.sleep(max(0.0, taken_at + VISIBILITY + 0.5 - time.time()))
        stack._celery("worker", WORKER)

        def taken_again() -> bool:
            scores = broker.zrange("unacked_index", 0, -1, withscores=True)
            return bool(scores) and scores[0][1] > taken_at

        wait_until(taken_again, "the killed worker's task did not come back", timeout=20)
        # It runs at its ETA, and is acknowledged.
        wait_until(
            lambda: broker.hlen("unacked") == 0 and broker.llen("celery") == 0,
            "the task given back was not run",
            timeout=40,
        )
    assert _log(game.pk) == swept  # nothing changed
