"""What accounts keep besides Django's user: sessions that know their user (so every session of a
user can be ended at once, a ban) and a person's chosen language."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.sessions.base_session import AbstractBaseSession
from django.db import models
from django.utils.module_loading import import_string


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


class Preference(models.Model):
    """A person's settings that follow them from browser to browser."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="preference"
    )
    language = models.CharField(max_length=8, blank=True, default="")  # "" = the browser's
