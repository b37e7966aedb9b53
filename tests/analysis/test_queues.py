"""Analyses run on their own queue, which the worker of bots and timers never consumes: a bot's move
never waits behind an analysis on the worker (bench_bot_delay --analyses measures the rest)."""

from __future__ import annotations

import shlex

from celery import Celery

from harehra_site.embedded import embedded_worker
from tests.support.stack import ANALYST_ARGS, ROOT


def _procfile() -> dict[str, list[str]]:
    lines = (ROOT / "Procfile").read_text().splitlines()
    return {
        name: shlex.split(command)
        for name, _, command in (line.partition(": ") for line in lines if line and not line.startswith("#"))
    }


def test_analysis_tasks_go_to_the_analysis_queue_which_the_default_worker_never_consumes() -> None:
    # An app as `celery -A harehra_site worker` (no --queues: the Procfile's worker) makes it.
    app = Celery("harehra-queues-test")
    app.config_from_object("django.conf:settings", namespace="CELERY")
    assert app.amqp.router.route({}, "analysis.tasks.analyse_game")["queue"].name == "analysis"
    assert app.amqp.router.route({}, "games.tasks.bot_move")["queue"].name == "celery"
    # Routing the analysis made its queue known, yet the worker consumes what it knew at its start.
    assert "analysis" in app.amqp.queues
    assert set(app.amqp.queues.consume_from) == {"celery"}
    assert "--queues" not in _procfile()["worker"] and "-Q" not in _procfile()["worker"]


def test_the_analyst_consumes_the_analysis_queue_alone_one_task_reserved_at_a_time() -> None:
    analyst = _procfile()["analyst"]
    for flag, value in zip(ANALYST_ARGS[::2], ANALYST_ARGS[1::2], strict=True):
        assert analyst[analyst.index(flag) + 1] == value  # the bench's and tests' analyst is the Procfile's
    assert ANALYST_ARGS[:2] == ("--queues", "analysis") and "--prefetch-multiplier" in ANALYST_ARGS

    embedded = embedded_worker(1, queues=["analysis"], name="test-analyst")
    assert set(embedded.app.amqp.queues.consume_from) == {"analysis"}
    assert embedded.prefetch_multiplier == 1
