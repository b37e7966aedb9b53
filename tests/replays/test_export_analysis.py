"""A finished game's JSON export carries its analysis at today's version when one exists (key
`analysis`, the analysis API's own), and an import never trusts it: a document with an analysis,
forged or not, is checked and shown exactly as the same document without it, and nothing of it is
stored or sent back."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from rest_framework.test import APIClient

from analysis.models import AnalysisRequest, GameAnalysis
from analysis.services import analysis_work
from games.models import Game, GameEvent
from harehra.analysis import ANALYSIS_VERSION
from tests.factories import finished_game

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _tiny_budget(settings: Any) -> None:
    settings.ANALYSIS_PLAYOUTS = 2


def _export(game: Game) -> dict[str, Any]:
    r = APIClient().get(f"/api/replays/{game.pk}/export/")
    assert r.status_code == 200, r.content
    return dict(r.json())


def _import(doc: Any) -> Any:
    return APIClient().post("/api/replays/import/", doc, format="json")


def _counts() -> tuple[int, ...]:
    return tuple(m.objects.count() for m in (Game, GameEvent, GameAnalysis, AnalysisRequest))


def test_the_export_carries_the_current_analysis_and_only_that(two: list[Any]) -> None:
    game = finished_game(two, seed=3, rated=False, replay_access="public")
    plain = _export(game)
    assert "analysis" not in plain  # none made yet

    # An analysis of an older version only: not today's, so not exported.
    GameAnalysis.objects.create(
        game=game, version=ANALYSIS_VERSION - 1, playouts=2, body='{"old":1}', seconds=1
    )
    assert "analysis" not in _export(game)

    analysis_work(game.pk)
    doc = _export(game)
    stored = json.loads(GameAnalysis.objects.get(game=game, version=ANALYSIS_VERSION).body)
    assert doc["analysis"] == stored
    assert doc["analysis"] == APIClient().get(f"/api/replays/{game.pk}/analysis/").json()["analysis"]
    assert doc["analysis"]["version"] == ANALYSIS_VERSION and len(doc["analysis"]["chances"]) == game.last_seq
    # The rest of the document is unchanged by it.
    assert {k: v for k, v in doc.items() if k != "analysis"} == plain


def test_an_import_ignores_the_analysis_forged_or_not(two: list[Any]) -> None:
    game = finished_game(two, seed=5, rated=False, replay_access="public")
    analysis_work(game.pk)
    doc = _export(game)
    without = {k: v for k, v in doc.items() if k != "analysis"}
    expected = _import(without)
    assert expected.status_code == 200, expected.content
    before = _counts()

    forged = copy.deepcopy(doc)
    # "bob never had a chance"
    forged["analysis"]["chances"] = [[1.0, 0.0] for _ in forged["analysis"]["chances"]]
    forged["analysis"]["accuracy"] = [100, 0]
    odd = ("not an analysis", None, [1, 2], {"chances": {"x": 1}})
    for analysis in (doc["analysis"], forged["analysis"], *odd):
        r = _import({**without, "analysis": analysis})
        assert r.status_code == 200, r.content
        assert r.json() == expected.json()  # checked and shown as the document without it
        assert "analysis" not in r.json() and "accuracy" not in r.content.decode()
    assert _counts() == before  # nothing stored from it

    # A document refused for its log is refused the same with an analysis beside it.
    broken = copy.deepcopy(without)
    broken["events"][5]["seq"] = 99
    assert _import(broken).json() == _import({**broken, "analysis": doc["analysis"]}).json()
    assert _import(broken).status_code == 400


def test_the_schema_documents_it() -> None:
    schema = APIClient().get("/api/schema/?format=json").json()
    ok = schema["paths"]["/api/replays/{ref}/export/"]["get"]["responses"]["200"]
    ref = ok["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[1]
    props = schema["components"]["schemas"][ref]["properties"]
    assert {"format", "version", "game", "events", "analysis"} <= set(props)
    assert "analysis" not in schema["components"]["schemas"][ref].get("required", [])
    assert "ignored" in schema["paths"]["/api/replays/import/"]["post"]["description"]
