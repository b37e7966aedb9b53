"""Email, sent by the worker after the transaction commits: never inside a request, whose answer
would then wait on (and its time tell of) a mail server. Django's mail backend sends it
(EMAIL_BACKEND: the console by default, SMTP in production: docs/SETTINGS.md)."""

from __future__ import annotations

from typing import Any

# The project's Celery app (harehra_site/celery.py); tasks are sent by name, so this module does
# not import the tasks that import it.
from celery import current_app as app
from django.db import transaction

MAIL_TASK = "accounts.tasks.mail_send"


def mail_send_later(*, to: str, subject: str, body: str, headers: dict[str, Any] | None = None) -> None:
    """One plain-text message to `to`, sent by the worker once the caller's transaction commits."""
    message = {"to": to, "subject": " ".join(subject.split()), "body": body, "headers": headers or {}}
    transaction.on_commit(lambda: app.send_task(MAIL_TASK, kwargs=message))
