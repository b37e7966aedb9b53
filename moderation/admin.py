"""The moderators' admin. Nothing here edits a row directly: every action calls a service, which
checks access, audits and publishes. The audit log is read-only here and in the database."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

from accounts.access import PERMISSIONS, is_moderator
from accounts.models import Mute, Sanction
from accounts.standing import user_active_sanction
from chat.models import ChatHide
from games.labels import seat_name
from games.models import GameSeat
from games.services.faults import games_set_aside
from plumbing.errors import ServiceError

from . import services
from .models import (
    AuditEntry,
    ModeratedChatMessage,
    ModeratedEntry,
    ModeratedGame,
    ModeratedTournament,
    Report,
    ReportStatus,
)
from .selectors import audit_entries_about, audit_entries_with_entries, report_game_moment, user_reports_about

User = get_user_model()

admin.site.site_header = "Harehra Online moderation"
admin.site.site_title = "Harehra moderation"
admin.site.index_title = "Moderation"


# --- the intermediate form every action shows ------------------------------------------------


class ReasonForm(forms.Form):
    """Asks for what a moderation service needs besides the moderator and the target;
    `inputs` names it as the service's keyword arguments."""

    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 3, "cols": 60}), max_length=1000)

    def inputs(self) -> dict[str, Any]:
        return {"reason": self.cleaned_data["reason"]}


class NoteForm(ReasonForm):
    # The field keeps the name `reason` (every action's form posts one); the report services call it a note.
    reason = forms.CharField(
        label="Note", widget=forms.Textarea(attrs={"rows": 3, "cols": 60}), max_length=1000
    )

    def inputs(self) -> dict[str, Any]:
        return {"note": self.cleaned_data["reason"]}


PERIODS = [
    ("1", "1 hour"),
    ("24", "1 day"),
    ("72", "3 days"),
    ("168", "1 week"),
    ("720", "30 days"),
    ("2160", "90 days"),
    ("8760", "1 year"),
]


class SuspendForm(ReasonForm):
    period = forms.ChoiceField(choices=PERIODS, initial="24")

    field_order = ["period", "reason"]

    def inputs(self) -> dict[str, Any]:
        period = self.cleaned_data.get("period")
        # An empty period (a mute's "until lifted") is no period at all.
        return {**super().inputs(), "period": timedelta(hours=int(period)) if period else None}


class MuteForm(SuspendForm):
    period = forms.ChoiceField(choices=[("", "until lifted"), *PERIODS], initial="24", required=False)


def _action(
    name: str,
    service: Callable[..., Any],
    target: str,
    permission: str,
    description: str,
    done: str,
    form_class: type[ReasonForm] = ReasonForm,
) -> Any:
    """The admin action `name`, offered to holders of `permission`: it first asks for a reason
    (and whatever else `form_class` needs), then calls `service` as the signed-in moderator on
    each selected object (passed as `target`), reporting refusals one by one and then how many
    were `done`. The service checks access, audits and publishes; the action only asks."""

    def action(modeladmin: admin.ModelAdmin, request: HttpRequest, queryset: QuerySet[Any]) -> Any:
        form = form_class(request.POST if "apply" in request.POST else None)
        if "apply" in request.POST and form.is_valid():
            ok = 0
            for obj in queryset:
                try:
                    service(moderator=request.user, **{target: obj}, **form.inputs())
                    ok += 1
                except ServiceError as e:
                    modeladmin.message_user(request, f"{obj}: {e.detail}", messages.ERROR)
            if ok:
                modeladmin.message_user(request, f"{done}: {ok}", messages.SUCCESS)
            return None
        context = {
            **modeladmin.admin_site.each_context(request),
            "title": description,
            "form": form,
            "objects": queryset,
            "opts": modeladmin.model._meta,
            "action": request.POST.get("action", ""),
            "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
        }
        return TemplateResponse(request, "moderation/admin_action.html", context)

    action.__name__ = name
    return admin.action(description=description, permissions=[permission])(action)


def _has_permission(action: str) -> Callable[[Any, HttpRequest], bool]:
    def has_permission(modeladmin: Any, request: HttpRequest) -> bool:
        return is_moderator(request.user, action)

    return has_permission


class ModeratorPermissions:
    """`has_<action>_permission` for every moderator action (set below), by the rule the
    services use, so the admin offers an action exactly to those its service lets run it."""


