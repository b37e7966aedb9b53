"""Notifications by email, for those who chose it and have a verified address: sent by the
worker (never inside a request or a move), at most one an hour per person and topic (a game, a
tournament), in the person's language, each with a signed one-click unsubscribe (RFC 8058).

notification_send enqueues `notification_email_later` after commit; the task
(notifications/tasks.py) runs `notification_email_send`, which hands the message to the mail task
(accounts/mail.py), again after its own commit."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from celery import current_app as app
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import signing
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from accounts.mail import mail_send_later
from accounts.models import Preference
from accounts.services import email_is_verified
from plumbing.errors import ServiceError

from .models import Channel, Kind, Notification, NotificationEmail, NotificationPreference
from .selectors import kind_label, notification_text, notification_url, wants

EMAIL_TASK = "notifications.tasks.notification_email"
# At most one email per person and topic in this long.
EMAIL_EVERY = timedelta(hours=1)
# The salt keeps an unsubscribe token from being any other signed value of the site.
UNSUBSCRIBE_SALT = "notifications.unsubscribe"


def notification_email_later(notification_id: int) -> None:
    """Once the caller's transaction commits, the worker decides and sends the email."""
    transaction.on_commit(lambda: app.send_task(EMAIL_TASK, args=(notification_id,)))


def email_topic(n: Notification) -> str:
    """What the hourly limit counts: a game's notifications share one, so do a tournament's."""
    if n.kind == Kind.SLOW_TURN and n.data.get("game") and n.data.get("deadline"):
        # Each decision of a slow game is its own topic: they come hours apart, and the
        # notification is sent once per decision already.
        return f"decision:{int(n.data['game'])}:{n.data['deadline']}"[:80]
    if n.kind == Kind.YOUR_TURN and n.data.get("game"):
        return f"game:{int(n.data['game'])}"
    if n.kind == Kind.TOURNAMENT_STARTING and n.data.get("tournament"):
        return f"tournament:{int(n.data['tournament'])}"
    return f"notification:{n.pk}"


def unsubscribe_token(user_id: int, kind: str) -> str:
    """A link's token that turns `kind`'s email off for the person; it does not expire."""
    return signing.Signer(salt=UNSUBSCRIBE_SALT).sign_object({"u": user_id, "k": kind})


def unsubscribe_read(token: str) -> tuple[int, str]:
    """(person, kind) of a token; `bad_link` if it is not one of ours."""
    try:
        data = signing.Signer(salt=UNSUBSCRIBE_SALT).unsign_object(token)
        user_id, kind = int(data["u"]), str(data["k"])
    except (signing.BadSignature, KeyError, TypeError, ValueError) as e:
        raise ServiceError("bad_link", "this link is not valid") from e
    if kind not in Kind.values:
        raise ServiceError("bad_link", "this link is not valid")
    return user_id, kind


def unsubscribe_url(user_id: int, kind: str) -> str:
    return f"{settings.SITE_URL}/notifications/unsubscribe/{unsubscribe_token(user_id, kind)}/"


def notification_email_unsubscribe(*, token: str) -> tuple[int, str]:
    """The unsubscribe link's POST: the kind's email off for the token's person, no sign-in."""
    user_id, kind = unsubscribe_read(token)
    with transaction.atomic():
        if not get_user_model().objects.filter(pk=user_id).exists():
            raise ServiceError("bad_link", "this link is not valid")
        NotificationPreference.objects.update_or_create(
            user_id=user_id, kind=kind, channel=Channel.EMAIL, defaults={"enabled": False}
        )
    return user_id, kind


def _claim(user_id: int, topic: str) -> bool:
    """Whether an email on `topic` may go now (none in the last hour), recording it if so. The
    conditional update and the unique row make two racing senders send once."""
    now = timezone.now()
    mine = NotificationEmail.objects.filter(user_id=user_id, topic=topic)
    if mine.filter(sent_at__lte=now - EMAIL_EVERY).update(sent_at=now):
        return True
    _, created = NotificationEmail.objects.get_or_create(
        user_id=user_id, topic=topic, defaults={"sent_at": now}
    )
    return created


def _language(user_id: int) -> str:
    chosen = Preference.objects.filter(user_id=user_id).values_list("language", flat=True).first()
    return chosen or settings.LANGUAGE_CODE


def notification_email_send(*, notification_id: int) -> bool:
    """The worker's part: email the notification if its person still wants it, has a verified
    address and had none on its topic this hour. Whether one was sent."""
    with transaction.atomic():
        n = Notification.objects.filter(pk=notification_id).first()
        if n is None or not wants(n.user_id, n.kind, Channel.EMAIL):
            return False
        user = get_user_model().objects.filter(pk=n.user_id, is_active=True).first()
        if user is None or not email_is_verified(user):
            return False
        if not _claim(n.user_id, email_topic(n)):
            return False
        unsubscribe = unsubscribe_url(n.user_id, n.kind)
        with translation.override(_language(n.user_id)):
            context: dict[str, Any] = {
                "name": user.get_username(),
                "text": notification_text(n),
                "link": settings.SITE_URL + notification_url(n),
                "kind": kind_label(n.kind),
                "unsubscribe": unsubscribe,
                "settings_link": f"{settings.SITE_URL}/notifications/settings/",
            }
            subject = _("Harehra Online: %(kind)s") % {"kind": context["kind"]}
            body = render_to_string("notifications/mail/notification.txt", context)
        headers = {
            "List-Unsubscribe": f"<{unsubscribe}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        }
        mail_send_later(to=user.email, subject=subject, body=body, headers=headers)
    return True
