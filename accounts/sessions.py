"""The session engine (SESSION_ENGINE = "accounts.sessions"): Django's database sessions, each row
also holding its user, so `user_sessions_end` can delete them all in one statement."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore as DBStore


class SessionStore(DBStore):
    @classmethod
    def get_model_class(cls) -> Any:
        from .models import UserSession

        return UserSession

    def create_model_instance(self, data: dict[str, Any]) -> Any:
        obj = super().create_model_instance(data)
        try:
            obj.user_id = int(data.get(SESSION_KEY))  # type: ignore[arg-type]
        except (TypeError, ValueError):
            obj.user_id = None
        return obj


def user_sessions_end(user_id: int) -> int:
    """Delete every session of the user: each of their browsers is signed out at its next request."""
    from .models import UserSession

    deleted, _ = UserSession.objects.filter(user_id=user_id).delete()
    return deleted
