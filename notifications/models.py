"""What the site tells a person, kept until they have read it: one row per notification; how
each person wants each kind delivered; and the emails sent, for their hourly limit.

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
    YOUR_TURN = "your_turn", "Your decision awaited in a game you are not looking at"
    TOURNAMENT_STARTING = "tournament_starting", "A tournament you entered starts in 5 minutes"
    MODERATION = "moderation", "A moderator's decision about you"
    SLOW_TURN = "slow_turn", "Your decision awaited in a slow game"
    DECISION_MISSED = "decision_missed", "A decision of yours in a slow game was played by a bot"


class Channel(models.TextChoices):
    SITE = "site", "On the site"
    PUSH = "push", "Push"
    EMAIL = "email", "Email"


class Notification(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=32, choices=Kind.choices)
    # What the words need: names and ids only (notifications/selectors.py renders them).
    data = models.JSONField(default=dict)
    # A kind sent at most once per occasion names it here (a decision, a tournament's start):
    # the unique index makes a second send of the same occasion a no-op, whoever races to it.
    once = models.CharField(max_length=80, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    read_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [
            models.Index(fields=["user", "-created_at"], name="notification_newest"),
            models.Index(fields=["user"], condition=Q(read_at__isnull=True), name="notification_unread"),
        ]
        constraints = [
            models.UniqueConstraint(fields=["user", "once"], condition=~Q(once=""), name="notification_once"),
        ]


class NotificationPreference(models.Model):
    """A person's choice for one kind on one channel, kept only where it differs from the
    default (notifications/selectors.py, DEFAULTS). One row per choice rather than a JSON field
    on the person: the unsubscribe link turns one (kind, channel) off in one statement, and a
    kind added later needs no rewrite of anyone's document."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=32, choices=Kind.choices)
    channel = models.CharField(max_length=8, choices=Channel.choices)
    enabled = models.BooleanField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user", "kind", "channel"], name="notification_preference_unique"
            ),
        ]


class NotificationEmail(models.Model):
    """The last email sent to a person about one topic (a game, a tournament, a notification):
    at most one per topic an hour (notifications/email.py)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    topic = models.CharField(max_length=80)
    sent_at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "topic"], name="notification_email_topic")]
