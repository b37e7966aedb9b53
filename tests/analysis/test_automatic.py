"""Automatic analyses (ANALYSIS_AUTOMATIC): a rated game's end queues its analysis when the machine
has room (fewer than ANALYSIS_AUTOMATIC_MAX_PENDING analyses queued or running, counted in
PostgreSQL), at the lowest priority, counted against nobody; an unrated game never. Games are
played to their end through the services; the tasks sent are recorded, not run."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from rest_framework.test import APIClient
from rest_framework.throttling import SimpleRateThrottle

from analysis import services
from analysis.models import AnalysisRequest, RequestStatus
from games.models import Game
from harehra.analysis import ANALYSIS_VERSION
from tests.factories import finished_game

pytestmark = pytest.mark.django_db

Sent = list[tuple[str, list[Any], dict[str, Any]]]


@pytest.fixture(autouse=True)
def _automatic(settings: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    settings.ANALYSIS_AUTOMATIC = True
    settings.ANALYSIS_AUTOMATIC_MAX_PENDING = 2
    monkeypatch.setattr(
        SimpleRateThrottle, "THROTTLE_RATES", {**SimpleRateThrottle.THROTTLE_RATES, "analysis": "1/hour"}
    )


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> Iterator[Sent]:
    """The analysis tasks the services send to the broker (by name), with their options; the rest
    (the bots' and timers') go on as before."""
    tasks: Sent = []
    send = services.app.send_task

    def record(name: str, args: Any = None, kwargs: Any = None, **options: Any) -> Any:
        if not name.startswith("analysis."):
            return send(name, args, kwargs, **options)
        tasks.append((name, args, options))
        return None

    monkeypatch.setattr(services.app, "send_task", record)
    yield tasks


def _ended(people: list[Any], seed: int, *, rated: bool, capture: Any) -> Game:
    with capture(execute=True):  # the game's end commits: the task is sent after it
        return finished_game(people, seed=seed, rated=rated, replay_access="public")


def _pending(game: Game, *, status: str = RequestStatus.QUEUED, age: timedelta = timedelta(0)) -> None:
    at = timezone.now() - age
    AnalysisRequest.objects.create(
        game=game, version=ANALYSIS_VERSION, status=status, asked_at=at, updated_at=at
    )


def test_a_rated_games_end_queues_its_analysis_at_the_lowest_priority_when_there_is_room(
    make_user: Callable[..., Any], sent: Sent, django_capture_on_commit_callbacks: Any
) -> None:
    players = [make_user("ann"), make_user("bob")]
    game = _ended(players, 3, rated=True, capture=django_capture_on_commit_callbacks)
    row = AnalysisRequest.objects.get(game=game, version=ANALYSIS_VERSION)
    assert row.status == RequestStatus.QUEUED and row.requested_by is None
    assert sent == [("analysis.tasks.analyse_game", [game.pk], {"priority": services.AUTOMATIC_PRIORITY})]
    from harehra_site.celery import app

    assert app.amqp.router.route({}, sent[0][0])["queue"].name == "analysis"


def test_no_room_no_automatic_analysis_and_requests_given_up_leave_room(
    make_user: Callable[..., Any], sent: Sent, django_capture_on_commit_callbacks: Any
) -> None:
    players = [make_user("ann"), make_user("bob")]
    others = [finished_game(players, seed=s, rated=False, replay_access="public") for s in (4, 5, 6, 7)]
    _pending(others[0])  # asked for, or automatic: each is on the queue
    _pending(others[1], status=RequestStatus.RUNNING)
    full = _ended(players, 3, rated=True, capture=django_capture_on_commit_callbacks)
    assert not AnalysisRequest.objects.filter(game=full).exists() and sent == []

    # A request stale (queued an hour and more; running with no word for minutes) is no longer
    # on the queue: the bound counts the live ones only.
    AnalysisRequest.objects.filter(game=others[1]).update(updated_at=timezone.now() - timedelta(minutes=10))
    roomy = _ended(players, 8, rated=True, capture=django_capture_on_commit_callbacks)
    assert AnalysisRequest.objects.get(game=roomy).status == RequestStatus.QUEUED
    assert [args for _, args, _ in sent] == [[roomy.pk]]


def test_an_unrated_game_never_and_nothing_with_the_setting_off(
    make_user: Callable[..., Any], sent: Sent, settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    players = [make_user("ann"), make_user("bob")]
    unrated = _ended(players, 3, rated=False, capture=django_capture_on_commit_callbacks)
    settings.ANALYSIS_AUTOMATIC = False
    rated = _ended(players, 4, rated=True, capture=django_capture_on_commit_callbacks)
    assert not AnalysisRequest.objects.filter(game__in=[unrated, rated]).exists() and sent == []


def test_a_person_asking_for_a_waiting_automatic_one_joins_it_at_the_requested_priority_uncounted(
    make_user: Callable[..., Any], sent: Sent, django_capture_on_commit_callbacks: Any
) -> None:
    players = [make_user("ann"), make_user("bob")]
    game = _ended(players, 3, rated=True, capture=django_capture_on_commit_callbacks)
    other = finished_game(players, seed=4, rated=False, replay_access="public")
    eve = APIClient()
    eve.force_authenticate(make_user("eve"))
    with django_capture_on_commit_callbacks(execute=True):
        joined = eve.post(f"/api/replays/{game.pk}/analysis/")
    assert joined.status_code == 202 and joined.json()["status"] == "queued"
    assert AnalysisRequest.objects.get(game=game).requested_by is None  # still nobody's
    assert sent[1:] == [("analysis.tasks.analyse_game", [game.pk], {})]  # queued again, ahead
    # Not counted: her one analysis an hour (the throttle) and her one pending are still free.
    with django_capture_on_commit_callbacks(execute=True):
        asked = eve.post(f"/api/replays/{other.pk}/analysis/")
    assert asked.status_code == 202, asked.json()


@pytest.mark.parametrize(("value", "expected"), [(None, "True"), ("0", "False"), ("1", "True")])
def test_on_by_default_and_turned_off_by_the_setting(value: str | None, expected: str) -> None:
    """The site's settings as a process reads them from its environment (the tests' own settings
    have it off: tests/conftest.py)."""
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k != "ANALYSIS_AUTOMATIC"}
    if value is not None:
        env["ANALYSIS_AUTOMATIC"] = value
    env["DJANGO_SETTINGS_MODULE"] = "harehra_site.settings"
    code = "import django; django.setup(); from django.conf import settings as s; print(s.ANALYSIS_AUTOMATIC)"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == expected
