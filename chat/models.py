"""A table's chat: one channel for its players and one for its spectators, append-only.

A hidden message stays in the log (the database refuses UPDATE and DELETE on it); its hiding is a
row of its own, with who hid it and why (the moderators' audit log has the same).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from games.models import Table

MAX_CHARS = 300


class Channel(models.TextChoices):
    PLAYERS = "players", "Players"
    SPECTATORS = "spectators", "Spectators"


class ChatMessage(models.Model):
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="chat_messages", db_index=False)
    channel = models.CharField(max_length=16, choices=Channel.choices)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="chat_messages")
    text = models.CharField(max_length=MAX_CHARS)
    # A line the site writes for the person, not words of theirs: "holiday_started" or
    # "holiday_ended" (chat/notices.py), shown in each reader's language with `notice_at` (the
    # holiday's end); "" for a message a person wrote. `text` keeps it in English for the admin.
    notice = models.CharField(max_length=16, blank=True, default="")
    notice_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        indexes = [
            models.Index(fields=["table", "channel", "-id"], name="chat_table_channel"),
            models.Index(fields=["user", "-created_at"], name="chat_user_recent"),
        ]
        constraints = [
            models.CheckConstraint(condition=~Q(text=""), name="chat_text_not_empty"),
        ]

    def __str__(self) -> str:
        """How the moderators' admin names a message (its action pages list them): whose, where, what."""
        text = self.text if len(self.text) <= 80 else self.text[:79] + "…"
        return f'Message {self.pk} by {self.user.get_username()} at table {self.table_id}: "{text}"'


class ChatHide(models.Model):
    """A moderator hid a message: from everyone, for good."""

    message = models.OneToOneField(ChatMessage, on_delete=models.PROTECT, related_name="hide")
    hidden_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    reason = models.TextField()
    created_at = models.DateTimeField(auto_now_add=True)


__all__ = ["MAX_CHARS", "Channel", "ChatHide", "ChatMessage"]
