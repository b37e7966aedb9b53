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

_CUMI = Card.CUMI.value
_TAPTAP = Card.TAPTAP.value
_STROM = Card.STROM.value


def legal_commands(state: GameState, seat: int) -> list[dict[str, Any]]:
    return [command_to_dict(c) for c in legal_moves(state, seat)]


def legal_moves(state: AnyState, seat: int) -> list[Command]:
    awaiting = state.awaiting
    if state.result is not None or awaiting is None or awaiting.seat != seat:
        return []
    hand = state.hands[seat]
    kind = awaiting.kind
    if kind is Decision.TURN:
        return _turn_moves(state, seat, hand)
    if kind is Decision.VOLLEY:
        return [React(seat, None), React(seat, _TAPTAP)] if _TAPTAP in hand else [React(seat, None)]
    if kind is Decision.SKIP:
        return [React(seat, None), React(seat, _STROM)] if _STROM in hand else [React(seat, None)]
    return [Discard(seat, c) for c in sorted(set(combinations(sorted(hand), state.discard_count)))]


def _turn_moves(state: AnyState, seat: int, hand: Sequence[str]) -> list[Command]:
    if not has_turn_play(state, seat):
        if not hand:
            return [Burn(seat, None)]
        return [Burn(seat, card) for card in sorted(set(hand))]
    out: list[Command] = [Play(seat, (card,)) for card in sorted(set(hand)) if card in SINGLE_PLAYS]
    cumis = hand.count(_CUMI)
    if cumis:
        volleys = [(_CUMI,) * k for k in range(1, cumis + 1)]
        for target in valid_targets(state, seat):
            out += [Play(seat, cards, target) for cards in volleys]
    return out
