"""Every legal command for a seat: what bots choose from, the UI enables and tests check.

`legal_moves` gives them as command objects, ready for `step` or `advance` without parsing (what
search playouts and the simulator use); `legal_commands` gives the same list, in the same order,
in the JSON form of the API and the scenarios.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from .cards import CUMI, SINGLE_PLAYS, STROM, TAPTAP
from .commands import Burn, Command, Discard, Play, React, command_to_dict
from .decide import valid_targets
from .ruleset import MAX_PLAYERS
from .state import SKIP_DECISION, TURN_DECISION, VOLLEY_DECISION, AnyState, GameState

_VOLLEYS = {k: (CUMI,) * k for k in range(1, 64)}
_SINGLES_IN_ORDER = tuple(sorted(SINGLE_PLAYS))  # the order legal commands list them in
_MAX_CACHED = 100_000  # command lists kept for reuse; a bound, never reached in practice


# Commands are immutable values: the same ones are handed out again rather than made anew.
_PLAYS: dict[tuple[int, tuple[str, ...], int | None], Play] = {}
_REACTS: dict[tuple[int, str | None], React] = {}
_BURNS: dict[tuple[int, str | None], Burn] = {}


def _play(seat: int, cards: tuple[str, ...], target: int | None = None) -> Play:
    key = (seat, cards, target)
    found = _PLAYS.get(key)
    if found is None:
        found = _PLAYS[key] = Play(seat, cards, target)
    return found


_SINGLE_PLAYS: list[dict[str, Command]] = [
    {card: _play(seat, (card,)) for card in _SINGLES_IN_ORDER} for seat in range(MAX_PLAYERS)
]


def _react(seat: int, card: str | None) -> React:
    found = _REACTS.get((seat, card))
    if found is None:
        found = _REACTS[(seat, card)] = React(seat, card)
    return found


def _burn(seat: int, card: str | None) -> Burn:
    found = _BURNS.get((seat, card))
    if found is None:
        found = _BURNS[(seat, card)] = Burn(seat, card)
    return found


# Per seat, the answers to a volley or a skip: declining only, or declining or the card named.
_ANSWERS: list[dict[str | None, list[Command]]] = [
    {
        None: [_react(seat, None)],
        TAPTAP: [_react(seat, None), _react(seat, TAPTAP)],
        STROM: [_react(seat, None), _react(seat, STROM)],
    }
    for seat in range(MAX_PLAYERS)
]


def legal_commands(state: GameState, seat: int) -> list[dict[str, Any]]:
    return [command_to_dict(c) for c in legal_moves(state, seat)]


def legal_moves(state: AnyState, seat: int) -> list[Command]:
    awaiting = state.awaiting
    if state.result is not None or awaiting is None or awaiting.seat != seat:
        return []
    hand = state.hands[seat]
    kind = awaiting.kind
    if kind is TURN_DECISION:
        singles = _SINGLE_PLAYS[seat]
        out: list[Command] = []
        for card in _SINGLES_IN_ORDER:  # a loop: a comprehension costs a call of its own in CPython 3.11
            if card in hand:
                out.append(singles[card])
        cumis = hand.count(CUMI)
        if cumis:
            for target in valid_targets(state, seat):
                out += _VOLLEY_PLAYS.get((seat, target, cumis)) or _volleys(seat, target, cumis)
        if out:
            return out
        # R5c: no play is open, so a card is burned.
        if not hand:
            return [_burn(seat, None)]
        return [_burn(seat, card) for card in sorted(set(hand))]
    if kind is VOLLEY_DECISION:
        return _ANSWERS[seat][TAPTAP][:] if TAPTAP in hand else _ANSWERS[seat][None][:]
    if kind is SKIP_DECISION:
        return _ANSWERS[seat][STROM][:] if STROM in hand else _ANSWERS[seat][None][:]
    return _discards(seat, tuple(sorted(hand)), state.discard_count)[:]


_DISCARDS: dict[tuple[int, tuple[str, ...], int], list[Command]] = {}


def _discards(seat: int, hand: tuple[str, ...], count: int) -> list[Command]:
    """Every different choice of `count` cards of the sorted `hand`, as Discard commands."""
    key = (seat, hand, count)
    found = _DISCARDS.get(key)
    if found is None:
        if len(_DISCARDS) > _MAX_CACHED:
            _DISCARDS.clear()
        found = _DISCARDS[key] = [Discard(seat, c) for c in sorted(set(combinations(hand, count)))]
    return found


_VOLLEY_PLAYS: dict[tuple[int, int, int], list[Play]] = {}


def _volleys(seat: int, target: int, cumis: int) -> list[Play]:
    """Volleys of 1..`cumis` Hare Cumi at `target`, smallest first (made once: see legal_moves)."""
    found = _VOLLEY_PLAYS[(seat, target, cumis)] = [
        _play(seat, _VOLLEYS[k], target) for k in range(1, cumis + 1)
    ]
    return found
