"""A challenge: one person asks named others to a new table (or, a rematch, to the next game of a
table they played at), and each of them answers. Models store and constrain; services decide."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class ChallengeStatus(models.TextChoices):
    PENDING = "pending", _("Waiting for answers")
    STARTED = "started", _("Started")
    DECLINED = "declined", _("Declined")
    EXPIRED = "expired", _("Expired")
    CANCELLED = "cancelled", _("Called off")


class AnswerStatus(models.TextChoices):
    PENDING = "pending", _("Not answered")
    ACCEPTED = "accepted", _("Accepted")
    DECLINED = "declined", _("Declined")


class Challenge(models.Model):
    challenger = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    # The new table's settings, as games.services.tables.TableSettings names them, and the level
    # of the bots that take the seats nobody accepted.
    settings = models.JSONField(default=dict)
    bot_level = models.CharField(max_length=8, default="normal")
    # A rematch names the table whose next game it offers; a challenge gets its table on starting.
    table = models.ForeignKey(
        "games.Table", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    rematch = models.BooleanField(default=False)
    game = models.ForeignKey("games.Game", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    status = models.CharField(max_length=16, choices=ChallengeStatus.choices, default=ChallengeStatus.PENDING)
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [
            models.Index(fields=["expires_at"], condition=Q(status="pending"), name="challenge_pending"),
            models.Index(fields=["challenger", "-created_at"], name="challenge_by_challenger"),
        ]


class ChallengeAnswer(models.Model):
    """One person challenged, and their answer."""

    challenge = models.ForeignKey(Challenge, on_delete=models.CASCADE, related_name="answers")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    status = models.CharField(max_length=16, choices=AnswerStatus.choices, default=AnswerStatus.PENDING)
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["challenge", "user"], name="challenge_answer_once")]
        indexes = [models.Index(fields=["user", "challenge"], name="challenge_answer_by_user")]
