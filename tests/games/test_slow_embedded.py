"""The embedded run's in-process worker (harehra_site/embedded.py) applies a slow game's deadline
that the sweep handed to its task, through the memory broker, as `bash scripts/run` does."""

from __future__ import annotations

import threading
import time
from datetime import timedelta

import pytest
from celery import current_app as app

from games.models import Game, GameEvent
from games.services.sweep import sweep_run
from harehra_site.embedded import embedded_worker
from plumbing import clock
from tests.factories import seated_game

pytestmark = pytest.mark.django_db(transaction=True)


def _drain() -> None:
    """What earlier tests left on the memory broker's queue (no worker ran it)."""
    with app.connection_for_read() as conn:
        queue = conn.SimpleQueue("celery", no_ack=True)
        try:
            while True:
                try:
                    queue.get(block=False)
                except queue.Empty:
                    return
        finally:
            queue.close()


def test_the_embedded_worker_applies_a_slow_deadline_the_sweep_handed_over(make_user, client_for):
    clients = [client_for(make_user()) for _ in range(2)]
    game = Game.objects.get(pk=seated_game(clients, pace="slow", decision_seconds=24 * 3600))
    seq = game.last_seq
    _drain()
    worker = embedded_worker(2, name="test-slow")
    thread = threading.Thread(target=worker.start, daemon=True)
    thread.start()
    try:
        clock.shift(game.deadline_at - clock.now() + timedelta(seconds=1))
        assert sweep_run().done["slow_handed"] == 1  # sent once the claim committed (autocommit)
        for _ in range(300):  # the worker's thread moves it: at most 30 s
            if Game.objects.filter(pk=game.pk).values_list("last_seq", flat=True)[0] > seq:
                break
            time.sleep(0.1)
        assert GameEvent.objects.get(game=game, seq=seq + 1).actor_id is None  # the autopilot's
    finally:
        clock.reset()
        worker.stop(in_sighandler=False)
        thread.join(30)
