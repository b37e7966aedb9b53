"""Moderator actions and user reports. Every moderator action is checked by access_moderator,
locks what it changes, writes its AuditEntry in the same transaction and publishes after commit."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone
from rest_framework.authtoken.models import Token

from accounts.models import Mute, Sanction, SanctionKind
from accounts.notices import sanction_notice
from accounts.publish import publish_user_sanctioned
from accounts.sessions import user_sessions_end
from accounts.standing import active_mutes, active_sanctions
from chat.models import ChatHide, ChatMessage
from chat.publish import publish_chat_hidden
from chat.selectors import chat_message_visible_to
from games.access import access_game_view, access_signed_in
from games.models import Game
from games.services.moves import game_abort as game_command_abort
from games.services.seats import game_replay_set_hidden
from games.services.tables import user_remove_from_play
from notifications.models import Kind
from notifications.services import notification_send
from plumbing.errors import ServiceError
from plumbing.params import is_count
from plumbing.text import without_bidi_controls
from tournaments.models import Entry, Tournament
from tournaments.services import tournament_cancel as tournament_call_off
from tournaments.services import tournament_remove

from .access import access_moderator
from .models import AuditAction, AuditEntry, Report, ReportReason, ReportStatus, audit_target_type

REASON_MAX = 1000
REPORT_TEXT_MAX = 2000
REPORTS_PER_HOUR = 5
MAX_SUSPENSION = timedelta(days=3650)


# --- helpers ---------------------------------------------------------------------------------


def _reason(reason: Any, what: str = "a reason") -> str:
    text = reason.strip() if isinstance(reason, str) else ""
    if not text:
        raise ServiceError("reason_required", f"give {what}")
    if len(text) > REASON_MAX:
        raise ServiceError("reason_too_long", f"keep it under {REASON_MAX} characters")
    return text


def _audit(actor: Any, action: str, target: Any, reason: str) -> AuditEntry:
    return AuditEntry.objects.create(
        actor=actor,
        action=action,
        target_type=audit_target_type(target),
        target_id=str(target.pk),
        target=_describe(target)[:200],
        reason=reason,
    )


def _describe(target: Any) -> str:
    if isinstance(target, get_user_model()):
        return f"user {target.get_username()} (#{target.pk})"
    if isinstance(target, Game):
        return f"game {target.pk} (table {target.table_id}, game {target.number})"
    if isinstance(target, Report):
        return f"report {target.pk}"
    if isinstance(target, ChatMessage):
        return f"chat message {target.pk} by {target.user.get_username()} at table {target.table_id}"
    if isinstance(target, Entry):
        t = target.tournament
        return f"user {target.user.get_username()} (#{target.user_id}) in tournament {t.name} (#{t.pk})"
    if isinstance(target, Tournament):
        return f"tournament {target.name} (#{target.pk})"
    return str(target)


def _locked_user(user: Any) -> Any:
    return get_user_model().objects.select_for_update().get(pk=user.pk)


# --- sanctions and mutes ----------------------------------------------------------------------
# A sanction (suspension or ban: no sign-in, no play) and a mute (no chat) are the same thing: a
# row in force on a user from now until its end or until a moderator lifts it. Placing one and
# lifting them is one path; a `_Restraint` says only what differs.


@dataclass(frozen=True)
class _Restraint:
    model: type[Sanction] | type[Mute]
    in_force: Callable[[int], QuerySet[Any]]
    refused_by: Q  # the restraints in force that refuse another one
    already: tuple[str, str]  # the refusal's code, and what the user already is
    not_in_force: tuple[str, str]  # lifting none: the code, and what the user is not
    lift_action: str


SANCTIONS = _Restraint(
    Sanction,
    active_sanctions,
    Q(kind=SanctionKind.BAN),  # a suspension may follow a suspension; nothing follows a ban
    ("already_banned", "banned"),
    ("not_sanctioned", "suspended or banned"),
    AuditAction.LIFT,
)
MUTES = _Restraint(
    Mute, active_mutes, Q(), ("already_muted", "muted"), ("not_muted", "muted"), AuditAction.UNMUTE
)


def _check_target(moderator: Any, user: Any) -> None:
    if user.pk == moderator.pk:
        raise ServiceError("bad_target", "you cannot sanction yourself")
    if (user.is_superuser or user.is_staff) and not moderator.is_superuser:
        raise ServiceError("bad_target", "only a superuser may sanction staff", 403)


def _restraint_place(
    restraint: _Restraint,
    moderator: Any,
    user: Any,
    *,
    action: str,
    until: datetime | None,
    reason: str,
    fields: dict[str, Any] | None = None,
    take_effect: Callable[[Any], None] | None = None,
) -> Any:
    """Place a restraint on `user`; `take_effect` runs first, under the user's lock."""
    with transaction.atomic():
        user = _locked_user(user)
        _check_target(moderator, user)
        if restraint.in_force(user.pk).filter(restraint.refused_by).exists():
            code, state = restraint.already
            raise ServiceError(code, f"{user.get_username()} is already {state}", 409)
        if take_effect is not None:
            take_effect(user)
        row = restraint.model.objects.create(
            user=user, until=until, reason=reason, created_by=moderator, **(fields or {})
        )
        note = reason if until is None else f"until {until.isoformat()}: {reason}"
        _audit(moderator, action, user, note)
    return row


