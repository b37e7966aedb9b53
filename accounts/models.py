"""What accounts keep besides Django's user: a person's chosen language."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Preference(models.Model):
    """A person's settings that follow them from browser to browser."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="preference"
    )
    language = models.CharField(max_length=8, blank=True, default="")  # "" = the browser's
