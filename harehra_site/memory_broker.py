"""The embedded run's broker: kombu's memory transport, serving each queue by priority.

kombu's memory transport keeps a plain FIFO queue and ignores a message's priority, so in the
embedded server of `bash scripts/run` an analysis someone asked for (priority 0) would wait behind
every automatic one queued before it (priority 9: analysis.services.AUTOMATIC_PRIORITY). Here each
queue hands out the message of the lowest priority number first, as the Redis transport does (0
first), and messages of one priority in the order they came. Named by the settings
(CELERY_BROKER_TRANSPORT) when there is no Redis.
"""

from __future__ import annotations

import itertools
import queue
from typing import Any

from kombu.transport import memory


class _ByPriority(queue.PriorityQueue):  # type: ignore[type-arg]
    """A queue of messages, the lowest priority number first, then first come first served."""

    def __init__(self) -> None:
        super().__init__()
        self._order = itertools.count()

    def _put(self, item: Any) -> None:
        priority = int((item.get("properties") or {}).get("priority") or 0)
        super()._put((priority, next(self._order), item))

    def _get(self) -> Any:
        return super()._get()[2]


class Channel(memory.Channel):
    # The memory transport's queues are one dict for the whole process (its class attribute), so
    # the site's worker and the analyst, each on a Celery app of its own, reach the same queues.

    def _new_queue(self, queue: str, **kwargs: Any) -> None:
        if queue not in self.queues:
            self.queues[queue] = _ByPriority()

    def _queue_for(self, queue: str) -> Any:
        if queue not in self.queues:
            self.queues[queue] = _ByPriority()
        return self.queues[queue]

    def _purge(self, queue: str) -> int:
        q = self._queue_for(queue)
        with q.mutex:
            size = len(q.queue)
            q.queue.clear()
        return size


class Transport(memory.Transport):
    Channel = Channel
