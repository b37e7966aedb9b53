"""Reading moderation state: what the admin shows about a user, a game or a report (whether a
user is sanctioned or muted now is accounts/standing.py)."""

from __future__ import annotations

from typing import Any

from django.db.models import Q, QuerySet

from games.models import Game, GameEvent
from tournaments.models import Entry

from .models import AuditEntry, Report, audit_target_type


def user_reports_about(user: Any) -> QuerySet[Report]:
    return Report.objects.filter(target_user_id=user.pk).select_related("reporter")


def audit_entries_about(target: Any) -> QuerySet[AuditEntry]:
    """What moderators did to `target` (a user, game, report or chat message), newest first."""
    return AuditEntry.objects.filter(
        target_type=audit_target_type(target), target_id=str(target.pk)
    ).select_related("actor")


def audit_entries_with_entries(target: Any, entry_ids: list[int]) -> QuerySet[AuditEntry]:
    """What moderators did to `target` (a user, a tournament) and to these tournament entries of
    theirs (removing the player from an event), newest first."""
    return AuditEntry.objects.filter(
        Q(target_type=audit_target_type(target), target_id=str(target.pk))
        | Q(target_type=audit_target_type(Entry()), target_id__in=[str(i) for i in entry_ids])
    ).select_related("actor")


def report_game_moment(report: Report) -> tuple[Game, int, str] | None:
    """The game a report is about and its replay step at the report's moment, with that moment
    (as the admin shows it): a reported game as it stood when it was reported; a reported chat
    message's table's game as it stood when the message was written. None if there is none."""
    message = report.chat_message
    moment = message.created_at if message is not None else report.created_at
    game = report.game
    if game is None and message is not None:
        game = (
            Game.objects.filter(table_id=message.table_id, created_at__lte=moment)
            .filter(Q(finished_at__isnull=True) | Q(finished_at__gte=moment))
            .order_by("-created_at")
            .first()
        )
    if game is None:
        return None
    seq = (
        GameEvent.objects.filter(game=game, created_at__lte=moment)
        .order_by("-seq")
        .values_list("seq", flat=True)
        .first()
    )
    return game, max(0, (seq or 1) - 1), f"{moment:%Y-%m-%d %H:%M:%S}"
