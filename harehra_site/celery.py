"""The Celery app: Redis as broker when REDIS_URL is set, an in-process memory broker otherwise."""

import logging
import os
from typing import Any

from celery import Celery
from celery.signals import after_setup_logger, after_setup_task_logger

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "harehra_site.settings")

app = Celery("harehra")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@after_setup_logger.connect
@after_setup_task_logger.connect
def _log_lines(logger: logging.Logger, **kwargs: Any) -> None:
    """The worker's lines in the servers' format (settings.LOGGING: JSON by default). Celery still
    sets its logging up, only its handlers' format is replaced: skipping its setup altogether (a
    `setup_logging` receiver) made games on the live-server tests stall now and then, for a
    reason not found."""
    from django.conf import settings

    from harehra_site.logs import line_formatter

    for handler in logger.handlers:
        handler.setFormatter(line_formatter(settings.LOG_FORMAT))
