"""Web push's background work: sending notifications to their people's devices."""

from __future__ import annotations

from celery import shared_task

from .sender import push_deliver


@shared_task(name="webpush.tasks.push_send", ignore_result=True)
def push_send(notification_ids: list[int] | int) -> None:
    # A list: the pushes one transaction queued (webpush/followups.py); an int: one, as servers
    # older than the lists queue them.
    push_deliver(notification_ids)