def _restraint_lift(restraint: _Restraint, moderator: Any, user: Any, reason: str) -> int:
    """Lift every restraint of its kind in force on `user`; returns how many were lifted."""
    with transaction.atomic():
        user = _locked_user(user)
        lifted = (
            restraint.in_force(user.pk)
            .select_for_update()
            .update(lifted_at=timezone.now(), lifted_by=moderator, lift_reason=reason)
        )
        if not lifted:
            code, state = restraint.not_in_force
            raise ServiceError(code, f"{user.get_username()} is not {state}", 409)
        _audit(moderator, restraint.lift_action, user, reason)
    return lifted


def _sanction(moderator: Any, user: Any, kind: str, until: datetime | None, reason: str) -> Sanction:
    def take_effect(user: Any) -> None:
        # Before the sanction is placed: leaving a table needs a user who may still play.
        user_remove_from_play(user=user, reason="banned")
        Token.objects.filter(user=user).delete()  # API clients must sign in again, and cannot
        user_sessions_end(user.pk, tell_why=True)  # so must browsers: every session ends now, and
        # each browser's next page says why (accounts/notices.py)
        user_id, notice = user.pk, sanction_notice(kind, until, reason)
        # Every socket closes now, each telling its page why (accounts/notices.py).
        publish_user_sanctioned(user_id, notice)

    action = AuditAction.BAN if kind == SanctionKind.BAN else AuditAction.SUSPEND
    with transaction.atomic():
        sanction = _restraint_place(
            SANCTIONS,
            moderator,
            user,
            action=action,
            until=until,
            reason=reason,
            fields={"kind": kind},
            take_effect=take_effect,
        )
        _tell(user.pk, "ban" if kind == SanctionKind.BAN else "suspend", until=until, reason=reason)
    return sanction


def _tell(user_id: int, action: str, *, until: datetime | None = None, reason: str = "", **ids: int) -> None:
    """The person the decision is about hears of it (a notification; an email if they chose it:
    a banned person can no longer read the site). The reason is theirs to know; a report's
    resolution note is the moderators' own and is not sent."""
    data: dict[str, Any] = {"action": action, **ids}
    if reason:
        data["reason"] = reason
    if until is not None:
        data["until"] = until.isoformat()
    notification_send(user_id=user_id, kind=Kind.MODERATION, data=data)


def user_suspend(
    *,
    moderator: Any,
    user: Any,
    reason: Any,
    until: datetime | None = None,
    period: timedelta | None = None,
) -> Sanction:
    """Suspend `user` until `until` (or for `period`): no sign-in, no seat, no socket until then."""
    access_moderator(moderator, "sanction")
    reason = _reason(reason)
    now = timezone.now()
    if (until is None) == (period is None):
        raise ServiceError("bad_period", "give either an end time or a period")
    if until is None:
        assert period is not None
        until = now + period
    if until <= now:
        raise ServiceError("bad_period", "a suspension ends in the future")
    if until - now > MAX_SUSPENSION:
        raise ServiceError("bad_period", "that is a ban: suspensions last at most ten years")
    return _sanction(moderator, user, SanctionKind.SUSPEND, until, reason)


def user_ban(*, moderator: Any, user: Any, reason: Any) -> Sanction:
    """Ban `user` until a moderator lifts it."""
    access_moderator(moderator, "sanction")
    return _sanction(moderator, user, SanctionKind.BAN, None, _reason(reason))


def user_sanction_lift(*, moderator: Any, user: Any, reason: Any) -> int:
    """Lift every sanction in force on `user`; returns how many were lifted."""
    access_moderator(moderator, "sanction")
    return _restraint_lift(SANCTIONS, moderator, user, _reason(reason))


# --- games and replays -----------------------------------------------------------------------


def game_abort(*, moderator: Any, game: Game, reason: Any) -> int:
    """End a running game with no winner; returns the seq of its GameAborted event.

    Nothing in the log is edited: games appends the event through its one append path, so every
    client sees it live; the reason stays here, in the audit log. A game whose log does not end
    where its row says (set aside by the sweep) is ended on its row alone, its log left as found:
    the returned seq is then the row's last.
    """
    access_moderator(moderator, "abort")
    reason = _reason(reason)
    with transaction.atomic():
        seq = game_command_abort(game=game, actor_id=moderator.pk)
        _audit(moderator, AuditAction.ABORT, Game.objects.get(pk=game.pk), reason)
    return seq


