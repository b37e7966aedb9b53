"""Reads of a person's notifications, and their words in the reader's language."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from urllib.parse import quote

from django.utils import formats, timezone
from django.utils.translation import gettext as _

from .models import Channel, Kind, Notification, NotificationPreference

# The notifications page and API list the newest this many.
LIST_AT_MOST = 50


def unread_count(user_id: int) -> int:
    return Notification.objects.filter(user_id=user_id, read_at__isnull=True).count()


def notification_url(n: Notification) -> str:
    """The page a notification opens."""
    if n.kind == Kind.FOLLOWER:
        return f"/players/{quote(str(n.data.get('name', '')))}/"
    if n.kind == Kind.ANALYSIS_READY:
        return f"/replays/{int(n.data.get('game', 0))}/"
    if n.kind == Kind.CHALLENGE:
        return f"/challenges/{int(n.data.get('challenge', 0))}/"
    if n.kind in (Kind.YOUR_TURN, Kind.SLOW_TURN, Kind.DECISION_MISSED):
        return f"/games/{int(n.data.get('game', 0))}/"
    if n.kind == Kind.TOURNAMENT_STARTING:
        return f"/tournaments/{int(n.data.get('tournament', 0))}/"
    return "/notifications/"


def _at(value: Any, form: str = "DATETIME_FORMAT") -> str:
    """An ISO time from a notification's data, in the site's time zone (named: the words are read
    in mail and push too, where no page script turns them into the reader's) and language."""
    try:
        moment = timezone.localtime(datetime.fromisoformat(str(value)))
    except ValueError:
        return ""
    shown = formats.time_format(moment, form) if form == "TIME_FORMAT" else formats.date_format(moment, form)
    return f"{shown} {moment.tzname()}"


def _moderation_text(data: dict[str, Any]) -> str:
    action, reason = data.get("action"), data.get("reason", "")
    if action == "suspend":
        return _("A moderator suspended your account until %(until)s. Reason: %(reason)s") % {
            "until": _at(data.get("until")),
            "reason": reason,
        }
    if action == "ban":
        return _("A moderator banned your account. Reason: %(reason)s") % {"reason": reason}
    if action == "mute":
        if data.get("until"):
            return _("A moderator muted you in the chat until %(until)s. Reason: %(reason)s") % {
                "until": _at(data.get("until")),
                "reason": reason,
            }
        return _("A moderator muted you in the chat. Reason: %(reason)s") % {"reason": reason}
    if action == "report_resolved":
        return _("Your report #%(report)s was handled: a moderator acted on it. Thank you.") % {
            "report": data.get("report", "")
        }
    if action == "report_dismissed":
        return _("Your report #%(report)s was looked at: a moderator found nothing to act on.") % {
            "report": data.get("report", "")
        }
    return _("A moderator made a decision about your account.")


def notification_text(n: Notification) -> str:
    """Its words, in the active language."""
    if n.kind == Kind.FOLLOWER:
        return _("%(name)s follows you.") % {"name": n.data.get("name", "")}
    if n.kind == Kind.ANALYSIS_READY:
        return _("The analysis you asked for, of game %(game)s, is ready.") % {"game": n.data.get("game", "")}
    if n.kind == Kind.CHALLENGE:
        return _("%(name)s challenges you to a game.") % {"name": n.data.get("name", "")}
    if n.kind == Kind.YOUR_TURN:
        return _("Your move at table %(table)s (game %(game)s): the time runs out at %(deadline)s.") % {
            "table": n.data.get("table", ""),
            "game": n.data.get("game", ""),
            "deadline": _at(n.data.get("deadline"), "TIME_FORMAT"),
        }
    if n.kind == Kind.SLOW_TURN:
        return _("Your decision at table %(table)s (game %(game)s): the time runs out on %(deadline)s.") % {
            "table": n.data.get("table", ""),
            "game": n.data.get("game", ""),
            "deadline": _at(n.data.get("deadline")),
        }
    if n.kind == Kind.DECISION_MISSED:
        words = {"table": n.data.get("table", ""), "game": n.data.get("game", "")}
        if n.data.get("taken"):
            return (
                _(
                    "You missed another decision at table %(table)s (game %(game)s): a bot now plays "
                    "your seat until you take it back."
                )
                % words
            )
        return _("You missed a decision at table %(table)s (game %(game)s): a bot played it for you.") % words
    if n.kind == Kind.TOURNAMENT_STARTING:
        return _("%(name)s, a tournament you entered, starts at %(at)s.") % {
            "name": n.data.get("name", ""),
            "at": _at(n.data.get("starts_at")),
        }
    if n.kind == Kind.MODERATION:
        return _moderation_text(n.data)
    return ""


def notification_dict(n: Notification) -> dict[str, Any]:
    words, link = notification_text(n), notification_url(n)
    return {
        "id": n.pk,
        "kind": n.kind,
        "data": n.data,
        "text": words,
        "url": link,
        "at": n.created_at.isoformat(),
        "read": n.read_at is not None,
    }


def notifications_of(user_id: int) -> list[dict[str, Any]]:
    rows = Notification.objects.filter(user_id=user_id).order_by("-created_at", "-pk")[:LIST_AT_MOST]
    return [notification_dict(n) for n in rows]


# --- preferences -------------------------------------------------------------------------------

# The site channel is always on: a notification is kept and counted on the bell whatever else
# the person chose (it is the record the other channels point at). Push and email are theirs to
# choose; without a choice, push is on for every kind and email only for those below.
# A slow game's decisions are told by email too unless the person says otherwise: they come hours
# or days apart, when the person is likely away from the site.
EMAIL_BY_DEFAULT = frozenset({"challenge", "slow_turn", "decision_missed"})
CHOOSABLE = (Channel.PUSH, Channel.EMAIL)


def wanted_by_default(kind: str, channel: str) -> bool:
    if channel == Channel.EMAIL:
        return kind in EMAIL_BY_DEFAULT
    return True


def wants(user_id: int, kind: str, channel: str) -> bool:
    """Whether the person wants `kind` delivered on `channel` (one indexed read, none for site)."""
    if channel == Channel.SITE:
        return True
    chosen = (
        NotificationPreference.objects.filter(user_id=user_id, kind=kind, channel=channel)
        .values_list("enabled", flat=True)
        .first()
    )
    return wanted_by_default(kind, channel) if chosen is None else chosen


def preferences_of(user_id: int) -> dict[str, dict[str, bool]]:
    """Every kind's every channel for the person: {kind: {channel: on}}."""
    chosen = {
        (k, c): on
        for k, c, on in NotificationPreference.objects.filter(user_id=user_id).values_list(
            "kind", "channel", "enabled"
        )
    }
    return {
        kind: {
            channel: channel == Channel.SITE or chosen.get((kind, channel), wanted_by_default(kind, channel))
            for channel in Channel.values
        }
        for kind in Kind.values
    }


def kind_label(kind: str) -> str:
    """A kind's name in the settings table and emails, in the active language."""
    labels = {
        Kind.FOLLOWER: _("A new follower"),
        Kind.ANALYSIS_READY: _("Your requested analysis is ready"),
        Kind.YOUR_TURN: _("Your move in a game you are not looking at"),
        Kind.TOURNAMENT_STARTING: _("A tournament you entered starts in 5 minutes"),
        Kind.MODERATION: _("A moderator's decision about you"),
        Kind.CHALLENGE: _("A challenge to a table"),
        Kind.SLOW_TURN: _("Your decision awaited in a slow game"),
        Kind.DECISION_MISSED: _("A decision of yours in a slow game played by a bot"),
    }
    return str(labels.get(kind, Kind(kind).label if kind in Kind.values else kind))


def channel_label(channel: str) -> str:
    labels = {Channel.SITE: _("On the site"), Channel.PUSH: _("Push"), Channel.EMAIL: _("Email")}
    return str(labels[Channel(channel)])
