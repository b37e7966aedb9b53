"""Telling a table's chat sockets, after commit."""

from __future__ import annotations

from typing import Any

from plumbing.publish import send_on_commit

from .models import Channel


def chat_group(table_id: int, channel: str) -> str:
    return f"chat.{table_id}.{channel}"


def publish_chat_message(table_id: int, channel: str, message: dict[str, Any]) -> None:
    send_on_commit(chat_group(table_id, channel), {"type": "chat.message", "message": message})


def publish_chat_hidden(table_id: int, channel: str, message_id: int) -> None:
    send_on_commit(chat_group(table_id, channel), {"type": "chat.hidden", "id": message_id})


def publish_chat_state(table_id: int, enabled: bool) -> None:
    for channel in Channel.values:
        send_on_commit(chat_group(table_id, channel), {"type": "chat.state", "enabled": enabled})
