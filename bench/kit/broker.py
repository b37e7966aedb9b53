"""The tasks sent to the broker and not yet taken, read off its default queue: what a test or a
bench checks a service sent (no worker of theirs runs them)."""

from __future__ import annotations

from datetime import datetime
from typing import Any, NamedTuple


class Sent(NamedTuple):
    task: str
    eta: datetime | None
    args: list[Any]


def tasks_sent(queue_name: str = "celery") -> list[Sent]:
    """The tasks sent to `queue_name` since the last call, in the order the broker gives them;
    reading takes them off the queue."""
    from celery import current_app as app

    out = []
    with app.connection_for_read() as conn:
        queue = conn.SimpleQueue(queue_name, no_ack=True)
        try:
            while True:
                try:
                    message = queue.get(block=False)
                except queue.Empty:
                    return out
                eta = message.headers.get("eta")
                args = message.decode()[0]
                out.append(Sent(message.headers["task"], datetime.fromisoformat(eta) if eta else None, args))
        finally:
            queue.close()
