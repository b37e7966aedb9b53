"""Reads of a person's notifications, and their words in the reader's language."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from .models import Kind, Notification

# The notifications page and API list the newest this many.
LIST_AT_MOST = 50


def unread_count(user_id: int) -> int:
    return Notification.objects.filter(user_id=user_id, read_at__isnull=True).count()


def _words_and_link(n: Notification) -> tuple[str, str]:
    if n.kind == Kind.FOLLOWER:
        name = str(n.data.get("name", ""))
        return _("%(name)s follows you.") % {"name": name}, f"/players/{name}/"
    return "", "/"


def notification_dict(n: Notification) -> dict[str, Any]:
    words, link = _words_and_link(n)
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
