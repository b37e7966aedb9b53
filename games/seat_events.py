"""Log events about who controls a seat. They are outside the rules: the engine's fold skips them."""

from __future__ import annotations

from typing import Any

SEAT_TAKEN_BY_BOT = "SeatTakenByBot"
SEAT_RECLAIMED = "SeatReclaimed"


def seat_taken_by_bot(seat: int, reason: str) -> dict[str, Any]:
    return {"type": SEAT_TAKEN_BY_BOT, "version": 1, "seat": seat, "reason": reason}


def seat_reclaimed(seat: int) -> dict[str, Any]:
    return {"type": SEAT_RECLAIMED, "version": 1, "seat": seat}
