"""The easy bot: the normal bot's play with a person's mistakes.

It often forgets a Taptap or a Strom it holds, plays a card it did not need to, throws its Cumi
at whoever it looks at, and discards without much thought. Its slips are drawn from an RNG seeded
by the view, like every bot's.
"""

from __future__ import annotations

from typing import Any

from ..commands import parse_command
from .base import seeded_rng
from .heuristic import heuristic_move

MISTAKE = 0.6  # the share of decisions with a real choice it gets wrong (a random legal move)


class EasyBot:
    level = "easy"

    def choose(self, view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
        if len(legal) == 1:
            return legal[0]
        rng = seeded_rng(view, "easy")
        if rng.random() < MISTAKE:
            return rng.choice(legal)
        moves = [parse_command(c, seat=view["seat"]) for c in legal]
        damage = [p["damage"] for p in view["players"]]
        return legal[moves.index(heuristic_move(view["awaiting"]["kind"], damage, view["seat"], moves))]
