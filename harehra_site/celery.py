"""The Celery app: Redis as broker when REDIS_URL is set, an in-process memory broker otherwise."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "harehra_site.settings")

app = Celery("harehra")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
