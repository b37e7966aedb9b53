"""The accounts' background work: sending mail (accounts/mail.py)."""

from __future__ import annotations

import smtplib
from typing import Any

from celery import shared_task
from django.conf import settings
from django.core.mail import EmailMessage


@shared_task(
    name="accounts.tasks.mail_send",
    ignore_result=True,
    autoretry_for=(OSError, smtplib.SMTPException),
    retry_backoff=30,
    max_retries=5,
)
def mail_send(to: str, subject: str, body: str, headers: dict[str, Any] | None = None) -> None:
    EmailMessage(subject, body, settings.DEFAULT_FROM_EMAIL, [to], headers=headers or {}).send()