def _replay_set_hidden(moderator: Any, game: Game, hidden: bool, reason: Any) -> Game:
    access_moderator(moderator, "hide")
    reason = _reason(reason)
    with transaction.atomic():
        game = game_replay_set_hidden(game=game, hidden=hidden)
        _audit(moderator, AuditAction.HIDE if hidden else AuditAction.UNHIDE, game, reason)
    return game


def replay_hide(*, moderator: Any, game: Game, reason: Any) -> Game:
    """Hide a game's replay from everyone but its players and moderators."""
    return _replay_set_hidden(moderator, game, True, reason)


def replay_unhide(*, moderator: Any, game: Game, reason: Any) -> Game:
    return _replay_set_hidden(moderator, game, False, reason)


# --- reports ---------------------------------------------------------------------------------


def report_create(
    *,
    reporter: Any,
    reason: Any,
    text: Any = "",
    target_username: str | None = None,
    game_id: Any = None,
    chat_message_id: Any = None,
    invite_of: Callable[[int], str | None] | None = None,
) -> Report:
    """A signed-in user reports a player and/or a game (its replay), or a chat message they saw
    (its author is the reported player, its text quoted); at most 5 an hour. `invite_of(table_id)`:
    the invite the request carries for a private table (games/invites.py), if any."""
    access_signed_in(reporter)
    message = None
    if chat_message_id is not None:
        message = _reported_message(reporter, chat_message_id, invite_of)
        target_username = message.user.get_username()
        game_id = None
    if reason not in ReportReason.values:
        raise ServiceError("bad_reason", "choose one of: " + ", ".join(ReportReason.values))
    if text is None:
        text = ""
    if not isinstance(text, str) or len(text.strip()) > REPORT_TEXT_MAX:
        raise ServiceError("bad_text", f"the details are text of at most {REPORT_TEXT_MAX} characters")
    text = without_bidi_controls(text).strip()
    if reason == ReportReason.OTHER and not text:
        raise ServiceError("bad_text", "say what happened")
    target = None
    if target_username:
        target = get_user_model().objects.filter(username=target_username).first()
        if target is None:
            raise ServiceError("no_such_user", "there is no such player", 404)
        if target.pk == reporter.pk:
            raise ServiceError("bad_target", "you cannot report yourself")
    game = None
    if game_id not in (None, ""):
        if isinstance(game_id, bool) or not is_count(str(game_id)):
            raise ServiceError("no_such_game", "there is no such game", 404)
        game = Game.objects.select_related("table").filter(pk=int(game_id)).first()
        if game is None:
            raise ServiceError("no_such_game", "there is no such game", 404)
        try:
            access_game_view(game, reporter, invite_of(game.table_id) if invite_of else None)
        except ServiceError as e:
            raise ServiceError("no_such_game", "there is no such game", 404) from e
    if target is None and game is None:
        raise ServiceError("no_target", "report a player, a game, or both")
    if message is not None:
        quoted = (
            f'Chat message {message.pk} at table {message.table_id} ({message.channel}): "{message.text}"'
        )
        text = f"{quoted}\n\n{text}" if text else quoted
    with transaction.atomic():
        _locked_user(reporter)  # one report at a time per reporter, so the limit holds
        since = timezone.now() - timedelta(hours=1)
        if Report.objects.filter(reporter=reporter, created_at__gte=since).count() >= REPORTS_PER_HOUR:
            raise ServiceError(
                "rate_limited", f"you can file {REPORTS_PER_HOUR} reports an hour: try again later", 429
            )
        if Report.objects.filter(
            reporter=reporter, target_user=target, game=game, chat_message=message, status=ReportStatus.OPEN
        ).exists():
            raise ServiceError(
                "already_reported", "you have already reported this; moderators will look", 409
            )
        return Report.objects.create(
            reporter=reporter, target_user=target, game=game, chat_message=message, reason=reason, text=text
        )


def _reported_message(
    reporter: Any, message_id: Any, invite_of: Callable[[int], str | None] | None
) -> ChatMessage:
    """The chat message `reporter` reports: one they can see, not their own."""
    if isinstance(message_id, bool) or not str(message_id).isdigit():
        raise ServiceError("no_such_message", "there is no such message", 404)
    message = (
        ChatMessage.objects.select_related("user", "table")
        .filter(pk=int(message_id), hide__isnull=True)
        .first()
    )
    invite = invite_of(message.table_id) if message is not None and invite_of else None
    if message is None or not chat_message_visible_to(message, reporter, invite):
        raise ServiceError("no_such_message", "there is no such message", 404)
    if message.user_id == reporter.pk:
        raise ServiceError("bad_target", "you cannot report yourself")
    return message


