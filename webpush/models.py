"""A browser's push subscription: where a push service takes messages for one person's device.

The endpoint is the push service's URL for that browser (it is the subscription's identity: a
browser that subscribes again, for another account, takes it over); p256dh and auth are the
browser's keys the messages are encrypted to (RFC 8291).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class PushSubscription(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=200)  # the browser's P-256 public key, base64url
    auth = models.CharField(max_length=100)  # the browser's 16-byte auth secret, base64url
    created_at = models.DateTimeField(auto_now_add=True)
    # When a push service last took a message for it (None: never yet).
    last_success_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["user"], name="push_subscription_user")]
