"""Card identities and the decks the rulesets are built from (R2)."""

from __future__ import annotations

from enum import StrEnum
from typing import Final


class Card(StrEnum):
    RIGHT = "right"
    LEFT = "left"
    HOUSE = "house"
    STROM = "strom"
    CUMI = "cumi"
    TAPTAP = "taptap"
    ZADA = "zada"
    MINI = "mini"


# Each card as a plain string beside the enum, for the rules: they compare cards on every step,
# and a module's string is ten times faster to reach and compare than an enum member (CPython 3.11).
RIGHT: Final = Card.RIGHT.value
LEFT: Final = Card.LEFT.value
HOUSE: Final = Card.HOUSE.value
STROM: Final = Card.STROM.value
CUMI: Final = Card.CUMI.value
TAPTAP: Final = Card.TAPTAP.value
ZADA: Final = Card.ZADA.value
MINI: Final = Card.MINI.value

ALL_CARDS: frozenset[str] = frozenset(c.value for c in Card)

# Cards that may be played alone as a turn play (R5a).
SINGLE_PLAYS: frozenset[str] = frozenset({Card.RIGHT, Card.LEFT, Card.HOUSE, Card.STROM, Card.ZADA})

# Cards that are never a turn play: taptap only answers a volley, mini is disabled (R5).
NEVER_PLAYED: frozenset[str] = frozenset({Card.TAPTAP, Card.MINI})

CARD_NAMES: dict[str, str] = {
    Card.RIGHT: "Hare looking right",
    Card.LEFT: "Hare looking left",
    Card.HOUSE: "House",
    Card.STROM: "Strom",
    Card.CUMI: "Hare Cumi",
    Card.TAPTAP: "Hare Taptap",
    Card.ZADA: "Hare Zada",
    Card.MINI: "Hare Mini",
}

BASE_DECK: dict[str, int] = {
    Card.RIGHT: 5,
    Card.LEFT: 5,
    Card.HOUSE: 6,
    Card.STROM: 8,
    Card.CUMI: 20,
    Card.TAPTAP: 8,
    Card.ZADA: 6,
}

# Bonus packs: extra cards and the player counts they open up.
PACKS: dict[str, dict[str, int]] = {
    "big-warren": {
        Card.RIGHT: 2,
        Card.LEFT: 2,
        Card.HOUSE: 2,
        Card.STROM: 3,
        Card.CUMI: 8,
        Card.TAPTAP: 3,
        Card.ZADA: 2,
    },
}

PACK_MAX_PLAYERS: dict[str, int] = {"big-warren": 6}
