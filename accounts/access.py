"""Who may do what, as far as an account decides it: signed in, in good standing, a moderator.

Games, chat, replays and moderation ask here; the rules of a game's own access (a seat, an
invite) are games/access.py.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

from plumbing.errors import ServiceError

from .models import SanctionKind
from .standing import user_active_sanction, user_is_sanctioned

AnyUser = AbstractBaseUser | AnonymousUser

# What each moderator action needs; the `moderators` group holds exactly these
# (moderation/groups.py). The sanction and mute permissions are on the accounts' own models.
PERMISSIONS = {
    "sanction": "accounts.sanction_user",
    "abort": "moderation.abort_game",
    "hide": "moderation.hide_replay",
    "report": "moderation.resolve_report",
    "chat": "accounts.moderate_chat",
    "tournament": "moderation.moderate_tournament",
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


def access_signed_in(user: AnyUser, sanctioned: bool | None = None) -> None:
    """`sanctioned`: whether the user is suspended or banned, when the caller has read it already."""
    if not user.is_authenticated:
        raise ServiceError("not_authenticated", "sign in first", 401)
    if not user.is_active:
        raise ServiceError("account_disabled", "this account cannot play", 403)
    if sanctioned is None:
        sanctioned = user_is_sanctioned(user)
    if sanctioned:
        raise ServiceError("sanctioned", "this account is suspended or banned", 403)


def access_sign_in(user: Any) -> None:
    """Refuse a suspended or banned user at sign-in, telling them why (and until when)."""
    sanction = user_active_sanction(user)
    if sanction is None:
        return
    if sanction.kind == SanctionKind.BAN:
        raise ServiceError("banned", f"this account is banned: {sanction.reason}", 403)
    until = sanction.until.strftime("%Y-%m-%d %H:%M") if sanction.until else ""
    raise ServiceError("suspended", f"this account is suspended until {until} UTC: {sanction.reason}", 403)
