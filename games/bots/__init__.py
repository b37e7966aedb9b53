"""Bots choose a command from what their seat may see and what it may do; nothing else."""

from .base import DEFAULT_LEVEL, LEVELS, Bot, get_bot
from .easy import EasyBot
from .heuristic import HeuristicBot
from .search import SearchBot

__all__ = ["DEFAULT_LEVEL", "LEVELS", "Bot", "EasyBot", "HeuristicBot", "SearchBot", "get_bot"]