for _permission in PERMISSIONS:
    setattr(ModeratorPermissions, f"has_{_permission}_permission", _has_permission(_permission))


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


def _user_link(user: Any) -> SafeString | str:
    if user is None:
        return "—"
    url = reverse("admin:auth_user_change", args=[user.pk])
    return format_html('<a href="{}">{}</a>', url, user.get_username())


def _game_link(game: Any) -> SafeString | str:
    if game is None:
        return "—"
    url = reverse("admin:moderation_moderatedgame_change", args=[game.pk])
    return format_html('<a href="{}">Game {}</a>', url, game.pk)


def _html_list(item: str, rows: list[tuple[Any, ...]]) -> SafeString | str:
    """`rows` as a list, each row's values escaped into `item`; "none" when there are none."""
    if not rows:
        return "none"
    return format_html("<ul>{}</ul>", format_html_join("", f"<li>{item}</li>", rows))


def _audit_list(entries: QuerySet[AuditEntry]) -> SafeString | str:
    return _html_list(
        "{} {} by {}: {}",
        [
            (f"{e.created_at:%Y-%m-%d %H:%M}", e.get_action_display(), e.actor.get_username(), e.reason)
            for e in entries
        ],
    )


# --- users -----------------------------------------------------------------------------------

suspend_users = _action(
    "suspend_users",
    services.user_suspend,
    "user",
    "sanction",
    "Suspend the selected users for a period",
    "Suspended",
    SuspendForm,
)
ban_users = _action("ban_users", services.user_ban, "user", "sanction", "Ban the selected users", "Banned")
lift_sanctions = _action(
    "lift_sanctions",
    services.user_sanction_lift,
    "user",
    "sanction",
    "Lift the selected users' suspension or ban",
    "Lifted",
)
mute_users = _action(
    "mute_users",
    services.user_mute,
    "user",
    "chat",
    "Mute the selected users (no chat; they may still play)",
    "Muted",
    MuteForm,
)
unmute_users = _action(
    "unmute_users", services.user_unmute, "user", "chat", "Lift the selected users' mute", "Unmuted"
)


class ModeratedUserAdmin(ModeratorPermissions, UserAdmin):
    list_display = ("username", "email", "is_active", "is_staff", "sanction_status", "date_joined")
    search_fields = ("username", "email", "first_name", "last_name")
    actions = [suspend_users, ban_users, lift_sanctions, mute_users, unmute_users]
    moderation_fields = ("sanction_status", "games_played", "reports_about", "moderation_history")
    readonly_fields = moderation_fields

    def get_fieldsets(self, request: HttpRequest, obj: Any = None) -> Any:
        if obj is None:
            return super().get_fieldsets(request, obj)
        moderation = ("Moderation", {"fields": self.moderation_fields})
        if request.user.is_superuser:
            return [*super().get_fieldsets(request, obj), moderation]
        # Moderators see who the user is and what happened, not their password hash or permissions.
        return [
            (None, {"fields": ("username", "email", "first_name", "last_name")}),
            ("Status", {"fields": ("is_active", "is_staff", "date_joined", "last_login")}),
            moderation,
        ]

    @admin.display(description="sanction")
    def sanction_status(self, obj: Any) -> str:
        sanction = user_active_sanction(obj)
        if sanction is None:
            return "—"
        if sanction.until is None:
            return f"banned: {sanction.reason}"
        return f"suspended until {sanction.until:%Y-%m-%d %H:%M}: {sanction.reason}"

    @admin.display(description="games")
    def games_played(self, obj: Any) -> SafeString | str:
        rows = (
            GameSeat.objects.filter(user_id=obj.pk).select_related("game").order_by("-game__created_at")[:30]
        )
        return _html_list(
            "{} — seat {}, {} {}",
            [
                (_game_link(r.game), r.seat, r.game.status, f"({r.game.result})" if r.game.result else "")
                for r in rows
            ],
        )

    @admin.display(description="reports about this user")
    def reports_about(self, obj: Any) -> SafeString | str:
        return _html_list(
            '<a href="{}">Report {}</a> {} by {}: {} [{}]',
            [
                (
                    reverse("admin:moderation_report_change", args=[r.pk]),
                    r.pk,
                    f"{r.created_at:%Y-%m-%d %H:%M}",
                    r.reporter.get_username(),
                    r.get_reason_display(),
                    r.status,
                )
                for r in user_reports_about(obj)[:30]
            ],
        )

    @admin.display(description="past moderator actions")
    def moderation_history(self, obj: Any) -> SafeString | str:
        entries = list(ModeratedEntry.objects.filter(user_id=obj.pk).values_list("pk", flat=True))
        return _audit_list(audit_entries_with_entries(obj, entries)[:50])


