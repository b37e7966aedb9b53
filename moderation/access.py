"""Who may moderate: the rule is the accounts' (`is_moderator`); moderation's services refuse
everyone else through `access_moderator`."""

from __future__ import annotations

from typing import Any

from accounts.access import is_moderator
from plumbing.errors import ServiceError


def access_moderator(user: Any, action: str) -> None:
    """Refuse anyone `is_moderator` does not name for `action`."""
    if not getattr(user, "is_authenticated", False):
        raise ServiceError("not_authenticated", "sign in first", 401)
    if not is_moderator(user, action):
        raise ServiceError("permission_denied", "only moderators may do that", 403)
