"""Events in plain words, for the replay log and link previews: "Bob played 2 × Hare Cumi at Ann"."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.card_text import card_name
from harehra import EventType, StoredEvent


def _cards(cards: Sequence[str]) -> str:
    """["cumi", "cumi", "strom"] -> "2 × Hare Cumi, Strom" (in first-seen order)."""
    counts: dict[str, int] = {}
    for c in cards:
        counts[c] = counts.get(c, 0) + 1
    return ", ".join(card_name(c) if n == 1 else f"{n} × {card_name(c)}" for c, n in counts.items())


def _name(names: Sequence[str], seat: Any) -> str:
    if isinstance(seat, int) and 0 <= seat < len(names):
        return names[seat]
    return _("Seat %(n)s") % {"n": seat + 1 if isinstance(seat, int) else seat}


def describe(event: StoredEvent, names: Sequence[str]) -> str:
    """One event (raw or filtered by `event_for`) in words; `names` are the seats' display names.

    The same sentences as the pages' describer (static/js/table/words.js) says for a reader who holds
    no seat, so a link preview, the frames API and the replay viewer read alike (a test compares
    them); names stay as their owners typed them.
    """
    kind = event.get("type")
    seat = event.get("seat")
    who = _name(names, seat)
    if kind == EventType.GAME_STARTED:
        return _("The game begins. %(name)s shuffled.") % {"name": _name(names, event.get("shuffler"))}
    if kind == EventType.TURN_STARTED:
        return _("%(name)s's turn.") % {"name": who}
    if kind == EventType.CARDS_PLAYED:
        cards = event.get("cards") or []
        if event.get("target") is not None:
            n = len(cards)
            return ngettext(
                "%(name)s played %(card)s at %(target)s", "%(name)s played %(n)s × %(card)s at %(target)s", n
            ) % {
                "name": who,
                "n": n,
                "card": card_name(cards[0] if cards else None),
                "target": _name(names, event["target"]),
            }
        return _("%(name)s played %(card)s") % {"name": who, "card": _cards(cards)}
    if kind == EventType.DIRECTION_CHANGED:
        if event.get("direction") == "ccw":
            return _("Play now goes counterclockwise")
        return _("Play now goes clockwise")
    if kind == EventType.PROTECTION_GAINED:
        return _("%(name)s is protected from moral damage") % {"name": who}
    if kind == EventType.DAMAGE_HEALED:
        if not event.get("damage"):
            # Hare Zada at no damage heals nothing: the event cannot tell, so say what is true.
            return _("%(name)s has no moral damage") % {"name": who}
        return _("%(name)s healed to %(d)s damage") % {"name": who, "d": event.get("damage")}
    if kind == EventType.PLAYER_SKIPPED:
        return _("%(name)s is skipped") % {"name": who}
    if kind == EventType.VOLLEY_PENDING:
        count = int(event.get("count", 1))
        return ngettext(
            "%(target)s must answer Hare Cumi from %(name)s",
            "%(target)s must answer %(n)s × Hare Cumi from %(name)s",
            count,
        ) % {
            "target": _name(names, event.get("target")),
            "n": count,
            "name": _name(names, event.get("attacker")),
        }
    if kind == EventType.SKIP_PENDING:
        return _("%(name)s may forward the skip with Strom") % {"name": who}
    if kind == EventType.REACTION_PLAYED:
        if event.get("kind") == "skip":
            return _("%(name)s forwarded the skip with %(card)s") % {
                "name": who,
                "card": card_name(event.get("card")),
            }
        return _("%(name)s evaded with %(card)s") % {"name": who, "card": card_name(event.get("card"))}
    if kind == EventType.REACTION_DECLINED:
        if event.get("kind") == "skip":
            return _("%(name)s did not forward the skip") % {"name": who}
        return _("%(name)s took it") % {"name": who}
    if kind == EventType.DAMAGE_TAKEN:
        amount = int(event.get("amount", 0))
        return ngettext(
            "%(name)s took %(n)s moral damage (hand limit %(limit)s)",
            "%(name)s took %(n)s moral damage (hand limit %(limit)s)",
            amount,
        ) % {"name": who, "n": amount, "limit": max(0, 5 - int(event.get("damage", 0)))}
    if kind == EventType.PLAYER_ELIMINATED:
        return _("%(name)s is out of the game!") % {"name": who}
    if kind == EventType.CARD_BURNED:
        if event.get("card") is None:
            return _("%(name)s could not play") % {"name": who}
        return _("%(name)s could not play and burned %(card)s") % {
            "name": who,
            "card": card_name(event.get("card")),
        }
    if kind == EventType.CARDS_DRAWN:
        if "cards" in event:
            return _("%(name)s drew %(cards)s") % {"name": who, "cards": _cards(event["cards"])}
        count = int(event.get("count", 0))
        return ngettext("%(name)s drew %(n)s card", "%(name)s drew %(n)s cards", count) % {
            "name": who,
            "n": count,
        }
    if kind == EventType.DRAW_PILE_RESHUFFLED:
        return _("The discard pile was shuffled into a new draw pile.")
    if kind == EventType.DISCARD_REQUIRED:
        count = int(event.get("count", 0))
        return ngettext("%(name)s must discard %(n)s card", "%(name)s must discard %(n)s cards", count) % {
            "name": who,
            "n": count,
        }
    if kind == EventType.CARDS_DISCARDED:
        if "cards" in event:
            return _("%(name)s discarded %(cards)s") % {"name": who, "cards": _cards(event["cards"])}
        return _("%(name)s discarded") % {"name": who}
    if kind == EventType.GAME_ENDED:
        if event.get("result") == "win":
            return _("%(name)s won the game!") % {"name": _name(names, event.get("winner"))}
        return _("The game ended in a draw at the turn limit.")
    if kind == EventType.GAME_ABORTED:
        return _("The game was called off.")
    if kind == EventType.SEAT_TAKEN_BY_BOT:
        if event.get("reason") == "left":
            return _("%(name)s left; a bot plays the seat") % {"name": who}
        return _("%(name)s is away; a bot plays the seat") % {"name": who}
    if kind == EventType.SEAT_RECLAIMED:
        return _("%(name)s is back and plays again") % {"name": who}
    return str(kind)
