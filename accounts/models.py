"""What accounts keep besides Django's user: sessions that know their user (so every session of a
user can be ended at once, a ban), a person's chosen language, and the account's standing: the
sanctions (suspension, ban) and mutes moderators place on it (moderation/ places and lifts them)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.sessions.base_session import AbstractBaseSession
from django.db import models
from django.db.models import Q
from django.utils.module_loading import import_string
from django.utils.translation import gettext_lazy as _


class UserSession(AbstractBaseSession):
    """Django's database session with the signed-in user's id beside it (Django's documented way
    of extending the database session engine); `accounts.sessions` is the engine."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )

    class Meta:
        db_table = "accounts_user_session"

    @classmethod
    def get_session_store_class(cls) -> Any:
        # The configured engine's store (accounts.sessions), found by name: that module imports
        # this one, and the models never import the code that uses them.
        return import_string(f"{settings.SESSION_ENGINE}.SessionStore")


class ChallengesFrom(models.TextChoices):
    FRIENDS = "friends", _("Friends only")
    ANYONE = "anyone", _("Anyone")
    NOBODY = "nobody", _("Nobody")


class Preference(models.Model):
    """A person's settings that follow them from browser to browser."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="preference"
    )
    language = models.CharField(max_length=8, blank=True, default="")  # "" = the browser's
    # The address the person proved they read (a link sent to it was opened). The account's email
    # (the user's `email`) is verified while the two are equal: a new address is not, until its
    # own link is opened. Only a verified address gets mail (a password reset, notifications).
    email_verified = models.EmailField(blank=True, default="")
    # Who may challenge the person to a table (challenges/): friends by default, as on Lichess.
    challenges_from = models.CharField(
        max_length=8, choices=ChallengesFrom.choices, default=ChallengesFrom.FRIENDS
    )


class SanctionKind(models.TextChoices):
    SUSPEND = "suspend", "Suspension"
    BAN = "ban", "Ban"


class Restraint(models.Model):
    """What sanctions and mutes share: a restraint on its `user` from its creation until `until`
    (none: until lifted). Lifting records who and why; nothing is deleted."""

    until = models.DateTimeField(null=True, blank=True)
    reason = models.TextField()
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    lifted_at = models.DateTimeField(null=True, blank=True)
    lifted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    lift_reason = models.TextField(blank=True, default="")

    class Meta:
        abstract = True


class Sanction(Restraint):
    """A suspension (until a time) or a ban (no end)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="sanctions")
    kind = models.CharField(max_length=16, choices=SanctionKind.choices)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["user", "lifted_at"], name="sanction_user_lifted")]
        constraints = [
            models.CheckConstraint(
                condition=Q(kind="ban", until__isnull=True) | Q(kind="suspend", until__isnull=False),
                name="sanction_until_matches_kind",
            ),
        ]
        permissions = [("sanction_user", "Can suspend, ban and lift sanctions on users")]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} of {self.user}"


class Mute(Restraint):
    """A restraint that stops a user chatting (until a time, or until lifted) but not playing."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="mutes")

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["user", "lifted_at"], name="mute_user_lifted")]
        permissions = [("moderate_chat", "Can hide chat messages and mute users")]

    def __str__(self) -> str:
        return f"Mute of {self.user}"
