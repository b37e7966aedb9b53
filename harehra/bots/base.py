"""What the bots share: `get_bot(level).choose(view, legal)` (the levels: harehra/bots/__init__.py).

A bot sees what its seat may see (`view_for(state, seat)`) and what it may do
(`legal_commands(state, seat)`), nothing else. Its randomness is seeded from the view, so the
same view gives the same choice whatever the hidden cards are.
"""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any, Protocol


class Bot(Protocol):
    def choose(self, view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
        """One of `legal`, chosen from `view` (the seat's `view_for`) alone."""
        ...


def seeded_rng(view: dict[str, Any], salt: str = "") -> random.Random:
    """An RNG seeded from the view alone (what the seat can see), so choices are reproducible."""
    text = json.dumps(view, sort_keys=True, separators=(",", ":")) + salt
    return random.Random(int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big"))
