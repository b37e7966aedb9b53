"""Decks dealt on purpose. `seeded_decks(rng)` makes every shuffle of the services come from `rng`
in this process; server processes started with GAME_SHUFFLE=tests.support.decks.seeded_shuffle
and DECK_SEED=<n> deal the same decks for the same seed."""

from __future__ import annotations

import os
import random
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from django.test import override_settings

SEEDED = "tests.support.decks.seeded_shuffle"
_rng = random.Random(int(os.environ.get("DECK_SEED", "0")))


def seeded_shuffle(cards: Sequence[str]) -> list[str]:
    out = list(cards)
    _rng.shuffle(out)
    return out


@contextmanager
def seeded_decks(rng: random.Random) -> Iterator[None]:
    global _rng
    before, _rng = _rng, rng
    try:
        with override_settings(GAME_SHUFFLE=SEEDED):
            yield
    finally:
        _rng = before
