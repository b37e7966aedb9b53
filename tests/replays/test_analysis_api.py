"""The replay's analysis over the API (/api/replays/<ref>/analysis/): reading it, asking for it, its
progress, and who may do either. On real PostgreSQL with games played through the services; the
worker's part is the task itself, run here as the analysis worker would run it (tiny budget)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from rest_framework.test import APIClient
from rest_framework.throttling import SimpleRateThrottle

from analysis.models import AnalysisRequest, GameAnalysis, RequestStatus
from analysis.services import analysis_progress_writer
from analysis.tasks import analyse_game
from games.models import Game
from harehra.analysis import ANALYSIS_VERSION
from tests.factories import finished_game
from tests.replays.conftest import Closed

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _tiny_budget(settings: Any) -> None:
    settings.ANALYSIS_PLAYOUTS = 2


def _as(user: Any | None) -> APIClient:
    c = APIClient()
    if user is not None:
        c.force_authenticate(user)
    return c


def _url(game: Game) -> str:
    return f"/api/replays/{game.pk}/analysis/"


def _public(two: list[Any], seed: int = 3) -> Game:
    return finished_game(two, seed=seed, rated=False, replay_access="public")


def test_anyone_reads_it_a_signed_in_person_asks_and_the_worker_makes_it(
    two: list[Any], make_user: Callable[..., Any]
) -> None:
    game = _public(two)
    assert _as(None).get(_url(game)).json() == {"version": ANALYSIS_VERSION, "status": "none"}
    refused = _as(None).post(_url(game))
    assert refused.status_code == 401 and refused.json()["code"] == "not_authenticated"

    eve, dan = make_user("eve"), make_user("dan")
    asked = _as(eve).post(_url(game))
    assert asked.status_code == 202
    assert asked.json() == {
        "version": ANALYSIS_VERSION,
        "status": "queued",
        "progress": {"done": 0, "total": 0},
    }
    # A second person asking joins the same request.
    assert _as(dan).post(_url(game)).status_code == 202
    row = AnalysisRequest.objects.get(game=game)
    assert row.requested_by == eve and row.status == RequestStatus.QUEUED

    analyse_game(game.pk)  # the analysis worker takes it from the queue
    row.refresh_from_db()
    assert row.status == RequestStatus.DONE and row.done == row.total == game.last_seq
    body = _as(None).get(_url(game)).json()
    assert body["status"] == "done" and body["playouts"] == 2
    analysis = body["analysis"]
    assert len(analysis["chances"]) == game.last_seq and len(analysis["accuracy"]) == 2
    assert all(
        {"seat", "options", "chosen", "best", "drop", "label"} <= set(d) for d in analysis["decisions"]
    )
    # Asking again gives it at once, and queues nothing.
    again = _as(dan).post(_url(game))
    assert again.status_code == 200 and again.json()["status"] == "done"
    assert GameAnalysis.objects.filter(game=game).count() == 1


def test_replays_some_may_not_see_are_404_and_an_unfinished_game_409(closed: Closed) -> None:
    # A hidden replay and a players-only one: not there, for a stranger and for nobody signed in.
    for game in (closed.hidden, closed.players_only):
        for client in (closed.stranger, APIClient()):
            for method in ("get", "post"):
                r = getattr(client, method)(_url(game))
                assert r.status_code == 404 and r.json()["code"] == "not_found", (game, method)
                assert r.json()["detail"] == "no such replay"
    assert closed.player.get(_url(closed.hidden)).json()["status"] == "none"  # its players see it
    # A private table's running game: not there for a stranger; for its player, not finished yet.
    for method in ("get", "post"):
        r = getattr(closed.stranger, method)(_url(closed.private))
        assert r.status_code == 404 and r.json()["code"] == "not_found"
        r = getattr(closed.player, method)(_url(closed.private))
        assert r.status_code == 409 and r.json()["code"] == "game_not_finished"
    assert not AnalysisRequest.objects.exists()
    # Its player asks for the hidden one: queued, like any other.
    assert closed.player.post(_url(closed.hidden)).status_code == 202


def test_one_pending_request_per_person_and_a_few_an_hour(
    two: list[Any], make_user: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(
        SimpleRateThrottle, "THROTTLE_RATES", {**SimpleRateThrottle.THROTTLE_RATES, "analysis": "2/hour"}
    )
    first, second, third = (_public(two, seed) for seed in (3, 5, 9))
    eve = _as(make_user("eve"))
    assert eve.post(_url(first)).status_code == 202
    busy = eve.post(_url(second))
    assert busy.status_code == 409 and busy.json()["code"] == "analysis_pending"
    analyse_game(first.pk)
    assert eve.post(_url(second)).status_code == 202
    analyse_game(second.pk)
    over = eve.post(_url(third))
    assert over.status_code == 429 and over.json()["code"] == "throttled"
    assert 0 < int(over["Retry-After"]) <= 3600
    assert eve.post(_url(first)).status_code == 200  # one that exists is no new request
    assert _as(make_user("dan")).post(_url(third)).status_code == 202  # per person


def test_a_request_left_by_a_dead_worker_is_given_up(two: list[Any], make_user: Callable[..., Any]) -> None:
    first, second = _public(two, 3), _public(two, 5)
    eve = _as(make_user("eve"))
    assert eve.post(_url(first)).status_code == 202
    AnalysisRequest.objects.filter(game=first).update(
        status=RequestStatus.RUNNING, done=10, total=100, updated_at=timezone.now()
    )
    assert eve.get(_url(first)).json()["progress"] == {"done": 10, "total": 100}
    assert eve.post(_url(second)).json()["code"] == "analysis_pending"
    # Its worker died: no progress for minutes.
    AnalysisRequest.objects.filter(game=first).update(updated_at=timezone.now() - timedelta(minutes=10))
    assert eve.get(_url(first)).json() == {
        "version": ANALYSIS_VERSION,
        "status": "none",
        "code": "analysis_lost",
    }
    assert eve.post(_url(second)).status_code == 202
    assert eve.post(_url(first)).status_code == 409  # the second is now the pending one


def test_progress_is_written_every_few_percent(two: list[Any], make_user: Callable[..., Any]) -> None:
    game = _public(two)
    _as(make_user("eve")).post(_url(game))
    row = AnalysisRequest.objects.get(game=game)
    write = analysis_progress_writer(row.pk)
    seen = []
    for done in (1, 2, 4, 5, 6, 9, 200):
        write(done, 200)
        row.refresh_from_db()
        seen.append(row.done)
    assert seen == [1, 1, 1, 5, 5, 9, 200]  # every 4 steps of 200 (2%), and the end
    assert row.total == 200


def test_the_schema_documents_it() -> None:
    schema = APIClient().get("/api/schema/?format=json").json()
    operations = schema["paths"]["/api/replays/{ref}/analysis/"]
    assert {"get", "post"} <= set(operations)
    assert {"200", "202", "401", "404", "409", "429"} <= set(operations["post"]["responses"])
    statuses = schema["components"]["schemas"]["ReplayAnalysisStatusEnum"]["enum"]
    assert set(statuses) == {"none", "queued", "running", "done", "failed"}
    assert schema["components"]["schemas"]["ReplayAnalysis"]["required"] == ["status", "version"]


def test_the_replay_page_of_a_finished_game_carries_the_analysis_and_its_embed_does_not(
    two: list[Any],
) -> None:
    from django.test import Client

    game = _public(two)
    page = Client().get(f"/replays/{game.pk}/")
    assert b'id="replay-analysis"' in page.content and b"Sign in to analyse this game" in page.content
    assert f'"analysis_url": "/api/replays/{game.pk}/analysis/"'.encode() in page.content
    signed_in = Client()
    signed_in.force_login(two[0])
    page = signed_in.get(f"/replays/{game.pk}/")
    assert b'id="analysis-request"' in page.content and "csrftoken" in page.cookies
    embed = Client().get(f"/embed/replays/{game.pk}/")
    assert b"replay-analysis" not in embed.content and b"analysis_url" not in embed.content


def test_requests_from_many_accounts_fill_the_queue_to_its_bound_and_no_further(
    two: list[Any], make_user: Callable[..., Any], settings: Any
) -> None:
    settings.ANALYSIS_QUEUE_MAX = 2
    games = [_public(two, seed) for seed in (3, 5, 9, 11)]
    people = [_as(make_user(name)) for name in ("asker1", "asker2", "asker3")]
    assert people[0].post(_url(games[0])).status_code == 202
    assert people[1].post(_url(games[1])).status_code == 202
    full = people[2].post(_url(games[2]))
    assert full.status_code == 429
    assert full.json()["code"] == "analysis_queue_full"
    assert "queue is full" in full.json()["detail"] and "try again in" in full.json()["detail"]
    assert int(full["Retry-After"]) > 0
    assert not AnalysisRequest.objects.filter(game=games[2]).exists()  # nothing half-written
    # Joining a request under way queues no new work: never refused for a full queue.
    assert people[2].post(_url(games[0])).status_code == 202
    # Automatic analyses yield to requested ones, so they are not what a request waits behind.
    now = timezone.now()
    AnalysisRequest.objects.create(
        game=games[3], version=ANALYSIS_VERSION, status=RequestStatus.QUEUED, asked_at=now, updated_at=now
    )
    analyse_game(games[0].pk)  # one done: room again
    assert people[2].post(_url(games[2])).status_code == 202
