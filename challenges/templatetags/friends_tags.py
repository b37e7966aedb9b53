"""The lobby's friends panel: the lobby page shows it without games importing this app."""

from __future__ import annotations

from typing import Any

from django import template

from ..selectors import friends_online

register = template.Library()


@register.inclusion_tag("challenges/_lobby_friends.html", takes_context=True)
def friends_lobby(context: Any) -> dict[str, Any]:
    user = context.get("user")
    if user is None or not user.is_authenticated:
        return {"signed_in": False}
    return {"signed_in": True, "friends": friends_online(user)}
