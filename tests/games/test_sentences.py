"""One table of sentences (games/sentences.py), two describers reading it: the server's
(games/describe.py) and the pages' (static/js/table/words.js, run here by Node). The pages' copy of
the table is the one `export_sentences` writes, and both describers say the same words for every
event of several real games, for every reader, in English and in Czech."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.test import RequestFactory
from django.utils import translation
from django.views.i18n import JavaScriptCatalog

from games.card_text import card_names
from games.describe import VALUES, case_for, describe
from games.frames import event_for_all
from games.management.commands.export_sentences import TARGET, render
from games.sentences import SENTENCES, VALUE_KINDS
from harehra import EventType, abort, apply, event_for, legal_commands, make_ruleset, replay, start_game, step
from harehra.events import seat_reclaimed, seat_taken_by_bot

ROOT = Path(__file__).resolve().parents[2]
SAY_IN_NODE = ROOT / "tests" / "support" / "describe_events.mjs"
NAMES = ["ann", "Bob", "čeněk", "dan", "eve", "fay"]


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    """English unless a test says otherwise (a request another test made may leave Czech on)."""
    with translation.override("en"):
        yield


def test_the_pages_copy_of_the_table_is_made_from_this_one() -> None:
    assert TARGET.read_text(encoding="utf-8") == render(), "run `python manage.py export_sentences`"
    call_command("export_sentences", check=True)


def test_every_event_type_is_said_and_every_reader_has_a_sentence() -> None:
    assert set(SENTENCES) == set(EventType)
    assert set(VALUES) == set(VALUE_KINDS)
    for kind, cases in SENTENCES.items():
        assert cases and not cases[-1].when, f"{kind}: the last case takes any event"
        for say in cases:
            assert {k for k, _ in say.values.values()} <= set(VALUE_KINDS), kind
            assert (say.name is None) == (say.you is None), f"{kind}: a sentence for the reader as %(name)s"
            assert (say.target is None) == (say.to_you is None), f"{kind}: for the reader as %(target)s"


def test_the_server_says_the_reader_as_you() -> None:
    names = ["Ann", "Bob"]
    volley = {"type": "VolleyPending", "attacker": 1, "target": 0, "count": 2}
    assert describe(volley, names, hand_size=5) == "Ann must answer 2 × Hare Cumi from Bob"
    assert describe(volley, names, hand_size=5, reader=0) == "You must answer 2 × Hare Cumi from Bob"
    assert describe(volley, names, hand_size=5, reader=1) == "Ann must answer 2 × Hare Cumi from you"
    taken = {"type": "DamageTaken", "seat": 0, "amount": 2, "damage": 3}
    assert describe(taken, names, hand_size=4, reader=0) == "You took 2 moral damage (hand limit 1)"
    assert describe({"type": "NoSuchEvent"}, names, hand_size=5) == "NoSuchEvent"
    assert describe({"type": "TurnStarted", "seat": 7}, names, hand_size=5) == "Seat 8's turn."


# --- both describers over real games -----------------------------------------------------------


def _play(players: int, seed: int, packs: tuple[str, ...] = (), turn_limit: int = 500) -> list[Any]:
    """A game of random legal moves, with a seat handed to a bot (away, then left) and taken back
    as the services log it, then handed to a bot for good (a ban); cut short by the turn limit (a
    draw) when that is small."""
    rng = random.Random(seed)

    def shuffle(cards: Any) -> list[str]:
        out = list(cards)
        rng.shuffle(out)
        return out

    ruleset = make_ruleset(packs, turn_limit=turn_limit)
    events: list[Any] = list(start_game(ruleset, players, 0, shuffle))
    state = replay(events)
    while not state.over:
        if state.turn_number in (3, 9) and events[-1]["type"] == EventType.TURN_STARTED:
            events.append(dict(seat_taken_by_bot(1, "away" if state.turn_number == 3 else "left")))
        if state.turn_number == 15 and events[-1]["type"] == EventType.TURN_STARTED:
            events.append(dict(seat_taken_by_bot(1, "banned")))  # a suspension or ban: to the end
        if state.turn_number in (6, 12) and events[-1]["type"] == EventType.TURN_STARTED:
            events.append(dict(seat_reclaimed(1)))
        seat = state.awaiting.seat
        new, state = step(state, rng.choice(legal_commands(state, seat)), shuffle)
        events.extend(new)
    return events


def _aborted(seed: int) -> list[dict[str, Any]]:
    events = _play(3, seed)[:60]
    new, _ = abort(replay(events))
    return [*events, *new]


def _games() -> list[list[dict[str, Any]]]:
    return [
        _play(4, 1),
        _play(2, 2),
        _play(3, 3),
        _play(6, 4, packs=("big-warren",)),
        _play(4, 5, turn_limit=12),
        _aborted(6),
    ]


# What no game shows but the describers still say: the reader's own draw as a count (the reader
# is always shown their cards), a discard without its cards (discards are public).
UNSEEN = [({"type": "CardsDrawn", "seat": 0, "count": 2}, 0), ({"type": "CardsDiscarded", "seat": 1}, 1)]


def _shown(events: list[dict[str, Any]], players: int) -> Iterator[tuple[dict[str, Any], int | None, int]]:
    """Each event as each reader is shown it (every hand, a spectator, each seat), with the reader's
    seat and the game's hand size; then the unseen ones, for a spectator and their seat."""
    state = None
    for e in events:
        state = apply(state, e)
        hand = state.ruleset.hand_size
        yield event_for_all(e), None, hand
        yield event_for(e, None), None, hand
        for seat in range(players):
            yield event_for(e, seat), seat, hand
    for e, seat in UNSEEN:
        yield e, None, 5
        yield e, seat, 5


