"""The test servers' settings (server_settings) with Celery's timer precision at an hour: a worker
whose timer thread looks at its entries only when its sleep ends would wait up to an hour to run
a task entered while it waits for a later one (tests/games/test_bot_delay_servers.py)."""

from tests.support.server_settings import *  # noqa: F403

CELERY_WORKER_TIMER_PRECISION = 3600.0
