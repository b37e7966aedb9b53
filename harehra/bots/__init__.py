"""Bots choose a command from what their seat may see and what it may do; nothing else.

The bot levels are this package's: the site's choices, words and checks derive from `LEVELS`.
"""

from typing import Any

from .base import Bot
from .easy import EasyBot
from .heuristic import HeuristicBot
from .search import SearchBot

__all__ = [
    "DEFAULT_LEVEL",
    "LEVELS",
    "SEARCHING_LEVELS",
    "Bot",
    "EasyBot",
    "HeuristicBot",
    "SearchBot",
    "bot_choose",
    "get_bot",
]

_BOTS: dict[str, type[Bot]] = {"easy": EasyBot, "normal": HeuristicBot, "hard": SearchBot}
LEVELS: tuple[str, ...] = tuple(_BOTS)  # easiest first
DEFAULT_LEVEL = "normal"
_OLD_NAMES = {"heuristic": "normal"}  # names a level once had, still understood
# The levels whose choice is a search: a few hundred milliseconds of CPU a decision, where the
# others take well under one.
SEARCHING_LEVELS = frozenset({"hard"})


def get_bot(level: str = DEFAULT_LEVEL) -> Bot:
    """The bot of `level` (one of LEVELS; "heuristic" is normal's old name)."""
    try:
        return _BOTS[_OLD_NAMES.get(level, level)]()
    except KeyError:
        raise ValueError(f"unknown bot level {level!r}; one of {', '.join(LEVELS)}") from None


def bot_choose(level: str, view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
    """What the bot of `level` plays from `view` and `legal`: one function of plain data, to run
    in another process (games/bot_thinking.py)."""
    return get_bot(level).choose(view, legal)
