"""Reports and the append-only audit log of every moderator action (the sanctions and mutes
they place are the accounts' standing: accounts/models.py)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from chat.models import ChatMessage
from games.models import Game
from tournaments.models import Entry, Tournament


class ReportReason(models.TextChoices):
    # Translated where people pick them: the report page and the chat's report form.
    CHEATING = "cheating", _("Cheating or collusion")
    ABUSE = "abuse", _("Abusive or harassing behaviour")
    NAME = "name", _("Offensive name")
    STALLING = "stalling", _("Stalling or leaving games on purpose")
    SPAM = "spam", _("Spam")
    OTHER = "other", _("Something else")


class ReportStatus(models.TextChoices):
    OPEN = "open", "Open"
    RESOLVED = "resolved", "Resolved"
    DISMISSED = "dismissed", "Dismissed"


class Report(models.Model):
    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="reports_filed"
    )
    target_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="reports_about",
    )
    game = models.ForeignKey(Game, null=True, blank=True, on_delete=models.PROTECT, related_name="reports")
    # A reported chat message (its text is quoted in `text` too, as it was when reported).
    chat_message = models.ForeignKey(
        ChatMessage, null=True, blank=True, on_delete=models.PROTECT, related_name="reports"
    )
    reason = models.CharField(max_length=16, choices=ReportReason.choices)
    text = models.TextField(blank=True, default="")
    status = models.CharField(max_length=16, choices=ReportStatus.choices, default=ReportStatus.OPEN)
    resolution_note = models.TextField(blank=True, default="")
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    resolved_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["status", "created_at"], name="report_status_created")]
        constraints = [
            models.CheckConstraint(
                condition=Q(target_user__isnull=False) | Q(game__isnull=False), name="report_has_target"
            ),
            models.CheckConstraint(
                condition=Q(chat_message__isnull=True) | Q(target_user__isnull=False),
                name="report_chat_names_its_author",
            ),
        ]
        permissions = [("resolve_report", "Can resolve or dismiss reports")]

    def __str__(self) -> str:
        about = self.target_user.get_username() if self.target_user_id else f"game {self.game_id}"
        return f"Report {self.pk} ({self.get_reason_display()}) about {about}"


class ModeratedGame(Game):
    """Games as the moderators' admin sees them; a proxy, so it only adds permissions."""

    class Meta:
        proxy = True
        verbose_name = "game"
        verbose_name_plural = "games"
        permissions = [
            ("abort_game", "Can abort a running game"),
            ("hide_replay", "Can hide and unhide a game's replay"),
        ]


class ModeratedChatMessage(ChatMessage):
    """Chat messages as the moderators' admin sees them; a proxy, so it adds nothing to the table."""

    class Meta:
        proxy = True
        verbose_name = "chat message"
        verbose_name_plural = "chat messages"


class ModeratedTournament(Tournament):
    """Tournaments as the moderators' admin sees them (cancelling one); a proxy: permissions only."""

    class Meta:
        proxy = True
        verbose_name = "tournament"
        verbose_name_plural = "tournaments"
        permissions = [("moderate_tournament", "Can remove players from tournaments and cancel tournaments")]


class ModeratedEntry(Entry):
    """Tournament entrants as the moderators' admin sees them (removing one); a proxy."""

    class Meta:
        proxy = True
        verbose_name = "tournament entrant"
        verbose_name_plural = "tournament entrants"


class AuditAction(models.TextChoices):
    SUSPEND = "suspend", "Suspend"
    BAN = "ban", "Ban"
    LIFT = "lift", "Lift sanction"
    ABORT = "abort", "Abort game"
    HIDE = "hide", "Hide replay"
    UNHIDE = "unhide", "Unhide replay"
    RESOLVE = "resolve", "Resolve report"
    DISMISS = "dismiss", "Dismiss report"
    MUTE = "mute", "Mute"
    UNMUTE = "unmute", "Lift mute"
    HIDE_MESSAGE = "hide_message", "Hide chat message"
    REMOVE_PLAYER = "remove_player", "Remove from tournament"
    CANCEL_EVENT = "cancel_event", "Cancel tournament"


def audit_target_type(target: models.Model) -> str:
    """How the audit log names a target's kind: its table's model, so a proxy (the admin's
    ModeratedGame) and the model it stands for name the same rows."""
    return target._meta.concrete_model._meta.label_lower


class AuditEntry(models.Model):
    """One moderator action: who, what, whom, why, when. Database triggers refuse UPDATE and DELETE."""

    actor = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    action = models.CharField(max_length=16, choices=AuditAction.choices)
    # "auth.user", "games.game", "moderation.report", "tournaments.entry", "tournaments.tournament"
    target_type = models.CharField(max_length=64)
    target_id = models.CharField(max_length=64)
    target = models.CharField(max_length=200)  # a description that outlives renames
    reason = models.TextField(blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = "audit entry"
        verbose_name_plural = "audit log"
        indexes = [models.Index(fields=["target_type", "target_id"], name="audit_target")]

    def __str__(self) -> str:
        return f"{self.actor} {self.action} {self.target}"
