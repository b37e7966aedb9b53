"""What accounts tells a person's open sockets, on every server process (plumbing/publish.py):
signed out, a password change, a suspension or a ban. Every socket of a signed-in person joins
their group, `user_group`."""

from __future__ import annotations

from typing import Any

from plumbing.publish import send_on_commit


def user_group(user_id: int) -> str:
    return f"user.{user_id}"


def publish_user_signed_out(user_id: int) -> None:
    """Close every socket the user has open, on every server process."""
    send_on_commit(user_group(user_id), {"type": "user.signed_out"})


def publish_user_credentials_ended(user_id: int, keep_token: str | None, keep_session: str | None) -> None:
    """Close the user's sockets, on every server process, but those signed in by the token or the
    session (digests: accounts.services.credential_digest) a password change kept. The same message
    as a sign-out's, naming what it keeps: each socket decides (live/ws_auth.py, `signed_out_by`)."""
    kept = {"keep_token": keep_token, "keep_session": keep_session}
    send_on_commit(user_group(user_id), {"type": "user.signed_out", **kept})


def publish_user_sanctioned(user_id: int, sanction: dict[str, Any]) -> None:
    """Close every socket the user has open, on every server process, each first telling its page
    why: `sanction` is {kind, until, reason} (accounts/notices.py, sanction_notice)."""
    send_on_commit(user_group(user_id), {"type": "user.sanctioned", "sanction": sanction})
