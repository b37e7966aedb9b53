"""Reading moderation state: is a user sanctioned, and what the admin shows about a user."""

from __future__ import annotations

from typing import Any

from django.db import connections
from django.db.models import F, Q, QuerySet
from django.utils import timezone

from games.models import Game
from games.sql import cursor, statement

from .models import AuditEntry, Report, Sanction


def active_sanctions(user_id: int) -> QuerySet[Sanction]:
    """Sanctions in force now: not lifted, and a ban or a suspension that has not run out."""
    return Sanction.objects.filter(user_id=user_id, lifted_at__isnull=True).filter(
        Q(until__isnull=True) | Q(until__gt=timezone.now())
    )


def user_active_sanction(user: Any) -> Sanction | None:
    """The sanction that matters most: a ban before any suspension, else the longest suspension."""
    if not getattr(user, "is_authenticated", False):
        return None
    return active_sanctions(user.pk).order_by(F("until").desc(nulls_first=True), "-created_at").first()


def user_is_sanctioned(user: Any) -> bool:
    """True while `user` is suspended or banned (anonymous users are not sanctioned).

    The test of `active_sanctions`, written out: every move asks it, and building the query costs
    several times what running it does (games/sql.py says more).
    """
    if not getattr(user, "is_authenticated", False):
        return False
    db = connections["default"]
    sql = statement(
        db,
        "user_is_sanctioned",
        lambda db: (
            f"SELECT 1 FROM {db.ops.quote_name(Sanction._meta.db_table)} WHERE user_id = %s "
            "AND lifted_at IS NULL AND (until IS NULL OR until > %s) LIMIT 1"
        ),
    )
    now = Sanction._meta.get_field("until").get_db_prep_save(timezone.now(), db)
    with cursor(db) as cur:
        cur.execute(sql, [user.pk, now])
        return cur.fetchone() is not None


def user_reports_about(user: Any) -> QuerySet[Report]:
    return Report.objects.filter(target_user_id=user.pk).select_related("reporter")


def user_audit_entries(user: Any) -> QuerySet[AuditEntry]:
    return AuditEntry.objects.filter(target_type="auth.user", target_id=str(user.pk)).select_related("actor")


def user_is_moderator(user: Any) -> bool:
    """Staff with the moderators' rights over replays (superusers included)."""
    return bool(
        getattr(user, "is_authenticated", False)
        and user.is_active
        and user.is_staff
        and user.has_perm("moderation.hide_replay")
    )


def replay_hidden_from(game: Game, user: Any) -> bool:
    """True when a moderator hid `game`'s replay and `user` is neither one of its players nor a
    moderator: the replay pages answer 404 then."""
    if not game.replay_hidden:
        return False
    if getattr(user, "is_authenticated", False) and game.game_seats.filter(user_id=user.pk).exists():
        return False
    return not user_is_moderator(user)
