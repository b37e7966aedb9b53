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
import os
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any
from urllib.parse import urlsplit

import requests
from django.conf import settings
from django.db.models import OuterRef, Subquery
from django.utils import timezone, translation
from py_vapid import Vapid
from pywebpush import WebPusher, WebPushException

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
# A VAPID header (a JWT signed with the site's key, RFC 8292) names the push service's origin and
# an expiry, nothing of the message: one serves every push to that origin until it is renewed.
# RFC 8292 allows 24 h; it is made for 12 and renewed with an hour left, so none goes out stale.
VAPID_LIFETIME_SECONDS = 12 * 3600
VAPID_RENEW_BEFORE_SECONDS = 3600

_local = threading.local()
_headers_lock = threading.Lock()
# (private key, subject, origin) -> (expiry, headers): shared by the worker's threads.
_vapid_headers: dict[tuple[str, str, str], tuple[int, dict[str, str]]] = {}


@dataclass
class Delivered:
    sent: int = 0
    gone: int = 0
    failed: int = 0


def _session(origin: str) -> requests.Session:
    """One HTTP session per thread and push service: its connections are kept open. What requests
    would otherwise read from the environment on every request (proxies, their exceptions, a CA
    bundle: a scan of every variable, a tenth of a push's CPU) is read once, for the origin."""
    sessions: dict[str, requests.Session] = _local.__dict__.setdefault("sessions", {})
    session = sessions.get(origin)
    if session is None:
        session = sessions[origin] = requests.Session()
        session.trust_env = False
        session.proxies = requests.utils.get_environ_proxies(origin)
        session.verify = os.environ.get("REQUESTS_CA_BUNDLE") or os.environ.get("CURL_CA_BUNDLE") or True
    return session


def _vapid() -> Vapid:
    key = settings.VAPID_PRIVATE_KEY
    cached = getattr(_local, "vapid", None)
    if cached is None or cached[0] != key:
        cached = _local.vapid = (key, Vapid.from_string(private_key=key))
    return cached[1]


def vapid_headers(origin: str) -> dict[str, str]:
    """The VAPID Authorization header for pushes to `origin` (scheme://host[:port]), signed once
    per origin and lifetime rather than once per push."""
    key, subject = settings.VAPID_PRIVATE_KEY, settings.VAPID_SUBJECT
    now = int(time.time())
    cached = _vapid_headers.get((key, subject, origin))
    if cached is not None and cached[0] - now > VAPID_RENEW_BEFORE_SECONDS:
        return cached[1]
    exp = now + VAPID_LIFETIME_SECONDS
    headers = _vapid().sign({"sub": subject, "aud": origin, "exp": exp})
    with _headers_lock:
        _vapid_headers[(key, subject, origin)] = (exp, headers)
    return headers


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


def push_deliver(notification_ids: Iterable[int] | int) -> Delivered:
    """Send each notification of `notification_ids` to each of its person's subscriptions: two
    queries for them all (the notifications with their people's languages, the subscriptions),
    then one write each for the successes and the subscriptions gone. An id with no notification
    (its transaction rolled back) is skipped."""
    done = Delivered()
    ids = [notification_ids] if isinstance(notification_ids, int) else list(notification_ids)
    if not ids or not push_enabled():
        return done
    chosen = Preference.objects.filter(user_id=OuterRef("user_id")).values("language")[:1]
    notifications = list(
        Notification.objects.filter(pk__in=ids).annotate(language=Subquery(chosen)).order_by("pk")
    )
    if not notifications:
        return done
    by_user: dict[int, list[PushSubscription]] = {}
    for subscription in PushSubscription.objects.filter(user_id__in={n.user_id for n in notifications}):
        by_user.setdefault(subscription.user_id, []).append(subscription)
    now = timezone.now()
    succeeded: set[int] = set()
    gone: set[int] = set()
    for notification in notifications:
        subscriptions = [s for s in by_user.get(notification.user_id, ()) if s.pk not in gone]
        if not subscriptions:
            continue
        data = json.dumps(
            push_payload(notification, getattr(notification, "language", "") or ""), ensure_ascii=False
        )
        for subscription in subscriptions:
            status = _send_one(subscription, data)
            if status is None:
                # Written at most hourly: a busy person's every push need not write their rows.
                last = subscription.last_success_at
                done.sent += 1
                if last is None or now - last > LAST_SUCCESS_EVERY:
                    succeeded.add(subscription.pk)
                    subscription.last_success_at = now
            elif status in GONE:
                gone.add(subscription.pk)
            else:
                done.failed += 1
    if succeeded - gone:
        PushSubscription.objects.filter(pk__in=succeeded - gone).update(last_success_at=now)
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
    parts = urlsplit(subscription.endpoint)
    origin = f"{parts.scheme}://{parts.netloc}"
    try:
        # pywebpush encrypts (RFC 8291: a new ECDH key and salt each message) and posts.
        response = WebPusher(info, requests_session=_session(origin)).send(
            data,
            headers={**vapid_headers(origin), "Urgency": "normal"},
            ttl=TTL_SECONDS,
            timeout=TIMEOUT_SECONDS,
        )
    except (requests.RequestException, ValueError) as e:
        log.warning("push to %s failed: %s", _host(subscription.endpoint), e)
        return 0
    except WebPushException as e:  # a subscription it cannot encrypt to
        log.warning("push to %s not sent: %s", _host(subscription.endpoint), e.message)
        return 0
    status = response.status_code
    if status <= 202:
        return None
    if status not in GONE:
        log.warning("push to %s refused: %s", _host(subscription.endpoint), status)
    return status


def _host(endpoint: str) -> str:
    # The endpoint's path identifies a browser: logs name only the push service.
    return endpoint.split("/")[2] if endpoint.count("/") >= 2 else "?"
