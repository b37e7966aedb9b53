"""Log events about who controls a seat. They are outside the rules: the engine's fold skips them."""

from __future__ import annotations

from typing import Any

from harehra.events import SEAT_RECLAIMED, SEAT_TAKEN_BY_BOT

__all__ = ["SEAT_RECLAIMED", "SEAT_TAKEN_BY_BOT", "seat_reclaimed", "seat_taken_by_bot"]


def seat_taken_by_bot(seat: int, reason: str) -> dict[str, Any]:
    return {"type": SEAT_TAKEN_BY_BOT, "version": 1, "seat": seat, "reason": reason}


def seat_reclaimed(seat: int) -> dict[str, Any]:
    return {"type": SEAT_RECLAIMED, "version": 1, "seat": seat}
