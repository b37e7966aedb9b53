"""Shuffles for real games come from the operating system's random source (R2, R8)."""

from __future__ import annotations

import random
from collections.abc import Sequence

_system_random = random.SystemRandom()


def system_shuffle(cards: Sequence[str]) -> list[str]:
    out = list(cards)
    _system_random.shuffle(out)
    return out
