"""Reading moderation state: what the admin shows about a user, a game or a report (whether a
user is sanctioned or muted now is accounts/standing.py)."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from .models import AuditEntry, Report, audit_target_type


def user_reports_about(user: Any) -> QuerySet[Report]:
    return Report.objects.filter(target_user_id=user.pk).select_related("reporter")


def audit_entries_about(target: Any) -> QuerySet[AuditEntry]:
    """What moderators did to `target` (a user, game, report or chat message), newest first."""
    return AuditEntry.objects.filter(
        target_type=audit_target_type(target), target_id=str(target.pk)
    ).select_related("actor")
