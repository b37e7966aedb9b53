"""{{ seat|bot_name }}: a bot seat's name, made by games.labels.bot_name like everywhere else."""

from __future__ import annotations

from typing import Any

from django import template

from ..labels import bot_name as _bot_name

register = template.Library()


@register.filter
def bot_name(seat: Any) -> str:
    """`seat` is a Seat or GameSeat (number or seat, bot_level)."""
    number = seat.number if hasattr(seat, "number") else seat.seat
    return _bot_name(number, seat.bot_level)
