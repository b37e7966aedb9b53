"""The notifications' background work: an email, decided and sent by the worker."""

from __future__ import annotations

from celery import shared_task

from .email import notification_email_send


@shared_task(name="notifications.tasks.notification_email", ignore_result=True)
def notification_email(notification_id: int) -> bool:
    return notification_email_send(notification_id=notification_id)
