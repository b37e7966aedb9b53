"""Every legal command for a seat: what bots choose from, the UI enables and tests check."""

from __future__ import annotations

from itertools import combinations
from typing import Any

from .cards import SINGLE_PLAYS, Card
from .decide import has_turn_play, valid_targets
from .state import Decision, GameState


def legal_commands(state: GameState, seat: int) -> list[dict[str, Any]]:
    awaiting = state.awaiting
    if state.over or awaiting is None or awaiting.seat != seat:
        return []
    hand = state.hands[seat]
    if awaiting.kind is Decision.TURN:
        return _turn_commands(state, seat, hand)
    if awaiting.kind is Decision.VOLLEY:
        out: list[dict[str, Any]] = [{"seat": seat, "react": "none"}]
        if Card.TAPTAP in hand:
            out.append({"seat": seat, "react": "taptap"})
        return out
    if awaiting.kind is Decision.SKIP:
        out = [{"seat": seat, "react": "none"}]
        if Card.STROM in hand:
            out.append({"seat": seat, "react": "strom"})
        return out
    choices = sorted(set(combinations(sorted(hand), state.discard_count)))
    return [{"seat": seat, "discard": list(c)} for c in choices]


def _turn_commands(state: GameState, seat: int, hand: tuple[str, ...]) -> list[dict[str, Any]]:
    if not has_turn_play(state, seat):
        if not hand:
            return [{"seat": seat, "burn": None}]
        return [{"seat": seat, "burn": card} for card in sorted(set(hand))]
    out: list[dict[str, Any]] = [
        {"seat": seat, "play": [card]} for card in sorted(set(hand)) if card in SINGLE_PLAYS
    ]
    cumis = hand.count(Card.CUMI)
    for target in valid_targets(state, seat) if cumis else ():
        for k in range(1, cumis + 1):
            out.append({"seat": seat, "play": [Card.CUMI.value] * k, "target": target})
    return out
