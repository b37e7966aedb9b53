"""Validating an exported document by the rules, so that an imported replay is a real game.

The first event (GameStarted) must be a deal of the ruleset's own deck; every later rules event
must be what `step` produces from the command the document implies (CardsPlayed, ReactionPlayed,
ReactionDeclined, CardBurned and CardsDiscarded each start one command's events). Reshuffles take
the document's recorded order, after checking it is the discard pile minus its top card. Keys the
rules do not produce (a deadline) are ignored. Nothing is ever stored: the result is only viewed.

Only `format`, `version`, `events` and the players' names in `game` are read. Whatever else a
document carries is never trusted: the game's analysis an export adds (`analysis`) is ignored, so
a document whose analysis was forged (or made for another game) is checked and shown as one
without it, and nothing of it is stored or sent back.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from harehra import (
    EngineError,
    EventType,
    GameState,
    InvalidRuleset,
    Ruleset,
    StoredEvent,
    apply,
    make_ruleset,
    parse_command,
    step,
)
from harehra.decide import deal, start_events
from harehra.events import (
    DECISION_EVENTS,
    SEAT_EVENTS,
    RulesEvent,
    game_aborted,
    seat_reclaimed,
    seat_taken_by_bot,
)

from .selectors import EXPORT_FORMAT, EXPORT_VERSION, SeqEvent

MAX_EVENTS = 20_000
MAX_NAME = 150
COMMAND_STARTS = DECISION_EVENTS  # each starts one command's events
_SEGMENT_ENDS = COMMAND_STARTS | SEAT_EVENTS | {EventType.GAME_ABORTED}


class DocumentRefused(Exception):
    """The document does not fold cleanly; `seq` says where (None: the document as a whole)."""

    code = "bad_document"

    def __init__(self, reason: str, detail: str, seq: int | None = None) -> None:
        where = f"seq {seq}: " if seq is not None else ""
        super().__init__(f"{where}{detail}")
        self.reason = reason
        self.detail = f"{where}{detail}"
        self.seq = seq

    def as_dict(self) -> dict[str, Any]:
        return {"code": self.code, "detail": self.detail, "seq": self.seq, "reason": self.reason}


@dataclass(frozen=True)
class ImportedGame:
    names: list[str]
    events: list[SeqEvent]  # as the rules produced them (the document's extra keys dropped)
    game: dict[str, Any]
    complete: bool


class _Mismatch(Exception):
    pass


def _refuse(reason: str, detail: str, seq: int | None = None) -> DocumentRefused:
    return DocumentRefused(reason, detail, seq)


def _same(produced: Mapping[str, Any], given: Mapping[str, Any]) -> bool:
    missing = object()
    return all(given.get(k, missing) == v for k, v in produced.items())


def _names(game: Any, players: int) -> list[str]:
    names = [f"Seat {n + 1}" for n in range(players)]
    rows = game.get("players") if isinstance(game, Mapping) else None
    if isinstance(rows, list):
        for row in rows:
            if (
                (
                    isinstance(row, Mapping)
                    and isinstance(row.get("seat"), int)
                    and isinstance(row.get("name"), str)
                )
                and 0 <= row["seat"] < players
                and row["name"].strip()
            ):
                names[row["seat"]] = row["name"].strip()[:MAX_NAME]
    return names


def _check_envelope(doc: Any) -> list[StoredEvent]:
    if not isinstance(doc, Mapping):
        raise _refuse("not_a_document", "the document is a JSON object")
    if doc.get("format") != EXPORT_FORMAT:
        raise _refuse("bad_format", f"format must be {EXPORT_FORMAT!r}")
    if doc.get("version") != EXPORT_VERSION:
        raise _refuse(
            "bad_version", f"version {doc.get('version')!r} is not supported (only {EXPORT_VERSION})"
        )
    events = doc.get("events")
    if not isinstance(events, list) or not events:
        raise _refuse("no_events", "events must be a non-empty list")
    if len(events) > MAX_EVENTS:
        raise _refuse("too_long", f"a document holds at most {MAX_EVENTS} events")
    for i, e in enumerate(events):
        expected = i + 1
        if not isinstance(e, Mapping):
            raise _refuse("malformed_event", "every event is a JSON object", expected)
        seq = e.get("seq")
        if isinstance(seq, bool) or not isinstance(seq, int) or seq != expected:
            raise _refuse("wrong_seq", f"found seq {seq!r} where seq {expected} was expected", expected)
        if not isinstance(e.get("type"), str) or e.get("version") != 1:
            raise _refuse("malformed_event", "every event has a type and version 1", expected)
    return events


def _check_start(first: StoredEvent, second: StoredEvent | None) -> list[RulesEvent]:
    if first["type"] != EventType.GAME_STARTED:
        raise _refuse("bad_start", "the first event must be GameStarted", 1)
    try:
        given = Ruleset.from_dict(first["ruleset"])
        ruleset = make_ruleset(given.packs, given.mini, given.turn_limit)
        if ruleset != given:
            raise _refuse("bad_ruleset", "the ruleset is not one the site plays", 1)
        players, shuffler = first["players"], first["shuffler"]
        hands, draw = first["hands"], first["draw_pile"]
        if not (isinstance(players, int) and isinstance(shuffler, int) and isinstance(hands, list)):
            raise _refuse("bad_start", "players, shuffler and hands are malformed", 1)
        if len(hands) != players or not all(isinstance(h, list) for h in hands) or not isinstance(draw, list):
            raise _refuse("bad_start", "there must be one hand per player", 1)
        dealt = Counter(c for h in hands for c in h) + Counter(draw) + Counter(first.get("discard_pile", []))
        deck = Counter(ruleset.cards())
        if dealt != deck:
            extra = dealt - deck
            lacking = deck - dealt
            if extra:
                card, _n = next(iter(extra.items()))
                detail = f"{card} appears {dealt[card]} times but the deck holds {deck.get(card, 0)}"
            else:
                card, _n = next(iter(lacking.items()))
                detail = f"{card} appears {dealt.get(card, 0)} times but the deck holds {deck[card]}"
            raise _refuse("bad_deck", detail, 1)
        order: list[str] = []
        first_seat = (shuffler + 1) % players if players else 0
        for r in range(ruleset.hand_size):
            for i in range(players):
                hand = hands[(first_seat + i) % players]
                if r < len(hand):
                    order.append(hand[r])
        produced = start_events(deal(ruleset, players, shuffler, order + list(draw)))
    except DocumentRefused:
        raise
    except (InvalidRuleset, EngineError) as e:
        raise _refuse("bad_start", e.detail, 1) from e
    except (KeyError, TypeError, ValueError, AttributeError) as e:
        raise _refuse("bad_start", f"GameStarted is malformed ({e.__class__.__name__})", 1) from e
    if not _same(produced[0], first):
        raise _refuse("bad_deal", "the hands are not dealt one card at a time from the first player", 1)
    if second is None or not _same(produced[1], second):
        raise _refuse("bad_start", "the second event must start turn 1 for the first player", 2)
    return produced


def _command_of(e: StoredEvent) -> dict[str, Any]:
    kind, seat = e["type"], e.get("seat")
    if kind == EventType.CARDS_PLAYED:
        return {"seat": seat, "play": e.get("cards"), "target": e.get("target")}
    if kind == EventType.REACTION_PLAYED:
        return {"seat": seat, "react": e.get("card")}
    if kind == EventType.REACTION_DECLINED:
        return {"seat": seat, "react": "none"}
    if kind == EventType.CARD_BURNED:
        return {"seat": seat, "burn": e.get("card")}
    return {"seat": seat, "discard": e.get("cards")}


def _reshuffler(segment: Sequence[StoredEvent], first_seq: int) -> Any:
    """A shuffle that answers with the document's recorded orders, in the order they appear."""
    recorded = [
        (first_seq + i, e) for i, e in enumerate(segment) if e["type"] == EventType.DRAW_PILE_RESHUFFLED
    ]
    calls = iter(recorded)

    def shuffle(cards: Sequence[str]) -> list[str]:
        found = next(calls, None)
        if found is None:
            raise _Mismatch("the rules reshuffle the discard pile here but the document does not")
        seq, e = found
        order = e.get("cards")
        if not isinstance(order, list) or Counter(order) != Counter(cards):
            raise DocumentRefused(
                "bad_reshuffle", "the new draw pile is not the discard pile minus its top card", seq
            )
        return list(order)

    return shuffle