if admin.site.is_registered(User):
    admin.site.unregister(User)
admin.site.register(User, ModeratedUserAdmin)


class PenaltyAdmin(ReadOnlyAdmin):
    """A sanction or a mute: whom, until when, why, by whom, and whether and by whom it was lifted."""

    list_display: tuple[str, ...] = (
        "user",
        "until",
        "reason",
        "created_by",
        "created_at",
        "lifted_at",
        "lifted_by",
    )
    list_filter: tuple[Any, ...] = (("lifted_at", admin.EmptyFieldListFilter),)
    search_fields = ("user__username", "reason")
    list_select_related = ("user", "created_by", "lifted_by")


@admin.register(Sanction)
class SanctionAdmin(PenaltyAdmin):
    list_display = ("user", "kind", *PenaltyAdmin.list_display[1:])
    list_filter = ("kind", *PenaltyAdmin.list_filter)


# --- games and replays -----------------------------------------------------------------------

abort_games = _action(
    "abort_games", services.game_abort, "game", "abort", "Abort the selected running games", "Aborted"
)
hide_replays = _action(
    "hide_replays", services.replay_hide, "game", "hide", "Hide the selected games' replays", "Hidden"
)
unhide_replays = _action(
    "unhide_replays",
    services.replay_unhide,
    "game",
    "hide",
    "Unhide the selected games' replays",
    "Unhidden",
)


class SetAsideFilter(admin.SimpleListFilter):
    """Running games the beat's sweep has set aside (games/services/faults.py): they wait for a
    moderator, who looks at the failure and aborts them."""

    title = "set aside by the sweep"
    parameter_name = "set_aside"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("yes", "running and set aside")]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        if self.value() == "yes":
            return queryset.filter(pk__in=games_set_aside().values("game_id"))
        return queryset


def _set_aside_notice(request: HttpRequest) -> None:
    count = games_set_aside().count()
    if count:
        url = reverse("admin:moderation_moderatedgame_changelist") + "?set_aside=yes"
        messages.warning(
            request,
            format_html(
                '{} running game(s) keep failing and wait for a moderator: <a href="{}">look and abort</a>',
                count,
                url,
            ),
        )


@admin.register(ModeratedGame)
class ModeratedGameAdmin(ModeratorPermissions, ReadOnlyAdmin):
    list_display = (
        "id",
        "table",
        "number",
        "status",
        "result",
        "player_list",
        "replay_hidden",
        "set_aside",
        "created_at",
    )
    list_filter = ("status", "replay_hidden", SetAsideFilter)
    search_fields = ("=id", "game_seats__user__username")
    actions = [abort_games, hide_replays, unhide_replays]
    fields = (
        "table",
        "number",
        "status",
        "result",
        "winner_seat",
        "player_list",
        "last_seq",
        "replay_hidden",
        "fault",
        "moderation_history",
        "reports",
        "created_at",
        "finished_at",
    )
    readonly_fields = fields

    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        return (
            super()
            .get_queryset(request)
            .select_related("table", "fault")
            .prefetch_related("game_seats__user")
        )

    @admin.display(description="players")
    def player_list(self, obj: Any) -> str:
        names = []
        for gs in obj.game_seats.all():
            who = seat_name(gs) or "?"
            if gs.bot_playing and not gs.is_bot:
                who += " (bot playing)"
            names.append(f"{gs.seat}: {who}")
        return ", ".join(names)

    @admin.display(description="set aside", boolean=True)
    def set_aside(self, obj: Any) -> bool:
        fault = getattr(obj, "fault", None)
        return fault is not None and fault.set_aside_at is not None

    @admin.display(description="the sweep's failures")
    def fault(self, obj: Any) -> str:
        fault = getattr(obj, "fault", None)
        if fault is None:
            return "none"
        aside = f"; set aside {fault.set_aside_at:%Y-%m-%d %H:%M:%S}" if fault.set_aside_at else ""
        since = f"{fault.first_failed_at:%Y-%m-%d %H:%M:%S}"
        return f"{fault.failures} in a row ({fault.stage}) since {since}{aside}: {fault.error}"

    @admin.display(description="past moderator actions")
    def moderation_history(self, obj: Any) -> SafeString | str:
        return _audit_list(audit_entries_about(obj))

    @admin.display(description="reports")
    def reports(self, obj: Any) -> SafeString | str:
        rows = obj.reports.all()
        if not rows:
            return "none"
        return format_html_join(
            ", ",
            '<a href="{}">Report {} [{}]</a>',
            ((reverse("admin:moderation_report_change", args=[r.pk]), r.pk, r.status) for r in rows),
        )


