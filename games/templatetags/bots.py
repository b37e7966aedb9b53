"""{{ seat|seat_name }}: a seat's name, made by games.labels.seat_name like everywhere else;
{{ level|bot_level }}, a level's word; and {% bot_levels as levels %}, the levels to choose from."""

from __future__ import annotations

from typing import Any

from django import template

from harehra.bots import DEFAULT_LEVEL, LEVELS

from ..labels import LEVEL_LABELS
from ..labels import decision_time as decision_time_words
from ..labels import seat_name as _seat_name

register = template.Library()


@register.filter
def seat_name(seat: Any) -> str:
    """`seat` is a Seat or GameSeat; an empty seat has no name ("")."""
    return _seat_name(seat) or ""


@register.filter
def bot_level(level: str) -> str:
    """A bot level's word in the page's language ("běžný" for "normal")."""
    return str(LEVEL_LABELS.get(level, level))


@register.filter
def decision_time(seconds: int) -> str:
    """A slow table's time per decision in the page's language ("1 den")."""
    return decision_time_words(int(seconds))


@register.simple_tag
def bot_levels() -> list[dict[str, Any]]:
    """Each bot level in order: its `value`, its `word`, and whether it is the `default`."""
    return [{"value": v, "word": LEVEL_LABELS[v], "default": v == DEFAULT_LEVEL} for v in LEVELS]
