"""Who may do what with tournaments: the one place the services ask."""

from __future__ import annotations

from accounts.access import AnyUser, access_signed_in
from harehra_site.errors import ServiceError

from .models import Entry, Tournament


def access_tournament(user: AnyUser, action: str, tournament: Tournament | None = None) -> Entry | None:
    """`manage` (create, start, seat, close, cancel: staff), `enter` (any signed-in player in
    good standing) or `play` (pause, withdraw: the user's own entry, which it returns)."""
    if action == "manage":
        access_signed_in(user)
        if not (user.is_active and getattr(user, "is_staff", False)):
            raise ServiceError("not_staff", "only staff run tournaments", 403)
        return None
    access_signed_in(user)
    if action == "enter":
        return None
    if action == "play":
        assert tournament is not None
        entry = Entry.objects.filter(tournament=tournament, user_id=user.pk).first()
        if entry is None:
            raise ServiceError("not_entered", "you have not entered this tournament", 403)
        return entry
    raise ValueError(action)
