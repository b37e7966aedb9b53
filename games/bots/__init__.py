"""Bots choose a command from what their seat may see and what it may do; nothing else."""

from .base import Bot, get_bot
from .heuristic import HeuristicBot

__all__ = ["Bot", "HeuristicBot", "get_bot"]
