"""The embedded default: a Celery worker and beat inside the server process, on the memory broker.

Only for one process on one machine (the README's run command). Beyond that, run `celery worker`
and `celery beat` on Redis beside as many ASGI processes as needed.
"""

from __future__ import annotations

import logging
import socket
import threading
from typing import Any

log = logging.getLogger(__name__)
_started = False


def start_embedded_worker(concurrency: int = 4) -> Any:
    global _started
    if _started:
        return None
    from celery.beat import EmbeddedService

    from harehra_site.celery import app

    worker = app.WorkController(
        pool="threads",
        concurrency=concurrency,
        hostname=f"embedded@{socket.gethostname()}",
        loglevel="WARNING",
        without_heartbeat=True,
        without_mingle=True,
        without_gossip=True,
    )
    threading.Thread(target=worker.start, name="celery-worker", daemon=True).start()
    beat = EmbeddedService(app, thread=True)
    beat.daemon = True
    beat.start()
    _started = True
    log.info("embedded Celery worker and beat started")
    return worker
