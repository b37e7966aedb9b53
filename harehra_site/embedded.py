"""The embedded default: a Celery worker and beat inside the server process, on the memory broker.

Only for one process on one machine (the README's run command). Beyond that, run `celery worker`
and `celery beat` on Redis beside as many ASGI processes as needed.
"""

from __future__ import annotations

import logging
import socket
import threading
from typing import Any

from celery.utils.timer2 import Timer

log = logging.getLogger(__name__)
_started = False


class PromptTimer(Timer):
    """The worker's timer thread, which runs countdown and ETA tasks when they are due, woken by
    every entry entered.

    A worker on the memory broker has no event loop, so Celery runs its timer on a thread
    (celery/utils/timer2.py) that sleeps min(time to its next entry, worker_timer_precision = 1 s)
    and does not wake for an entry entered meanwhile. A game keeps a countdown task pending up to
    a timer period ahead, so the timer always slept whole seconds: a bot's task due 0.8 s after a
    move ran when the running sleep ended, the bots of a table moved about 1 s apart whatever
    BOT_DELAY_SECONDS said. This timer waits on the condition that entering an entry
    notifies instead, so a new earlier entry is seen at once, with no polling."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._stopping = threading.Event()

    def _next_entry(self) -> float | None:
        with self.not_empty:
            delay, entry = next(self.scheduler)
            if entry is None:
                if delay is not None and self.on_tick:
                    self.on_tick(delay)
                if not self._stopping.is_set():
                    # Until the next entry is due, or another is entered (then look again).
                    self.not_empty.wait(1.0 if delay is None else delay)
                return None  # the thread's loop sleeps only for a delay returned
        return self.schedule.apply_entry(entry)  # type: ignore[no-any-return]

    __next__ = next = _next_entry

    def stop(self) -> None:
        with self.not_empty:  # wake the thread from its wait: it sees the stop at once
            self._stopping.set()
            self.not_empty.notify_all()
        super().stop()


def embedded_worker(concurrency: int = 4, queues: list[str] | None = None, name: str = "embedded") -> Any:
    """The in-process worker, made but not started: a thread pool, the prompt timer.

    With `queues`, a worker of a Celery app of its own: a worker chooses its queues on its app
    (`app.amqp.queues.select`), so a second worker on the site's app would choose for both. The
    memory broker is one per process, so both apps reach the same queues."""
    from harehra_site.celery import app

    if queues is not None:
        from celery import Celery

        app = Celery(f"harehra-{name}")
        app.config_from_object("django.conf:settings", namespace="CELERY")
        app.autodiscover_tasks()
    return app.WorkController(
        pool="threads",
        concurrency=concurrency,
        queues=queues,
        hostname=f"{name}@{socket.gethostname()}",
        loglevel="WARNING",
        without_heartbeat=True,
        without_mingle=True,
        without_gossip=True,
        timer_cls=PromptTimer,
        # A worker of its own queues reserves one task at a time: an analysis waiting on the
        # broker can still be overtaken (a requested one by priority, on Redis).
        **({"prefetch_multiplier": 1} if queues is not None else {}),
    )


def start_embedded_worker(concurrency: int = 4) -> Any:
    global _started
    if _started:
        return None
    from celery.beat import EmbeddedService

    from harehra_site.celery import app

    worker = embedded_worker(concurrency)
    threading.Thread(target=worker.start, name="celery-worker", daemon=True).start()
    # Analyses (the "analysis" queue) one at a time on a worker of their own, each computed in a
    # child process (analysis/apart.py): bots and timers never wait behind one, and live play
    # never shares the interpreter lock with one.
    analyst = embedded_worker(1, queues=["analysis"], name="embedded-analyst")
    threading.Thread(target=analyst.start, name="celery-analyst", daemon=True).start()
    beat = EmbeddedService(app, thread=True)
    beat.daemon = True
    beat.start()
    _started = True
    log.info("embedded Celery worker and beat started")
    return worker
