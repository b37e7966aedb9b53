"""Bots choose a command from what their seat may see and what it may do; nothing else."""

from .base import DEFAULT_LEVEL, LEVELS, Bot
from .easy import EasyBot
from .heuristic import HeuristicBot
from .search import SearchBot

__all__ = ["DEFAULT_LEVEL", "LEVELS", "Bot", "EasyBot", "HeuristicBot", "SearchBot", "get_bot"]

_BOTS: dict[str, type[Bot]] = {
    "easy": EasyBot,
    "normal": HeuristicBot,
    "heuristic": HeuristicBot,  # normal's old name
    "hard": SearchBot,
}


def get_bot(level: str = DEFAULT_LEVEL) -> Bot:
    """The bot of `level` (easy, normal, hard; "heuristic" is normal's old name)."""
    try:
        return _BOTS[level]()
    except KeyError:
        raise ValueError(f"unknown bot level {level!r}; one of {', '.join(LEVELS)}") from None
