"""Writing to a table's chat, and the host's switch. Each checks access, locks, writes and
publishes after commit; hiding messages and muting people are moderators' actions
(moderation/services.py)."""

from __future__ import annotations

import unicodedata
from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from games.access import AnyUser, access_signed_in, access_table_host, access_table_view
from games.models import Table
from games.publish import publish_table_changed
from plumbing.errors import ServiceError
from plumbing.text import without_bidi_controls

from .models import MAX_CHARS, ChatMessage
from .publish import publish_chat_message, publish_chat_state
from .selectors import chat_can_send, chat_channel_of, message_dict

RATE_COUNT, RATE_SECONDS = 5, 10  # at most 5 messages in any 10 seconds per person


def clean_text(text: Any) -> str:
    """Plain text of 1 to 300 characters: control characters (line breaks included) refused,
    bidirectional controls removed (plumbing/text.py)."""
    if not isinstance(text, str):
        raise ServiceError("chat_bad_text", "a chat message is text")
    text = without_bidi_controls(text).strip()
    if not text:
        raise ServiceError("chat_empty", "say something first")
    if len(text) > MAX_CHARS:
        raise ServiceError("chat_too_long", f"a chat message is at most {MAX_CHARS} characters")
    if any(unicodedata.category(ch) in ("Cc", "Cs") for ch in text):
        raise ServiceError("chat_bad_text", "a chat message is one line of plain text")
    return text


def chat_post(*, table_id: int, user: AnyUser, text: Any, invite_code: str | None = None) -> dict[str, Any]:
    """Post `text` to the channel `user` belongs to at the table; returns the message as sent."""
    access_signed_in(user)
    text = clean_text(text)
    with transaction.atomic():
        # The person's row, locked: their messages are counted one at a time, so the limit holds.
        get_user_model().objects.select_for_update().filter(pk=user.pk).exists()
        table = Table.objects.filter(pk=table_id).first()
        if table is None:
            raise ServiceError("not_found", "no such table", 404)
        access_table_view(table, user, invite_code)
        can_send, why = chat_can_send(table, user)
        if not can_send:
            if why == "chat_off":
                raise ServiceError("chat_off", "the host has turned this table's chat off", 409)
            if why == "muted":
                raise ServiceError("muted", "a moderator has muted you: you can play but not chat", 403)
            raise ServiceError("sanctioned", "this account is suspended or banned", 403)
        since = timezone.now() - timedelta(seconds=RATE_SECONDS)
        # The site's own lines in the person's name (chat/notices.py) are not theirs to count.
        recent = ChatMessage.objects.filter(user_id=user.pk, created_at__gte=since, notice="")
        if recent.count() >= RATE_COUNT:
            raise ServiceError(
                "chat_rate_limited",
                f"slow down: at most {RATE_COUNT} messages in {RATE_SECONDS} seconds",
                429,
            )
        channel = chat_channel_of(table, user)
        message = ChatMessage.objects.create(table=table, channel=channel, user=user, text=text)
        data = message_dict(message, user.get_username())
        publish_chat_message(table.pk, channel, data)
    return data


def chat_set_enabled(*, table_id: int, user: AnyUser, enabled: Any) -> bool:
    """The host turns the table's chat on or off."""
    if not isinstance(enabled, bool):
        raise ServiceError("bad_request", "enabled is true or false")
    with transaction.atomic():
        table = Table.objects.select_for_update().filter(pk=table_id).first()
        if table is None:
            raise ServiceError("not_found", "no such table", 404)
        access_table_host(table, user)
        if table.chat_enabled != enabled:
            table.chat_enabled = enabled
            table.save(update_fields=["chat_enabled"])
            publish_chat_state(table.pk, enabled)
            transaction.on_commit(lambda: publish_table_changed(table.pk))
    return enabled
