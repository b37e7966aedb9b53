"""Who may moderate, and whether a sanctioned user may sign in: the one place moderation asks."""

from __future__ import annotations

from typing import Any

from harehra_site.errors import ServiceError

from .models import SanctionKind
from .selectors import user_active_sanction

# What each moderator action needs; the `moderators` group holds exactly these (see groups.py).
PERMISSIONS = {
    "sanction": "moderation.sanction_user",
    "abort": "moderation.abort_game",
    "hide": "moderation.hide_replay",
    "report": "moderation.resolve_report",
    "chat": "moderation.moderate_chat",
}


def is_moderator(user: Any, action: str) -> bool:
    """The one rule of who moderates: active staff in the `moderators` group (or superusers)
    holding the permission `action` needs. Seeing what moderation hid (a hidden replay, a hidden
    running game) is the "hide" action's right."""
    return bool(
        getattr(user, "is_authenticated", False)
        and user.is_active
        and user.is_staff
        and user.has_perm(PERMISSIONS[action])
    )


def access_moderator(user: Any, action: str) -> None:
    """Refuse anyone `is_moderator` does not name for `action`."""
    if not getattr(user, "is_authenticated", False):
        raise ServiceError("not_authenticated", "sign in first", 401)
    if not is_moderator(user, action):
        raise ServiceError("permission_denied", "only moderators may do that", 403)


def access_sign_in(user: Any) -> None:
    """Refuse a suspended or banned user at sign-in, telling them why (and until when)."""
    sanction = user_active_sanction(user)
    if sanction is None:
        return
    if sanction.kind == SanctionKind.BAN:
        raise ServiceError("banned", f"this account is banned: {sanction.reason}", 403)
    until = sanction.until.strftime("%Y-%m-%d %H:%M") if sanction.until else ""
    raise ServiceError("suspended", f"this account is suspended until {until} UTC: {sanction.reason}", 403)