# --- reports ---------------------------------------------------------------------------------

resolve_reports = _action(
    "resolve_reports",
    services.report_resolve,
    "report",
    "report",
    "Resolve the selected reports",
    "Resolved",
    NoteForm,
)
dismiss_reports = _action(
    "dismiss_reports",
    services.report_dismiss,
    "report",
    "report",
    "Dismiss the selected reports",
    "Dismissed",
    NoteForm,
)


@admin.register(Report)
class ReportAdmin(ModeratorPermissions, ReadOnlyAdmin):
    list_display = ("id", "created_at", "reporter", "target", "game_link", "reason", "short_text", "status")
    list_filter = ("status", "reason")
    search_fields = ("reporter__username", "target_user__username", "text")
    list_select_related = ("reporter", "target_user", "game", "resolved_by")
    actions = [resolve_reports, dismiss_reports]
    fields = (
        "status",
        "reporter_link",
        "target",
        "game_link",
        "reason",
        "text",
        "chat_message_link",
        "game_at_the_time",
        "actions_on_it",
        "created_at",
        "resolution_note",
        "resolved_by",
        "resolved_at",
    )
    readonly_fields = fields

    def changelist_view(self, request: HttpRequest, extra_context: dict[str, Any] | None = None) -> Any:
        # The queue: with no filter chosen, show the open reports (oldest problems stay visible).
        if request.method == "GET" and not request.GET:
            return HttpResponseRedirect(f"{request.path}?status__exact={ReportStatus.OPEN}")
        if request.method == "GET":
            _set_aside_notice(request)  # games the sweep set aside are reported with the queue
        return super().changelist_view(request, extra_context)

    @admin.display(description="reporter")
    def reporter_link(self, obj: Report) -> SafeString | str:
        return _user_link(obj.reporter)

    @admin.display(description="reported player")
    def target(self, obj: Report) -> SafeString | str:
        return _user_link(obj.target_user)

    @admin.display(description="game")
    def game_link(self, obj: Report) -> SafeString | str:
        return _game_link(obj.game)

    @admin.display(description="chat message")
    def chat_message_link(self, obj: Report) -> SafeString | str:
        message = obj.chat_message
        if message is None:
            return "—"
        url = reverse("admin:moderation_moderatedchatmessage_change", args=[message.pk])
        hidden = " (hidden)" if ChatHide.objects.filter(message_id=message.pk).exists() else ""
        return format_html(
            '<a href="{}">message {}</a>{}: “{}”, {} in the {} chat of table {} at {}',
            url,
            message.pk,
            hidden,
            message.text,
            message.user.get_username(),
            message.channel,
            message.table_id,
            f"{message.created_at:%Y-%m-%d %H:%M:%S}",
        )

    @admin.display(description="the game at the time")
    def game_at_the_time(self, obj: Report) -> SafeString | str:
        """The reported game (or the game at the message's table when it was written), opened at
        that moment: its replay at the step of then, or the live game if it still runs."""
        found = report_game_moment(obj)
        if found is None:
            return "—"
        game, step, moment = found
        if game.status == "running":
            return format_html(
                '<a href="/watch/{}/">game {}, live now</a> (at {}: step {})', game.pk, game.pk, moment, step
            )
        return format_html(
            '<a href="/replays/{}/?step={}">game {} at step {}</a> (the replay as it stood at {})',
            game.pk,
            step,
            game.pk,
            step,
            moment,
        )

    @admin.display(description="what you can do")
    def actions_on_it(self, obj: Report) -> SafeString | str:
        """Links to the admin lists holding just this report's subjects, where their actions are."""
        rows: list[tuple[str, str]] = []

        def only(name: str, pk: int) -> str:
            return reverse(f"admin:{name}_changelist") + f"?id__exact={pk}"

        if obj.chat_message_id:
            rows.append((only("moderation_moderatedchatmessage", obj.chat_message_id), "hide the message"))
        if obj.target_user_id:
            who = obj.target_user.get_username()
            rows.append((only("auth_user", obj.target_user_id), f"mute, suspend or ban {who}"))
        if obj.game_id:
            rows.append((only("moderation_moderatedgame", obj.game_id), "abort the game or hide its replay"))
        rows.append((only("moderation_report", obj.pk), "resolve or dismiss this report"))
        return format_html_join(mark_safe("<br>"), '<a href="{}">{}</a>', rows)

    @admin.display(description="details")
    def short_text(self, obj: Report) -> str:
        return obj.text if len(obj.text) <= 80 else obj.text[:79] + "…"


