"""Export; import checked by the rules: a tampered document is refused, saying where; nothing is stored."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from games.models import Game, GameEvent, GameSeat, Table
from replays.importing import DocumentRefused, validate_document
from replays.models import Watcher

from .conftest import Recorded

pytestmark = pytest.mark.django_db


def _counts() -> tuple[int, ...]:
    return tuple(m.objects.count() for m in (Table, Game, GameSeat, GameEvent, Watcher))


@pytest.fixture
def document(recorded: Recorded) -> dict[str, Any]:
    r = APIClient().get(f"/api/replays/{recorded.game.pk}/export/")
    assert r.status_code == 200
    return r.json()


def _first(doc: dict[str, Any], kind: str, after: int = 2) -> int:
    return next(i for i, e in enumerate(doc["events"]) if e["type"] == kind and i >= after)


def test_export_then_import_round_trip(recorded: Recorded, document: dict[str, Any]) -> None:
    assert document["format"] == "harehra-replay" and document["version"] == 1
    assert [p["name"] for p in document["game"]["players"]] == ["ann", "bob", "cat"]
    assert len(document["events"]) == recorded.game.last_seq
    assert any("deadline" in e for e in document["events"])  # extra keys the rules ignore
    before = _counts()
    client = APIClient()
    r = client.post("/api/replays/import/", document, format="json")
    assert r.status_code == 200, r.content
    body = r.json()
    assert body["total"] == recorded.game.last_seq and body["game"]["complete"] is True
    stored = client.get(f"/api/replays/{recorded.game.pk}/frames/?perspective=all").json()["frames"]
    assert [f["state"] for f in body["frames"]] == [f["state"] for f in stored]
    assert [f["text"] for f in body["frames"]] == [f["text"] for f in stored]
    seat = client.post("/api/replays/import/?perspective=seat:1", document, format="json").json()
    assert seat["frames"] and all(
        "hands" not in f["state"] and f["state"]["seat"] == 1 for f in seat["frames"]
    )
    assert _counts() == before


def _refusal(doc: dict[str, Any]) -> DocumentRefused:
    with pytest.raises(DocumentRefused) as info:
        validate_document(doc)
    return info.value


Tamper = Callable[[dict[str, Any]], int]


def _card_twice_in_the_deal(doc: dict[str, Any]) -> int:
    hands = doc["events"][0]["hands"]
    other = next(c for c in hands[1] if c != hands[0][0])
    hands[0][0] = other  # now `other` appears once more than the deck holds
    return 1


def _card_twice_in_a_draw(doc: dict[str, Any]) -> int:
    i = _first(doc, "CardsDrawn")
    played = next(e for e in doc["events"][:i] if e["type"] == "CardsPlayed")
    doc["events"][i]["cards"][0] = (
        "mini" if played["cards"][0] == doc["events"][i]["cards"][0] else played["cards"][0]
    )
    return i + 1


def _out_of_turn(doc: dict[str, Any]) -> int:
    i = _first(doc, "CardsPlayed")
    e = doc["events"][i]
    e["seat"] = (e["seat"] + 1) % 3
    return i + 1


def _wrong_seq(doc: dict[str, Any]) -> int:
    doc["events"][10]["seq"] = 12
    return 11


def _dropped_event(doc: dict[str, Any]) -> int:
    i = _first(doc, "TurnStarted", after=3)
    del doc["events"][i]
    for n, e in enumerate(doc["events"]):
        e["seq"] = n + 1
    return i + 1


def _bad_reshuffle(doc: dict[str, Any]) -> int:
    i = _first(doc, "DrawPileReshuffled")
    cards = doc["events"][i]["cards"]
    cards[0] = "taptap" if cards[0] != "taptap" else "cumi"
    return i + 1


def _invented_damage(doc: dict[str, Any]) -> int:
    i = _first(doc, "DamageTaken")
    doc["events"][i]["damage"] += 1
    return i + 1


TAMPERS: dict[str, tuple[Tamper, set[str]]] = {
    "a card appearing twice in the deal": (_card_twice_in_the_deal, {"bad_deck"}),
    "a card appearing twice in a draw": (_card_twice_in_a_draw, {"not_by_the_rules"}),
    "a move out of turn": (_out_of_turn, {"not_your_turn"}),
    "a wrong seq": (_wrong_seq, {"wrong_seq"}),
    "a missing event": (_dropped_event, {"not_by_the_rules", "unexpected_event"}),
    "a reshuffle that is not the discard pile": (_bad_reshuffle, {"bad_reshuffle"}),
    "invented damage": (_invented_damage, {"not_by_the_rules"}),
}


def test_tampered_documents_are_refused_saying_where(document: dict[str, Any]) -> None:
    assert any(e["type"] == "DrawPileReshuffled" for e in document["events"]), "the game should reshuffle"
    validate_document(copy.deepcopy(document))  # the untouched document folds cleanly
    before = _counts()
    client = APIClient()
    for name, (tamper, reasons) in TAMPERS.items():
        doc = copy.deepcopy(document)
        where = tamper(doc)
        refusal = _refusal(copy.deepcopy(doc))
        assert refusal.reason in reasons, (name, refusal.detail)
        assert refusal.seq == where, (name, refusal.detail)
        assert refusal.detail.startswith(f"seq {where}: "), name
        r = client.post("/api/replays/import/", doc, format="json")
        assert r.status_code == 400, name
        assert r.json() == {
            "code": "bad_document",
            "detail": refusal.detail,
            "seq": where,
            "reason": refusal.reason,
        }
    assert _counts() == before


def test_not_a_document_at_all() -> None:
    client = APIClient()
    for body in ([], {"format": "zip"}, {"format": "harehra-replay", "version": 1, "events": []}):
        r = client.post("/api/replays/import/", body, format="json")
        assert r.status_code == 400 and r.json()["code"] == "bad_document"