def _js_catalog(language: str) -> str | None:
    if language == "en":
        return None
    with translation.override(language):
        return JavaScriptCatalog.as_view()(RequestFactory().get("/jsi18n/")).content.decode()


def _said_in_node(items: list[dict[str, Any]], catalog: str | None) -> list[str | None]:
    node = shutil.which("node")
    assert node, "Node.js runs the page scripts' tests (scripts/test installs what it needs)"
    out = subprocess.run(
        [node, str(SAY_IN_NODE)],
        input=json.dumps({"catalog": catalog, "items": items}),
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    return json.loads(out.stdout)


@pytest.mark.parametrize("language", ["en", "cs"])
def test_both_describers_say_every_event_of_real_games_alike(language: str) -> None:
    items: list[dict[str, Any]] = []
    server: list[str] = []
    used: set[tuple[str, int, str]] = set()
    with translation.override(language):
        cards = [{"id": card, "name": name} for card, name in card_names().items()]
        for events in _games():
            players = events[0]["players"]
            names = NAMES[:players]
            seats = [{"seat": i, "name": name} for i, name in enumerate(names)]
            for shown, reader, hand in _shown(events, players):
                server.append(describe(shown, names, hand_size=hand, reader=reader))
                ctx = {"mySeat": reader, "standalone": True, "seats": seats, "cards": cards}
                items.append({"ctx": {**ctx, "handLimit": hand}, "event": shown})
                say = case_for(shown)
                assert say is not None, shown
                variant = "other"
                if say.name and reader is not None and shown.get(say.name) == reader:
                    variant = "you"
                elif say.target and reader is not None and shown.get(say.target) == reader:
                    variant = "to_you"
                used.add((shown["type"], SENTENCES[shown["type"]].index(say), variant))
    pages = _said_in_node(items, _js_catalog(language))
    differ = [
        (i["event"], i["ctx"]["mySeat"], s, p) for i, s, p in zip(items, server, pages, strict=True) if s != p
    ]
    assert not differ, f"{len(differ)} of {len(items)} differ, e.g. {differ[:3]}"
    # The games reach every case of the table, and every sentence for a reader.
    wanted = {
        (kind, i, variant)
        for kind, cases in SENTENCES.items()
        for i, say in enumerate(cases)
        for variant in ("other", "you", "to_you")
        if getattr(say, variant) is not None
    }
    assert wanted - used == set()
    if language == "cs":
        assert "Na tahu: ann." in server and "Jste na tahu." in server
