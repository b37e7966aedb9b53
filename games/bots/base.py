from __future__ import annotations

from typing import Any, Protocol


class Bot(Protocol):
    def choose(self, view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
        """One of `legal`, chosen from `view` (the seat's `view_for`) alone."""
        ...


def get_bot(name: str = "heuristic") -> Bot:
    from .heuristic import HeuristicBot

    bots: dict[str, type[Bot]] = {"heuristic": HeuristicBot}
    return bots[name]()
