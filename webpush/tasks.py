"""Web push's background work: sending one notification to the person's devices."""

from __future__ import annotations

from celery import shared_task

from .sender import push_deliver


@shared_task(name="webpush.tasks.push_send", ignore_result=True)
def push_send(notification_id: int) -> None:
    push_deliver(notification_id)
