"""Every legal command for a seat: what bots choose from, the UI enables and tests check.

`legal_moves` gives them as command objects, ready for `step` or `advance` without parsing (what
search playouts and the simulator use); `legal_commands` gives the same list, in the same order,
in the JSON form of the API and the scenarios.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import Any

from .cards import SINGLE_PLAYS, Card
from .commands import Burn, Command, Discard, Play, React, command_to_dict
from .decide import has_turn_play, valid_targets
from .state import AnyState, Decision, GameState

_D_SKIP = Decision.SKIP  # a module global: an enum member is slow to reach
_D_TURN = Decision.TURN  # a module global: an enum member is slow to reach
_D_VOLLEY = Decision.VOLLEY  # a module global: an enum member is slow to reach


_CUMI = Card.CUMI.value
_TAPTAP = Card.TAPTAP.value
_STROM = Card.STROM.value
_VOLLEYS = {k: (_CUMI,) * k for k in range(1, 64)}


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


def legal_commands(state: GameState, seat: int) -> list[dict[str, Any]]:
    return [command_to_dict(c) for c in legal_moves(state, seat)]


def legal_moves(state: AnyState, seat: int) -> list[Command]:
    awaiting = state.awaiting
    if state.result is not None or awaiting is None or awaiting.seat != seat:
        return []
    hand = state.hands[seat]
    kind = awaiting.kind
    if kind is _D_TURN:
        return _turn_moves(state, seat, hand)
    if kind is _D_VOLLEY:
        return [_react(seat, None), _react(seat, _TAPTAP)] if _TAPTAP in hand else [_react(seat, None)]
    if kind is _D_SKIP:
        return [_react(seat, None), _react(seat, _STROM)] if _STROM in hand else [_react(seat, None)]
    return [Discard(seat, c) for c in sorted(set(combinations(sorted(hand), state.discard_count)))]


def _turn_moves(state: AnyState, seat: int, hand: Sequence[str]) -> list[Command]:
    if not has_turn_play(state, seat):
        if not hand:
            return [_burn(seat, None)]
        return [_burn(seat, card) for card in sorted(set(hand))]
    out: list[Command] = [_play(seat, (card,)) for card in sorted(SINGLE_PLAYS.intersection(hand))]
    cumis = hand.count(_CUMI)
    if cumis:
        for target in valid_targets(state, seat):
            out += [_play(seat, _VOLLEYS[k], target) for k in range(1, cumis + 1)]
    return out
