"""Sending a notification to the person's devices: queued for the worker once the caller's
transaction commits (never sent inside a request or a move, whose answer would wait on a push
service). The task is sent by name, so this module imports no task.

The notifications one transaction keeps (a tournament's start tells every entrant) go in one
task per `PUSH_BATCH`: the worker's overhead per task (the broker's message, its ack) is paid once
for them, and their rows are read in two queries (webpush/sender.py)."""

from __future__ import annotations

from typing import Any

from celery import current_app as app
from django.db import transaction

from notifications.models import Channel, Notification
from notifications.selectors import wants

from .selectors import has_subscriptions, push_enabled

PUSH_TASK = "webpush.tasks.push_send"
# Notifications a task at most: enough to pay the task's overhead once for many, few enough that
# the worker's threads share a burst.
PUSH_BATCH = 25


class _Batch:
    """The pushes one transaction queues: one on-commit callback for them all."""

    def __init__(self) -> None:
        self.ids: list[int] = []

    def __call__(self) -> None:
        for first in range(0, len(self.ids), PUSH_BATCH):
            app.send_task(PUSH_TASK, args=[self.ids[first : first + PUSH_BATCH]])


def push_wanted(user_id: int, kind: str) -> bool:
    """Whether `user_id` wants notifications of `kind` pushed to their devices: their choice per
    kind and channel (the notifications settings page)."""
    return wants(user_id, kind, Channel.PUSH)


def push_send_later(notification: Notification) -> None:
    """Subscribed to notifications' `notification_sent`: in the caller's transaction."""
    if not push_enabled() or not push_wanted(notification.user_id, notification.kind):
        return
    if not has_subscriptions(notification.user_id):
        return
    connection = transaction.get_connection()
    if not connection.in_atomic_block:  # autocommit: committed already
        app.send_task(PUSH_TASK, args=[[notification.pk]])
        return
    _batch(connection).ids.append(notification.pk)


def _batch(connection: Any) -> _Batch:
    """The transaction's batch, registered on commit with its first notification. Found among
    the connection's on-commit callbacks (Django's `run_on_commit`), so it goes with them: a
    rollback drops it, and a savepoint's rollback drops it with the savepoint that registered it.
    An id added to it inside a later savepoint that rolls back stays: the worker finds no
    notification for it and skips it."""
    for _, callback, _ in connection.run_on_commit:
        if isinstance(callback, _Batch):
            return callback
    batch = _Batch()
    transaction.on_commit(batch)
    return batch
