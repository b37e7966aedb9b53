"""Sending a notification to every device its person subscribed, through their browsers' push
services (pywebpush: RFC 8291 encryption and an RFC 8292 VAPID header).

The message holds what the bell shows, in the person's language: a title, the notification's
words and the page it opens; nothing hidden (a notification never holds any: notifications/).
A push service that answers 404 or 410 no longer knows the subscription (the browser dropped it,
the person revoked the permission): it is deleted. Any other refusal is logged and the message
dropped: a notification late by minutes is worth less than none, and the site keeps it anyway.
"""

from __future__ import annotations

import json
import logging
import threading
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import requests
from django.conf import settings
from django.db.models import OuterRef, Subquery
from django.utils import timezone, translation
from py_vapid import Vapid
from pywebpush import WebPushException, webpush

from accounts.models import Preference
from notifications.models import Notification
from notifications.selectors import notification_text, notification_url

from .models import PushSubscription
from .selectors import push_enabled

log = logging.getLogger(__name__)

# How long a push service keeps a message for a device that is off (seconds): a turn or a
# challenge is stale after that, and the notifications page still lists it.
TTL_SECONDS = 4 * 3600
# One push service's answer, waited for at most this long (connect, read).
TIMEOUT_SECONDS = 10.0
# The answers that say the push service no longer knows the subscription (RFC 8030 section 7.3).
GONE = (404, 410)
# A subscription's last success is kept to the hour.
LAST_SUCCESS_EVERY = timedelta(hours=1)

_local = threading.local()


@dataclass
class Delivered:
    sent: int = 0
    gone: int = 0
    failed: int = 0


def _session() -> requests.Session:
    """One HTTP session per thread: its connections to each push service are kept open."""
    session = getattr(_local, "session", None)
    if session is None:
        session = _local.session = requests.Session()
    return session


def _vapid() -> Vapid:
    key = settings.VAPID_PRIVATE_KEY
    cached = getattr(_local, "vapid", None)
    if cached is None or cached[0] != key:
        cached = _local.vapid = (key, Vapid.from_string(private_key=key))
    return cached[1]


def push_payload(notification: Notification, language: str = "") -> dict[str, Any]:
    """What the service worker shows (static/sw.js), in the person's chosen `language` (the
    site's when they chose none: a push has no browser to ask)."""
    with translation.override(language or settings.LANGUAGE_CODE):
        return {
            "title": "Harehra Online",
            "body": notification_text(notification),
            "url": notification_url(notification),
            "tag": f"notification-{notification.pk}",
        }


def push_deliver(notification_id: int) -> Delivered:
    """Send notification `notification_id` to each of its person's subscriptions."""
    done = Delivered()
    # The person's chosen language read with the notification: one query.
    chosen = Preference.objects.filter(user_id=OuterRef("user_id")).values("language")[:1]
    notification = Notification.objects.filter(pk=notification_id).annotate(language=Subquery(chosen)).first()
    if notification is None or not push_enabled():
        return done
    subscriptions = list(PushSubscription.objects.filter(user_id=notification.user_id))
    if not subscriptions:
        return done
    data = json.dumps(
        push_payload(notification, getattr(notification, "language", "") or ""), ensure_ascii=False
    )
    now = timezone.now()
    succeeded: list[int] = []
    gone: list[int] = []
    for subscription in subscriptions:
        status = _send_one(subscription, data)
        if status is None:
            # Written at most hourly: a busy person's every push need not write their rows.
            last = subscription.last_success_at
            done.sent += 1
            if last is None or now - last > LAST_SUCCESS_EVERY:
                succeeded.append(subscription.pk)
        elif status in GONE:
            gone.append(subscription.pk)
        else:
            done.failed += 1
    if succeeded:
        PushSubscription.objects.filter(pk__in=succeeded).update(last_success_at=now)
    if gone:
        PushSubscription.objects.filter(pk__in=gone).delete()
    done.gone = len(gone)
    return done


def _send_one(subscription: PushSubscription, data: str) -> int | None:
    """None once the push service took the message, else its HTTP status (0: no answer)."""
    info = {
        "endpoint": subscription.endpoint,
        "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth},
    }
    try:
        webpush(
            info,
            data=data,
            vapid_private_key=_vapid(),
            # A new dict each time: pywebpush writes the audience (the endpoint's origin) into it.
            vapid_claims={"sub": settings.VAPID_SUBJECT},
            ttl=TTL_SECONDS,
            timeout=TIMEOUT_SECONDS,
            headers={"Urgency": "normal"},
            requests_session=_session(),
        )
    except WebPushException as e:
        status = e.response.status_code if e.response is not None else 0
        if status not in GONE:
            log.warning("push to %s refused: %s", _host(subscription.endpoint), status or e)
        return status
    except (requests.RequestException, ValueError) as e:
        log.warning("push to %s failed: %s", _host(subscription.endpoint), e)
        return 0
    return None


def _host(endpoint: str) -> str:
    # The endpoint's path identifies a browser: logs name only the push service.
    return endpoint.split("/")[2] if endpoint.count("/") >= 2 else "?"
