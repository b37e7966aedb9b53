"""Each card has one name: the pages, the game log and the replays say what the engine calls it."""

from __future__ import annotations

from django.utils import translation

from games.card_text import card_name, card_names, cards_info
from harehra.cards import CARD_NAMES


def test_the_pages_name_every_card_as_the_engine_does() -> None:
    with translation.override("en"):
        assert card_names() == CARD_NAMES
        assert {c["id"]: c["name"] for c in cards_info()} == CARD_NAMES
        assert cards_info() and all(c["effect"] for c in cards_info())
        assert card_name("strom") == "Strom"
        assert card_name(None) == "nothing"
