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


# An ended session's note: whose session it was, so the browser's next page can say why it was
# signed out (accounts/notices.py).
SIGNED_OUT_USER = "harehra_signed_out_user"


def user_sessions_end(user_id: int, tell_why: bool = False) -> int:
    """End every session of the user: each of their browsers is signed out at its next request.
    With `tell_why` each session keeps its key but holds only a note of whose it was (no sign-in),
    so that browser's next page can tell the person why (a ban or suspension: accounts/notices.py)."""
    from .models import UserSession

    sessions = UserSession.objects.filter(user_id=user_id)
    if not tell_why:
        deleted, _ = sessions.delete()
        return deleted
    return sessions.update(session_data=SessionStore().encode({SIGNED_OUT_USER: user_id}), user=None)
