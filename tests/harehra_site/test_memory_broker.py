"""The embedded run's broker (harehra_site/memory_broker.py): kombu's memory transport, but each
queue serves the lowest priority number first, as Redis does, so an analysis someone asks for
overtakes the automatic ones waiting (docs/ANALYSIS.md, "Automatic analyses")."""

from __future__ import annotations

import uuid
from typing import Any

from analysis.services import AUTOMATIC_PRIORITY
from bench.kit.broker import tasks_sent
from harehra_site.celery import app


def _drain(queue: str) -> list[Any]:
    """The first argument of each task queued on `queue`, in the order the broker gives them."""
    return [t.args[0] for t in tasks_sent(queue)]


def test_the_site_without_redis_uses_the_priority_memory_broker() -> None:
    with app.connection_for_write() as conn:
        assert conn.transport_cls == "harehra_site.memory_broker:Transport"


def test_a_requested_task_overtakes_automatic_ones_queued_before_it_each_priority_in_order() -> None:
    queue = f"priority-test-{uuid.uuid4().hex}"
    sends = [(1, AUTOMATIC_PRIORITY), (2, AUTOMATIC_PRIORITY), (3, None), (4, AUTOMATIC_PRIORITY), (5, None)]
    for game, priority in sends:
        options = {} if priority is None else {"priority": priority}
        app.send_task("analysis.tasks.analyse_game", args=[game], queue=queue, **options)
    # The requested ones (no priority: 0) first, in the order sent; then the automatic ones.
    assert _drain(queue) == [3, 5, 1, 2, 4]