def _report_close(moderator: Any, report: Report, status: str, note: Any) -> Report:
    access_moderator(moderator, "report")
    note = _reason(note, "a note")
    with transaction.atomic():
        report = Report.objects.select_for_update().get(pk=report.pk)
        if report.status != ReportStatus.OPEN:
            raise ServiceError("not_open", f"report {report.pk} is already {report.status}", 409)
        report.status = status
        report.resolution_note = note
        report.resolved_by = moderator
        report.resolved_at = timezone.now()
        report.save(update_fields=["status", "resolution_note", "resolved_by", "resolved_at"])
        action = AuditAction.RESOLVE if status == ReportStatus.RESOLVED else AuditAction.DISMISS
        _audit(moderator, action, report, note)
        handled = "report_resolved" if status == ReportStatus.RESOLVED else "report_dismissed"
        _tell(report.reporter_id, handled, report=report.pk)
    return report


def report_resolve(*, moderator: Any, report: Report, note: Any) -> Report:
    return _report_close(moderator, report, ReportStatus.RESOLVED, note)


def report_dismiss(*, moderator: Any, report: Report, note: Any) -> Report:
    return _report_close(moderator, report, ReportStatus.DISMISSED, note)


# --- the table chat ----------------------------------------------------------------------------


def chat_message_hide(*, moderator: Any, message: ChatMessage, reason: Any) -> ChatHide:
    """Hide a chat message from everyone; it stays in the chat's log, and who hid it and why stay
    with it and in the audit log. Open pages drop it at once."""
    access_moderator(moderator, "chat")
    reason = _reason(reason)
    with transaction.atomic():
        message = ChatMessage.objects.select_for_update().select_related("user").get(pk=message.pk)
        if ChatHide.objects.filter(message=message).exists():
            raise ServiceError("already_hidden", "the message is already hidden", 409)
        hide = ChatHide.objects.create(message=message, hidden_by=moderator, reason=reason)
        _audit(moderator, AuditAction.HIDE_MESSAGE, message, reason)
        table_id, channel, message_id = message.table_id, message.channel, message.pk
        publish_chat_hidden(table_id, channel, message_id)
    return hide


def user_mute(*, moderator: Any, user: Any, reason: Any, period: timedelta | None = None) -> Mute:
    """Stop `user` chatting (for `period`, or until lifted); they may still play."""
    access_moderator(moderator, "chat")
    reason = _reason(reason)
    if period is not None and not timedelta(0) < period <= MAX_SUSPENSION:
        raise ServiceError("bad_period", "a mute lasts from a minute to ten years, or until lifted")
    until = timezone.now() + period if period is not None else None
    with transaction.atomic():
        mute = _restraint_place(MUTES, moderator, user, action=AuditAction.MUTE, until=until, reason=reason)
        _tell(mute.user_id, "mute", until=until, reason=reason)
    return mute


def user_unmute(*, moderator: Any, user: Any, reason: Any) -> int:
    """Lift every mute in force on `user`; returns how many were lifted."""
    access_moderator(moderator, "chat")
    return _restraint_lift(MUTES, moderator, user, _reason(reason))


# --- tournaments -------------------------------------------------------------------------------


def tournament_player_remove(*, moderator: Any, entry: Entry, reason: Any) -> Entry:
    """Remove a player from a tournament (tournaments' `tournament_remove` says what follows: their
    game in progress is lost, a bot plays it out; never seated again; listed last). Audited as
    done to the entry, in the same transaction."""
    access_moderator(moderator, "tournament")
    reason = _reason(reason)
    with transaction.atomic():
        entry = Entry.objects.select_related("tournament", "user").get(pk=entry.pk)
        entry = tournament_remove(tournament=entry.tournament, user=entry.user, moderator=moderator)
        _audit(
            moderator,
            AuditAction.REMOVE_PLAYER,
            Entry.objects.select_related("tournament", "user").get(pk=entry.pk),
            reason,
        )
    return entry


def tournament_cancel(*, moderator: Any, tournament: Tournament, reason: Any) -> Tournament:
    """Cancel a tournament (tournaments' `tournament_cancel` says what follows: nothing seated any
    more, no podium; games in progress are played to their end and count). Audited."""
    access_moderator(moderator, "tournament")
    reason = _reason(reason)
    with transaction.atomic():
        t = tournament_call_off(tournament=tournament, user=moderator)
        _audit(moderator, AuditAction.CANCEL_EVENT, t, reason)
    return t
