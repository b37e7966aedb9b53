"""Bots choose a command from what their seat may see and what it may do; nothing else.

The bot levels are this package's: the site's choices, words and checks derive from `LEVELS`.
"""

from .base import Bot
from .easy import EasyBot
from .heuristic import HeuristicBot
from .search import SearchBot

__all__ = ["DEFAULT_LEVEL", "LEVELS", "Bot", "EasyBot", "HeuristicBot", "SearchBot", "get_bot"]

_BOTS: dict[str, type[Bot]] = {"easy": EasyBot, "normal": HeuristicBot, "hard": SearchBot}
LEVELS: tuple[str, ...] = tuple(_BOTS)  # easiest first
DEFAULT_LEVEL = "normal"
_OLD_NAMES = {"heuristic": "normal"}  # names a level once had, still understood


def get_bot(level: str = DEFAULT_LEVEL) -> Bot:
    """The bot of `level` (one of LEVELS; "heuristic" is normal's old name)."""
    try:
        return _BOTS[_OLD_NAMES.get(level, level)]()
    except KeyError:
        raise ValueError(f"unknown bot level {level!r}; one of {', '.join(LEVELS)}") from None
