"""Shuffles for real games come from the operating system's random source (R2, R8).

`deck_shuffle` is the one shuffle every service uses. Which function it calls is a setting
(`GAME_SHUFFLE`, a dotted path; the environment variable of the same name sets it), so a test can
deal the decks it needs, in its own process or in the server processes it starts, without patching
the modules that shuffle.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import lru_cache

from django.conf import settings
from django.utils.module_loading import import_string

_system_random = random.SystemRandom()

Shuffler = Callable[[Sequence[str]], list[str]]


def system_shuffle(cards: Sequence[str]) -> list[str]:
    out = list(cards)
    _system_random.shuffle(out)
    return out


@lru_cache(maxsize=4)
def _shuffler(path: str) -> Shuffler:
    return import_string(path)  # type: ignore[no-any-return]


def deck_shuffle(cards: Sequence[str]) -> list[str]:
    """The cards in a new order, by the configured shuffle."""
    return _shuffler(settings.GAME_SHUFFLE)(cards)
