"""Sending a notification to the person's devices: queued for the worker once the caller's
transaction commits (never sent inside a request or a move, whose answer would wait on a push
service). The task is sent by name, so this module imports no task."""

from __future__ import annotations

from celery import current_app as app
from django.db import transaction

from notifications.models import Channel, Notification
from notifications.selectors import wants

from .selectors import has_subscriptions, push_enabled

PUSH_TASK = "webpush.tasks.push_send"


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
    pk = notification.pk
    transaction.on_commit(lambda: app.send_task(PUSH_TASK, args=[pk]))
