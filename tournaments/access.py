"""Who may do what with tournaments: the one place the services ask."""

from __future__ import annotations

from accounts.access import AnyUser, access_signed_in, is_moderator
from accounts.models import SanctionKind
from accounts.standing import user_active_sanction
from plumbing.errors import ServiceError

from .models import Entry, Tournament


def access_tournament(user: AnyUser, action: str, tournament: Tournament | None = None) -> Entry | None:
    """`manage` (start, seat, close, cancel, feature: staff), `moderate` (remove a player: a
    moderator holding the tournaments' permission; moderation's services call it), `enter` and
    `create` (any signed-in player in good standing; the limits of a player's own events are the
    service's), `host` (cancel `tournament` before its start: its host, or staff) or `play`
    (pause, withdraw: the user's own entry, which it returns)."""
    if action == "manage":
        access_signed_in(user)
        if not (user.is_active and getattr(user, "is_staff", False)):
            raise ServiceError("not_staff", "only staff run tournaments", 403)
        return None
    if action == "moderate":
        access_signed_in(user)
        if not is_moderator(user, "tournament"):
            raise ServiceError("permission_denied", "only moderators may do that", 403)
        return None
    if action == "host":
        assert tournament is not None
        access_signed_in(user)
        if user.is_active and getattr(user, "is_staff", False):
            return None
        if tournament.created_by_id != user.pk:
            raise ServiceError("not_host", "only the event's host or staff may do that", 403)
        return None
    if action in ("enter", "create"):
        access_signed_in(user, sanctioned=False)  # signed in and active; the sanction is read below
        _refuse_sanctioned(user)
        return None
    access_signed_in(user)
    if action == "play":
        assert tournament is not None
        entry = Entry.objects.filter(tournament=tournament, user_id=user.pk).first()
        if entry is None:
            raise ServiceError("not_entered", "you have not entered this tournament", 403)
        return entry
    raise ValueError(action)


def _refuse_sanctioned(user: AnyUser) -> None:
    """A suspended or banned person enters no event, saying which and until when. (A mute stops
    chatting only: a muted player may enter and play.)"""
    sanction = user_active_sanction(user)
    if sanction is None:
        return
    if sanction.kind == SanctionKind.BAN or sanction.until is None:
        raise ServiceError("banned", "a banned account cannot enter or create tournaments", 403)
    until = sanction.until.strftime("%Y-%m-%d %H:%M")
    raise ServiceError(
        "suspended", f"a suspended account cannot enter or create tournaments (until {until} UTC)", 403
    )
