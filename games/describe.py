"""Events in plain words, for the frames API, link previews and live watch frames: "Bob played 2 ×
Hare Cumi at Ann". The sentences are games/sentences.py's; this reads that table as the pages'
describer (static/js/table/words.js) does, for a step said on its own."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django.utils.translation import gettext, ngettext

from games.card_text import card_name
from games.sentences import SEAT, SENTENCES, Say


def _cards(cards: Sequence[str]) -> str:
    """["cumi", "cumi", "strom"] -> "2 × Hare Cumi, Strom" (in first-seen order)."""
    counts: dict[str, int] = {}
    for c in cards:
        counts[c] = counts.get(c, 0) + 1
    return ", ".join(card_name(c) if n == 1 else f"{n} × {card_name(c)}" for c, n in counts.items())


def _name(names: Sequence[str], seat: Any) -> str:
    if seat is None:
        return ""
    if isinstance(seat, int) and 0 <= seat < len(names):
        return names[seat]
    return gettext(SEAT) % {"n": seat + 1 if isinstance(seat, int) else seat}


# The values of sentences.VALUE_KINDS: (the event field's value, the hand size) -> the value said.
VALUES: dict[str, Callable[[Any, int], Any]] = {
    "card": lambda v, _hand: card_name(v),
    "first_card": lambda v, _hand: card_name(v[0] if v else None),
    "cards": lambda v, _hand: _cards(v or ()),
    "number": lambda v, _hand: v,
    "limit": lambda v, hand: max(0, hand - int(v or 0)),
}


def case_for(event: Mapping[str, Any]) -> Say | None:
    """The case of games/sentences.py that says `event`: the first whose `when` fields it has."""
    for say in SENTENCES.get(event.get("type"), ()):
        when = say.when
        if not when or all(event.get(k) == v for k, v in when.items()):
            return say
    return None


def describe(
    event: Mapping[str, Any], names: Sequence[str], *, hand_size: int, reader: int | None = None
) -> str:
    """One event (raw or filtered by `event_for`) in words; `names` are the seats' display names,
    `hand_size` the ruleset's (the hand limit left after damage), `reader` the seat of whoever reads
    it ("you"), None for a spectator. An event type with no sentence is said by its name."""
    say = case_for(event)
    if say is None:
        return str(event.get("type"))
    template = say.other
    values: dict[str, Any] = {}
    if say.name is not None:
        seat = event.get(say.name)
        if reader is not None and seat == reader and say.you is not None:
            template = say.you
        else:
            values["name"] = _name(names, seat)
    if say.target is not None:
        seat = event.get(say.target)
        if reader is not None and seat == reader and say.to_you is not None:
            template = say.to_you
        else:
            values["target"] = _name(names, seat)
    n = 0
    if say.count is not None:
        raw = event.get(say.count)
        n = values["n"] = len(raw) if isinstance(raw, list) else int(raw or 0)
    for key, (kind, source) in say.values.items():
        values[key] = VALUES[kind](event.get(source), hand_size)
    text = gettext(template) if isinstance(template, str) else ngettext(template.singular, template.plural, n)
    # A sentence starts with a capital, unless with a name, kept as its owner typed it.
    named = ("name" in values and text.startswith("%(name)s")) or (
        "target" in values and text.startswith("%(target)s")
    )
    text = text % values
    return text if named else text[:1].upper() + text[1:]
