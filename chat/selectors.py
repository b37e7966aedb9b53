"""Reading a table's chat: which channel a person is in, and its history."""

from __future__ import annotations

from typing import Any

from games.access import AnyUser, access_table_view
from games.models import GameSeat, GameStatus, Table
from plumbing.errors import ServiceError

from .models import Channel, ChatMessage

HISTORY = 100  # messages a page gets when it opens the chat


def chat_channel_of(table: Table, user: AnyUser) -> str:
    """Players: a person seated at the table, or playing its running game; everyone else watches."""
    if not user.is_authenticated:
        return Channel.SPECTATORS
    if table.seat_set.filter(user_id=user.pk).exists():
        return Channel.PLAYERS
    playing = GameSeat.objects.filter(
        game__table_id=table.pk, game__status=GameStatus.RUNNING, user_id=user.pk
    ).exists()
    return Channel.PLAYERS if playing else Channel.SPECTATORS


def message_dict(m: ChatMessage, username: str | None = None) -> dict[str, Any]:
    return {
        "id": m.pk,
        "channel": m.channel,
        "user": username or m.user.get_username(),
        "text": m.text,
        "at": m.created_at.isoformat(),
        # The site's line for the person (a holiday begun or ended, until `notice_at`), or "".
        "notice": m.notice,
        "notice_at": m.notice_at.isoformat() if m.notice_at else None,
    }


def chat_history(table: Table, channel: str, limit: int = HISTORY) -> list[dict[str, Any]]:
    """The channel's last messages, oldest first, without the hidden ones."""
    rows = list(
        ChatMessage.objects.filter(table_id=table.pk, channel=channel, hide__isnull=True)
        .select_related("user")
        .order_by("-id")[:limit]
    )
    rows.reverse()
    return [message_dict(m) for m in rows]


def chat_can_send(table: Table, user: AnyUser) -> tuple[bool, str]:
    """Whether `user` may write now, and if not, why (a stable code)."""
    from accounts.standing import user_is_muted, user_is_sanctioned

    if not user.is_authenticated:
        return False, "not_authenticated"
    if not table.chat_enabled:
        return False, "chat_off"
    if user_is_sanctioned(user):
        return False, "sanctioned"
    if user_is_muted(user):
        return False, "muted"
    return True, ""


def chat_channel_of_id(table_id: int, user: AnyUser, invite: str | None = None) -> str:
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        raise ServiceError("not_found", "no such table", 404)
    access_table_view(table, user, invite)
    return chat_channel_of(table, user)


def chat_open(table_id: int, user: AnyUser, invite: str | None = None) -> dict[str, Any]:
    """What a chat panel shows when it opens: the person's channel, whether chat is on, whether
    they may write, and the history. not_found for a table they may not see."""
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        raise ServiceError("not_found", "no such table", 404)
    access_table_view(table, user, invite)
    channel = chat_channel_of(table, user)
    can_send, why = chat_can_send(table, user)
    return {
        "table": table.pk,
        "channel": channel,
        "enabled": table.chat_enabled,
        "can_send": can_send,
        "why_not": why,
        "host": bool(user.is_authenticated and table.host_id == user.pk),
        "messages": chat_history(table, channel) if table.chat_enabled else [],
    }


def chat_message_visible_to(message: ChatMessage, user: AnyUser, invite: str | None = None) -> bool:
    """A message is seen by the people of its channel at a table they may see (moderators aside;
    `invite`: the table's invite the request came with)."""
    table = message.table
    try:
        access_table_view(table, user, invite)
    except ServiceError:
        return False
    return chat_channel_of(table, user) == message.channel
