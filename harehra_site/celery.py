"""The Celery app: Redis as broker when REDIS_URL is set, an in-process memory broker otherwise."""

import os
from typing import Any

from celery import Celery
from celery.signals import setup_logging

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "harehra_site.settings")

app = Celery("harehra")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@setup_logging.connect
def _keep_django_logging(**kwargs: Any) -> None:
    """The worker logs as the servers do (settings.LOGGING: JSON lines by default), not in
    Celery's own format: with a receiver here Celery leaves logging as Django configured it."""
