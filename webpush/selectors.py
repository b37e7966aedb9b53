"""Reads for web push: whether it is on, its public key, and a person's subscriptions."""

from __future__ import annotations

from django.conf import settings

from .models import PushSubscription


def push_enabled() -> bool:
    """Push is on where the site has a VAPID key pair (docs/OPERATIONS.md, "Web push")."""
    return bool(settings.VAPID_PUBLIC_KEY and settings.VAPID_PRIVATE_KEY)


def vapid_public_key() -> str:
    """The key a browser subscribes with (its applicationServerKey), "" while push is off."""
    return settings.VAPID_PUBLIC_KEY if push_enabled() else ""


def has_subscriptions(user_id: int) -> bool:
    return PushSubscription.objects.filter(user_id=user_id).exists()


def subscriptions_of(user_id: int) -> list[PushSubscription]:
    return list(PushSubscription.objects.filter(user_id=user_id).order_by("pk"))
