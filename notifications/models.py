"""What the site tells a person, kept until they have read it: one row per notification.

A notification names people, tables and games, never a card or anything else a seat hides.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q


class Kind(models.TextChoices):
    FOLLOWER = "follower", "A new follower"
    ANALYSIS_READY = "analysis_ready", "Your requested analysis is ready"
    CHALLENGE = "challenge", "A challenge to a table"


class Notification(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=32, choices=Kind.choices)
    # What the words need: names and ids only (notifications/selectors.py renders them).
    data = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)
    read_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [
            models.Index(fields=["user", "-created_at"], name="notification_newest"),
            models.Index(fields=["user"], condition=Q(read_at__isnull=True), name="notification_unread"),
        ]
