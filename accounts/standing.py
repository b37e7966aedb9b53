"""An account's standing: is a user suspended, banned or muted now. Games, chat and sign-in ask
here; moderation places and lifts what is read (moderation/services.py)."""

from __future__ import annotations

from typing import Any, TypeVar

from django.db import connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Exists, F, OuterRef, Q, QuerySet
from django.utils import timezone

from plumbing.rawsql import cursor, statement

from .models import Mute, Restraint, Sanction

R = TypeVar("R", bound=Restraint)


def _in_force(model: type[R], user_id: int) -> QuerySet[R]:
    """Restraints (sanctions or mutes) in force now: not lifted, with no end or one still to come."""
    return model.objects.filter(user_id=user_id, lifted_at__isnull=True).filter(
        Q(until__isnull=True) | Q(until__gt=timezone.now())
    )


def active_sanctions(user_id: int) -> QuerySet[Sanction]:
    """Sanctions in force now: a ban, or a suspension that has not run out."""
    return _in_force(Sanction, user_id)


def sanctioned_now(user_ref: str = "user_id") -> Exists:
    """A filter for other rows whose user (the field `user_ref`) is suspended or banned now: one
    query for a whole list (a tournament's entrants) instead of one per user."""
    in_force = Sanction.objects.filter(user_id=OuterRef(user_ref), lifted_at__isnull=True).filter(
        Q(until__isnull=True) | Q(until__gt=timezone.now())
    )
    return Exists(in_force)


def user_active_sanction(user: Any) -> Sanction | None:
    """The sanction that matters most: a ban before any suspension, else the longest suspension."""
    if not getattr(user, "is_authenticated", False):
        return None
    return user_id_active_sanction(user.pk)


def user_id_active_sanction(user_id: int) -> Sanction | None:
    return active_sanctions(user_id).order_by(F("until").desc(nulls_first=True), "-created_at").first()


def sanction_in_force_sql(db: BaseDatabaseWrapper) -> str:
    """SQL that is true while the user of its first parameter is suspended or banned at the time
    of its second: the test of `active_sanctions`, written out for the statements every move
    makes (building the query costs several times what running it does; games/sql.py says more).
    Its parameters come from `sanction_in_force_params`."""
    return (
        f"EXISTS (SELECT 1 FROM {db.ops.quote_name(Sanction._meta.db_table)} x WHERE x.user_id = %s "
        "AND x.lifted_at IS NULL AND (x.until IS NULL OR x.until > %s))"
    )


def sanction_in_force_params(db: BaseDatabaseWrapper, user_id: int | None) -> list[Any]:
    return [user_id, Sanction._meta.get_field("until").get_db_prep_save(timezone.now(), db)]


def user_is_sanctioned(user: Any) -> bool:
    """True while `user` is suspended or banned (anonymous users are not sanctioned)."""
    if not getattr(user, "is_authenticated", False):
        return False
    db = connections["default"]
    sql = statement(db, "user_is_sanctioned", lambda db: f"SELECT {sanction_in_force_sql(db)}")
    with cursor(db) as cur:
        cur.execute(sql, sanction_in_force_params(db, user.pk))
        return bool(cur.fetchone()[0])


def active_mutes(user_id: int) -> QuerySet[Mute]:
    return _in_force(Mute, user_id)


def user_is_muted(user: Any) -> bool:
    """True while `user` may not chat (they may still play)."""
    return bool(getattr(user, "is_authenticated", False)) and active_mutes(user.pk).exists()