# --- the table chat --------------------------------------------------------------------------


@admin.register(Mute)
class MuteAdmin(PenaltyAdmin):
    pass


hide_messages = _action(
    "hide_messages",
    services.chat_message_hide,
    "message",
    "chat",
    "Hide the selected chat messages from everyone",
    "Hidden",
)


@admin.register(ModeratedChatMessage)
class ChatMessageAdmin(ModeratorPermissions, ReadOnlyAdmin):
    list_display = ("id", "created_at", "user", "table", "channel", "text", "hidden")
    list_filter = ("channel",)
    search_fields = ("=id", "user__username", "text")
    list_select_related = ("user", "hide")
    actions = [hide_messages]

    @admin.display(description="hidden", boolean=True)
    def hidden(self, obj: Any) -> bool:
        return hasattr(obj, "hide")


# --- tournaments -------------------------------------------------------------------------------

cancel_tournaments = _action(
    "cancel_tournaments",
    services.tournament_cancel,
    "tournament",
    "tournament",
    "Cancel the selected tournaments (no more tables; games in progress are played to their end)",
    "Cancelled",
)
remove_entrants = _action(
    "remove_entrants",
    services.tournament_player_remove,
    "entry",
    "tournament",
    "Remove the selected players from their tournaments (a bot plays out their game in progress, "
    "which they lose; they are not seated again)",
    "Removed",
)


@admin.register(ModeratedTournament)
class ModeratedTournamentAdmin(ModeratorPermissions, ReadOnlyAdmin):
    list_display = ("id", "name", "format", "status", "starts_at", "finished_at")
    list_filter = ("status", "format")
    search_fields = ("=id", "name")
    actions = [cancel_tournaments]
    fields = (
        "name",
        "format",
        "status",
        "starts_at",
        "started_at",
        "finished_at",
        "event_page",
        "entrants",
        "moderation_history",
    )
    readonly_fields = fields

    @admin.display(description="page")
    def event_page(self, obj: Any) -> SafeString:
        return format_html('<a href="/tournaments/{}/">/tournaments/{}/</a>', obj.pk, obj.pk)

    @admin.display(description="entrants")
    def entrants(self, obj: Any) -> SafeString:
        url = reverse("admin:moderation_moderatedentry_changelist") + f"?tournament__id__exact={obj.pk}"
        n = ModeratedEntry.objects.filter(tournament_id=obj.pk).count()
        return format_html('<a href="{}">{} entrants: remove a player</a>', url, n)

    @admin.display(description="past moderator actions")
    def moderation_history(self, obj: Any) -> SafeString | str:
        entries = list(ModeratedEntry.objects.filter(tournament_id=obj.pk).values_list("pk", flat=True))
        return _audit_list(audit_entries_with_entries(obj, entries))


@admin.register(ModeratedEntry)
class ModeratedEntryAdmin(ModeratorPermissions, ReadOnlyAdmin):
    list_display = ("id", "user", "tournament", "score", "games", "withdrawn", "removed")
    list_filter = ("tournament__status", ("removed_at", admin.EmptyFieldListFilter))
    search_fields = ("user__username", "tournament__name", "=tournament__id")
    list_select_related = ("user", "tournament")
    actions = [remove_entrants]

    @admin.display(description="removed", boolean=True)
    def removed(self, obj: Any) -> bool:
        return obj.removed_at is not None


# --- the audit log ---------------------------------------------------------------------------


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdmin):
    list_display = ("created_at", "actor", "action", "target", "reason")
    list_filter = ("action",)
    search_fields = ("actor__username", "target", "reason")
    list_select_related = ("actor",)
    fields = ("created_at", "actor", "action", "target_type", "target_id", "target", "reason")
    readonly_fields = fields