def validate_document(doc: Any) -> ImportedGame:
    """The document's game, refolded and checked event by event; DocumentRefused otherwise."""
    events = _check_envelope(doc)
    produced = _check_start(events[0], events[1] if len(events) > 1 else None)
    out: list[SeqEvent] = [(1, produced[0]), (2, produced[1])]
    state: GameState = apply(apply(None, produced[0]), produced[1])
    players = state.players
    i = 2
    while i < len(events):
        e = events[i]
        seq = i + 1
        kind = e["type"]
        if kind in SEAT_EVENTS:
            seat = e.get("seat")
            if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
                raise _refuse("malformed_event", "a seat event names a seat of the game", seq)
            clean = (
                seat_taken_by_bot(seat, str(e.get("reason", ""))[:32])
                if kind == EventType.SEAT_TAKEN_BY_BOT
                else seat_reclaimed(seat)
            )
            out.append((seq, clean))
            i += 1
            continue
        if kind == EventType.GAME_ABORTED:
            if state.over:
                raise _refuse("after_the_end", "the game is already over", seq)
            aborted = game_aborted(str(e.get("reason", ""))[:64])
            state = apply(state, aborted)
            out.append((seq, aborted))
            i += 1
            continue
        if kind not in COMMAND_STARTS:
            if state.over:
                raise _refuse("after_the_end", "the game is already over", seq)
            raise _refuse("unexpected_event", f"{kind} here is not the result of any player's decision", seq)
        end = i + 1
        while end < len(events) and events[end]["type"] not in _SEGMENT_ENDS:
            end += 1
        segment = events[i:end]
        try:
            new_events, state = step(state, parse_command(_command_of(e)), _reshuffler(segment, seq))
        except EngineError as err:
            raise _refuse(err.code.value, err.detail, seq) from err
        except _Mismatch as err:
            raise _refuse("not_by_the_rules", str(err), seq) from err
        except (KeyError, TypeError, ValueError, AttributeError) as err:
            raise _refuse("malformed_event", f"{kind} is malformed ({err.__class__.__name__})", seq) from err
        for k, made in enumerate(new_events):
            at = seq + k
            given = segment[k] if k < len(segment) else None
            if given is None:
                raise _refuse(
                    "not_by_the_rules", f"the rules go on with {made['type']} but the document stops", at
                )
            if not _same(made, given):
                raise _refuse(
                    "not_by_the_rules",
                    f"the document has {given['type']} where the rules give {made['type']} {_brief(made)}",
                    at,
                )
            out.append((at, made))
        if len(segment) > len(new_events):
            at = seq + len(new_events)
            raise _refuse(
                "not_by_the_rules",
                f"{segment[len(new_events)]['type']} does not follow from the rules here",
                at,
            )
        i = end
    game = doc.get("game") if isinstance(doc.get("game"), Mapping) else {}
    return ImportedGame(
        names=_names(game, players),
        events=out,
        game={
            "players": [
                {"seat": n, "name": name, "is_bot": False} for n, name in enumerate(_names(game, players))
            ]
        },
        complete=state.over,
    )


def _brief(e: Mapping[str, Any]) -> str:
    fields = {k: v for k, v in e.items() if k not in ("type", "version")}
    return "(" + ", ".join(f"{k}={v}" for k, v in fields.items()) + ")"
