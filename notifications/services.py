"""Notifying a person, and marking what they have read. Each writes in the caller's transaction."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from accounts.access import AnyUser, access_signed_in

from .hooks import notification_sent
from .models import Kind, Notification
from .publish import publish_notified


def notification_send(*, user_id: int, kind: Kind, data: dict[str, Any]) -> Notification:
    """Keep a notification for `user_id`; `data` holds names and ids, never hidden information."""
    notification = Notification.objects.create(user_id=user_id, kind=kind, data=data)
    publish_notified(notification)
    notification_sent.send(notification)
    return notification


def notification_mark_read(*, user: AnyUser, ids: list[int] | None = None) -> int:
    """Mark the person's unread notifications read (those of `ids`, else all); how many."""
    access_signed_in(user)
    with transaction.atomic():
        unread = Notification.objects.filter(user_id=user.pk, read_at__isnull=True)
        if ids is not None:
            unread = unread.filter(pk__in=ids)
        return unread.update(read_at=timezone.now())
