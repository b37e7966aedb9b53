"""Subscribing a browser to a person's notifications, and ending that."""

from __future__ import annotations

import base64
import binascii
from urllib.parse import urlsplit

from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from django.db import transaction

from accounts.access import AnyUser, access_signed_in
from plumbing.errors import ServiceError

from .models import PushSubscription
from .selectors import push_enabled

# A person's browsers at most: a new one past it replaces their oldest.
SUBSCRIPTIONS_PER_PERSON = 10
ENDPOINT_MAX_CHARS = 1000


def _b64url(value: str) -> bytes:
    try:
        return base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError):
        return b""


def _host_allowed(host: str) -> bool:
    """The push services the worker may post to: PUSH_SERVICE_HOSTS, where ".example.com" means
    any host under it. The worker posts to the endpoint a browser gave: without this list anyone
    could make it post to any address, inside the site's network too."""
    for allowed in settings.PUSH_SERVICE_HOSTS:
        if host == allowed or (allowed.startswith(".") and host.endswith(allowed)):
            return True
    return False


def _check(endpoint: str, p256dh: str, auth: str) -> None:
    parts = urlsplit(endpoint)
    schemes = ("https", "http") if settings.PUSH_SERVICE_HTTP else ("https",)
    if len(endpoint) > ENDPOINT_MAX_CHARS or parts.scheme not in schemes or not parts.hostname:
        raise ServiceError("bad_subscription", "the endpoint is not a push service's https URL")
    if not _host_allowed(parts.hostname):
        raise ServiceError("unknown_push_service", "this site does not send to that push service")
    key = _b64url(p256dh)
    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), key)
    except ValueError:
        raise ServiceError("bad_subscription", "p256dh is not a P-256 public key (base64url)") from None
    if len(_b64url(auth)) != 16:
        raise ServiceError("bad_subscription", "auth is not a 16-byte secret (base64url)")


def subscription_save(*, user: AnyUser, endpoint: str, p256dh: str, auth: str) -> PushSubscription:
    """Keep the browser's subscription for `user` (a browser subscribed for another account
    before is theirs now: the endpoint names the browser)."""
    access_signed_in(user)
    if not push_enabled():
        raise ServiceError("push_off", "this site sends no push notifications", 409)
    _check(endpoint, p256dh, auth)
    with transaction.atomic():
        subscription, _ = PushSubscription.objects.update_or_create(
            endpoint=endpoint, defaults={"user_id": user.pk, "p256dh": p256dh, "auth": auth}
        )
        older = PushSubscription.objects.filter(user_id=user.pk).order_by("-created_at", "-pk")
        extra = list(older.values_list("pk", flat=True)[SUBSCRIPTIONS_PER_PERSON:])
        if extra:
            PushSubscription.objects.filter(pk__in=extra).delete()
    return subscription


def subscription_delete(*, user: AnyUser, endpoint: str) -> int:
    """End the person's subscription at `endpoint` (none: nothing happens); how many ended."""
    access_signed_in(user)
    deleted, _ = PushSubscription.objects.filter(user_id=user.pk, endpoint=endpoint).delete()
    return deleted
