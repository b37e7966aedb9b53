"""Telling the person's open pages that a notification came: the unread count (the bell) and
what the notification is about, on their own group, after commit (plumbing/publish.py). The
words are the page's to fetch, in its language."""

from __future__ import annotations

from django.db import transaction

from accounts.publish import user_group
from plumbing.publish import send_on_commit

from .models import Notification
from .selectors import notification_url, unread_count


def publish_notified(notification: Notification) -> None:
    """After commit: the person's sockets hear of it, with their unread count then (read in the
    commit hook, so it counts this one and any committed beside it)."""

    def send() -> None:
        message = {
            "type": "user.notified",
            "unread": unread_count(notification.user_id),
            "kind": notification.kind,
            "url": notification_url(notification),
        }
        send_on_commit(user_group(notification.user_id), message)

    transaction.on_commit(send)
