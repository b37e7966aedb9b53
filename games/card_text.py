"""What people read about each card, in their language: the one place card names and effects are
written for the pages, the game log and the replays. The names are the engine's CARD_NAMES (its own
messages use those), translated; a test holds the two to the same words."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext, gettext_lazy

CARDS: list[tuple[str, Any, Any]] = [
    ("right", gettext_lazy("Hare looking right"), gettext_lazy(
        "Play turns clockwise. You cannot receive moral damage until your next turn begins.")),
    ("left", gettext_lazy("Hare looking left"), gettext_lazy(
        "Play turns counterclockwise. You cannot receive moral damage until your next turn begins.")),
    ("house", gettext_lazy("House"), gettext_lazy(
        "The next player loses their turn and cannot receive moral damage during it.")),
    ("strom", gettext_lazy("Strom"), gettext_lazy(
        "Skip the next player. They may play another Strom to forward the skip.")),
    ("cumi", gettext_lazy("Hare Cumi"), gettext_lazy(
        "Give 1 moral damage to another player. Play several at once, all at the same player.")),
    ("taptap", gettext_lazy("Hare Taptap"), gettext_lazy(
        "Reaction: evade a whole group of Hare Cumi aimed at you.")),
    ("zada", gettext_lazy("Hare Zada"), gettext_lazy("Restore 1 hand-capacity point, up to 5.")),
    ("mini", gettext_lazy("Hare Mini"), gettext_lazy(
        "Disabled: it cannot be played, only burned or discarded.")),
]  # fmt: skip


def cards_info() -> list[dict[str, str]]:
    return [{"id": c, "name": str(name), "effect": str(effect)} for c, name, effect in CARDS]


_NAMES = {card: name for card, name, _effect in CARDS}


def card_name(card: str | None) -> str:
    """A card's name in the reader's language ("nothing" for no card)."""
    if not card:
        return gettext("nothing")
    name = _NAMES.get(card)
    return str(name) if name is not None else card


def card_names() -> dict[str, str]:
    """Every card's name in the reader's language, by id (for the pages' scripts)."""
    return {card: str(name) for card, name in _NAMES.items()}
