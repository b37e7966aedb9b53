"""Notifying a person, marking what they have read, and their choice of channels. Each writes in
the caller's transaction."""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.access import AnyUser, access_signed_in
from plumbing.errors import ServiceError

from .email import notification_email_later
from .hooks import notification_sent
from .models import Channel, Kind, Notification, NotificationPreference
from .publish import publish_notified
from .selectors import CHOOSABLE, wanted_by_default, wants

# Notices a beat sweep keeps in one transaction, each in a savepoint of its own (one's failure
# stops no other): their pushes then go to the worker as one task (webpush/followups.py). Each
# notice is two savepoints (its own, and `once`'s): 25 keep a transaction within the 64
# subtransactions PostgreSQL caches per backend, past which every snapshot slows.
NOTICES_A_TRANSACTION = 25


def notification_send(
    *, user_id: int, kind: Kind, data: dict[str, Any], once: str = ""
) -> Notification | None:
    """Keep a notification for `user_id`; `data` holds names and ids, never hidden information.

    `once` names the occasion of a kind sent at most once per occasion (a decision, a
    tournament's start): a second send of it keeps nothing and returns None. The person's open
    pages hear of it after commit; an email follows from the worker if they chose email for the
    kind (notifications/email.py)."""
    if once:
        try:
            with transaction.atomic():  # a savepoint: the caller's transaction survives a repeat
                notification = Notification.objects.create(user_id=user_id, kind=kind, data=data, once=once)
        except IntegrityError:
            return None
    else:
        notification = Notification.objects.create(user_id=user_id, kind=kind, data=data)
    publish_notified(notification)
    notification_sent.send(notification)
    if wants(user_id, kind, Channel.EMAIL):
        notification_email_later(notification.pk)
    return notification


def notification_mark_read(*, user: AnyUser, ids: list[int] | None = None) -> int:
    """Mark the person's unread notifications read (those of `ids`, else all); how many."""
    access_signed_in(user)
    with transaction.atomic():
        unread = Notification.objects.filter(user_id=user.pk, read_at__isnull=True)
        if ids is not None:
            unread = unread.filter(pk__in=ids)
        return unread.update(read_at=timezone.now())


def notification_preference_set(*, user_id: int, kind: str, channel: str, enabled: bool) -> None:
    """One choice: `kind` on `channel` on or off. A choice equal to the default keeps no row."""
    if kind not in Kind.values:
        raise ServiceError("bad_kind", f"no notification kind {kind!r}")
    if channel not in CHOOSABLE:
        raise ServiceError(
            "bad_channel", "the channels to choose are push and email (the site's is always on)"
        )
    if enabled == wanted_by_default(kind, channel):
        NotificationPreference.objects.filter(user_id=user_id, kind=kind, channel=channel).delete()
        return
    NotificationPreference.objects.update_or_create(
        user_id=user_id, kind=kind, channel=channel, defaults={"enabled": enabled}
    )


def notification_preferences_set(*, user: AnyUser, choices: dict[str, dict[str, bool]]) -> None:
    """Several choices at once ({kind: {channel: on}}), all or none."""
    access_signed_in(user)
    with transaction.atomic():
        for kind, channels in choices.items():
            for channel, enabled in channels.items():
                if channel == Channel.SITE:
                    if not enabled:
                        raise ServiceError("bad_channel", "the site's channel is always on")
                    continue
                notification_preference_set(user_id=user.pk, kind=kind, channel=channel, enabled=enabled)


def notifications_answered(*, user_id: int, kind: Kind, about: dict[str, Any]) -> int:
    """Mark read the person's unread notifications of `kind` whose data holds `about` (the
    challenge they just answered, say): what they acted on no longer waits on the bell."""
    unread = Notification.objects.filter(
        user_id=user_id, kind=kind, read_at__isnull=True, data__contains=about
    )
    return unread.update(read_at=timezone.now())
