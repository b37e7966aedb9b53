"""The normal bot: attack the weakest, keep a taptap for defence, heal when hurt.

`heuristic_move` is written over command objects so that the search bot's playouts use the very
same policy on a playout's draft; `HeuristicBot` applies it to a view and the API's legal list.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..commands import Burn, Command, Discard, Play, React, parse_command

# How much the bot wants to keep each card; the least wanted are burned and discarded first.
KEEP_VALUE = {"taptap": 6, "cumi": 5, "zada": 4, "strom": 3, "house": 3, "right": 2, "left": 2, "mini": 0}
PLAY_ORDER = ("strom", "house", "right", "left", "zada")


def heuristic_move(kind: str, damage: Sequence[int], seat: int, moves: Sequence[Command]) -> Command:
    """The normal bot's choice among `moves` for a decision of `kind` ("turn", "volley", ...)."""
    if len(moves) == 1:
        return moves[0]
    if kind == "volley" or kind == "skip":
        for m in moves:
            if isinstance(m, React) and m.card is not None:
                return m
        return moves[0]
    if kind == "discard":
        return min(
            moves, key=lambda m: sum(KEEP_VALUE.get(c, 0) for c in m.cards) if isinstance(m, Discard) else 99
        )
    plays: dict[str, Command] = {}
    volleys: list[Play] = []
    burns: list[Burn] = []
    for m in moves:
        if isinstance(m, Play):
            if m.cards[0] == "cumi":
                volleys.append(m)
            else:
                plays[m.cards[0]] = m
        elif isinstance(m, Burn):
            burns.append(m)
    if damage[seat] >= 2 and "zada" in plays:
        return plays["zada"]
    if volleys:
        # The weakest target first, then the biggest volley at it.
        return max(volleys, key=lambda m: (damage[m.target or 0], len(m.cards)))
    for card in PLAY_ORDER:
        if card in plays:
            return plays[card]
    return min(burns, key=lambda m: KEEP_VALUE.get(m.card or "", 0))


class HeuristicBot:
    level = "normal"

    def choose(self, view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
        if len(legal) == 1:
            return legal[0]
        moves = [parse_command(c, seat=view["seat"]) for c in legal]
        damage = [p["damage"] for p in view["players"]]
        return legal[moves.index(heuristic_move(view["awaiting"]["kind"], damage, view["seat"], moves))]
