"""The embedded worker (harehra_site/embedded.py): its timer runs a timed task when it is due, even
while it waits for a later one (otherwise bots move about 1 s apart whatever their delay)."""

from __future__ import annotations

import threading

from celery.utils.timer2 import Timer

from harehra_site.embedded import PromptTimer, embedded_worker


def test_the_embedded_worker_times_its_tasks_on_the_prompt_timer() -> None:
    worker = embedded_worker()
    # The memory broker has no event loop: the worker's countdown and ETA tasks wait on this
    # timer thread (with Redis they wait on the worker's event loop instead).
    assert not worker.use_eventloop
    assert type(worker.timer) is PromptTimer
    assert isinstance(worker.timer, Timer)


def _entered_while_waiting(timer: Timer) -> bool:
    """Enter an entry due at once while `timer` waits for one an hour ahead: did it run?"""
    waiting, ran = threading.Event(), threading.Event()
    timer.on_tick = lambda delay: waiting.set()  # called as the thread starts to wait
    timer.call_after(3000, lambda: None)  # a game's countdown, far ahead
    assert waiting.wait(10), "the timer never started to wait"
    timer.call_after(0.01, ran.set)  # a bot's move, due now
    # Not a timing: the entry runs at once or, with Celery's own timer, when its sleep ends (as
    # long as the precision, here an hour).
    return ran.wait(20)


def test_an_entry_entered_while_the_timer_waits_for_a_later_one_runs_when_due() -> None:
    timer = PromptTimer(max_interval=3600)  # how long Celery's own timer would sleep unwoken
    try:
        assert _entered_while_waiting(timer)
    finally:
        timer.stop()  # wakes the thread from its wait: no hour-long join
    assert not timer.is_alive()


def test_the_prompt_timer_still_runs_entries_in_their_order_and_repeats() -> None:
    timer = PromptTimer(max_interval=1.0)
    order: list[str] = []
    done = threading.Event()
    try:
        timer.call_after(0.3, lambda: (order.append("later"), done.set()))
        timer.call_after(0.1, lambda: order.append("sooner"))
        ticks = threading.Semaphore(0)
        timer.call_repeatedly(0.05, ticks.release)
        assert done.wait(20)
        assert all(ticks.acquire(timeout=20) for _ in range(3))
    finally:
        timer.stop()
    assert order == ["sooner", "later"]


def test_the_embedded_broker_connects_without_a_warning(caplog) -> None:
    """`bash scripts/run` printed "No hostname was supplied. Reverting to default 'localhost'"
    twice as it started: kombu says so of a broker address without a host."""
    from harehra_site.celery import app

    assert app.conf.broker_url.startswith("memory://")  # no REDIS_URL: the embedded run's broker
    with caplog.at_level("WARNING", logger="kombu.connection"), app.connection_for_write() as conn:
        conn.info()
    assert not [r.getMessage() for r in caplog.records if "hostname" in r.getMessage()]
