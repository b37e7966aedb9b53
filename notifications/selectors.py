"""Reads of a person's notifications, and their words in the reader's language."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from django.utils.translation import gettext as _

from .models import Kind, Notification

# The notifications page and API list the newest this many.
LIST_AT_MOST = 50


def unread_count(user_id: int) -> int:
    return Notification.objects.filter(user_id=user_id, read_at__isnull=True).count()


def notification_url(n: Notification) -> str:
    """The page a notification opens."""
    if n.kind == Kind.FOLLOWER:
        return f"/players/{quote(str(n.data.get('name', '')))}/"
    if n.kind == Kind.ANALYSIS_READY:
        return f"/replays/{int(n.data.get('game', 0))}/"
    if n.kind == Kind.CHALLENGE:
        return f"/challenges/{int(n.data.get('challenge', 0))}/"
    return "/notifications/"


def notification_text(n: Notification) -> str:
    """Its words, in the active language."""
    if n.kind == Kind.FOLLOWER:
        return _("%(name)s follows you.") % {"name": n.data.get("name", "")}
    if n.kind == Kind.ANALYSIS_READY:
        return _("The analysis you asked for, of game %(game)s, is ready.") % {"game": n.data.get("game", "")}
    if n.kind == Kind.CHALLENGE:
        return _("%(name)s challenges you to a game.") % {"name": n.data.get("name", "")}
    return ""


def notification_dict(n: Notification) -> dict[str, Any]:
    words, link = notification_text(n), notification_url(n)
    return {
        "id": n.pk,
        "kind": n.kind,
        "data": n.data,
        "text": words,
        "url": link,
        "at": n.created_at.isoformat(),
        "read": n.read_at is not None,
    }


def notifications_of(user_id: int) -> list[dict[str, Any]]:
    rows = Notification.objects.filter(user_id=user_id).order_by("-created_at", "-pk")[:LIST_AT_MOST]
    return [notification_dict(n) for n in rows]
