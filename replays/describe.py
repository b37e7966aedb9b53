"""Events in plain words, for the replay log and link previews: "Bob played 2 × Hare Cumi at Ann"."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.engine import CARD_NAMES
from games.seat_events import SEAT_RECLAIMED, SEAT_TAKEN_BY_BOT


def card_name(card: str | None) -> str:
    return CARD_NAMES.get(card or "", card or _("nothing"))


def _cards(cards: Sequence[str]) -> str:
    """["cumi", "cumi", "strom"] -> "2 × Hare Cumi, Strom" (in first-seen order)."""
    counts: dict[str, int] = {}
    for c in cards:
        counts[c] = counts.get(c, 0) + 1
    return ", ".join(card_name(c) if n == 1 else f"{n} × {card_name(c)}" for c, n in counts.items())


def _name(names: Sequence[str], seat: Any) -> str:
    if isinstance(seat, int) and 0 <= seat < len(names):
        return names[seat]
    return _("Seat %(n)s") % {"n": seat}


def describe(event: Mapping[str, Any], names: Sequence[str]) -> str:
    """One event (raw or filtered by `event_for`) in words; `names` are the seats' display names."""
    kind = event.get("type")
    seat = event.get("seat")
    who = _name(names, seat)
    if kind == "GameStarted":
        shuffler = _name(names, event.get("shuffler"))
        pile = event.get("draw_pile_size", len(event.get("draw_pile") or ()))
        return _("%(who)s shuffled and dealt to %(n)s players; %(pile)s cards left to draw") % {
            "who": shuffler,
            "n": event.get("players"),
            "pile": pile,
        }
    if kind == "TurnStarted":
        return _("Turn %(turn)s: %(who)s to play") % {"turn": event.get("turn"), "who": who}
    if kind == "CardsPlayed":
        cards = event.get("cards") or []
        if event.get("target") is not None:
            return _("%(who)s played %(cards)s at %(target)s") % {
                "who": who,
                "cards": _cards(cards),
                "target": _name(names, event["target"]),
            }
        return _("%(who)s played %(cards)s") % {"who": who, "cards": _cards(cards)}
    if kind == "DirectionChanged":
        if event.get("direction") == "ccw":
            return _("Play now goes counterclockwise")
        return _("Play now goes clockwise")
    if kind == "ProtectionGained":
        return _("%(who)s is protected until their next turn") % {"who": who}
    if kind == "DamageHealed":
        return _("%(who)s healed to %(damage)s damage") % {"who": who, "damage": event.get("damage")}
    if kind == "PlayerSkipped":
        return _("%(who)s is skipped") % {"who": who}
    if kind == "VolleyPending":
        return _("%(target)s must answer a volley of %(count)s from %(attacker)s") % {
            "target": _name(names, event.get("target")),
            "count": event.get("count"),
            "attacker": _name(names, event.get("attacker")),
        }
    if kind == "SkipPending":
        return _("%(who)s must take the skip or forward it with Strom") % {"who": who}
    if kind == "ReactionPlayed":
        if event.get("kind") == "skip":
            return _("%(who)s forwarded the skip with %(card)s") % {
                "who": who,
                "card": card_name(event.get("card")),
            }
        return _("%(who)s evaded with %(card)s") % {"who": who, "card": card_name(event.get("card"))}
    if kind == "ReactionDeclined":
        if event.get("kind") == "skip":
            return _("%(who)s took the skip") % {"who": who}
        return _("%(who)s took the volley") % {"who": who}
    if kind == "DamageTaken":
        return _("%(who)s took %(amount)s damage (now %(damage)s)") % {
            "who": who,
            "amount": event.get("amount"),
            "damage": event.get("damage"),
        }
    if kind == "PlayerEliminated":
        return _("%(who)s is out of the game") % {"who": who}
    if kind == "CardBurned":
        if event.get("card") is None:
            return _("%(who)s had nothing to burn") % {"who": who}
        return _("%(who)s burned %(card)s") % {"who": who, "card": card_name(event.get("card"))}
    if kind == "CardsDrawn":
        if "cards" in event:
            return _("%(who)s drew %(cards)s") % {"who": who, "cards": _cards(event["cards"])}
        count = int(event.get("count", 0))
        return ngettext("%(who)s drew %(n)s card", "%(who)s drew %(n)s cards", count) % {
            "who": who,
            "n": count,
        }
    if kind == "DrawPileReshuffled":
        count = event.get("count", len(event.get("cards") or ()))
        return _("The discard pile was shuffled into a new draw pile of %(n)s cards") % {"n": count}
    if kind == "DiscardRequired":
        count = int(event.get("count", 0))
        return ngettext("%(who)s must discard %(n)s card", "%(who)s must discard %(n)s cards", count) % {
            "who": who,
            "n": count,
        }
    if kind == "CardsDiscarded":
        if "cards" in event:
            return _("%(who)s discarded %(cards)s") % {"who": who, "cards": _cards(event["cards"])}
        return _("%(who)s discarded") % {"who": who}
    if kind == "GameEnded":
        if event.get("result") == "win":
            return _("%(who)s wins the game") % {"who": _name(names, event.get("winner"))}
        return _("The game ended in a draw at the turn limit")
    if kind == "GameAborted":
        return _("The game was aborted")
    if kind == SEAT_TAKEN_BY_BOT:
        return _("A bot took over %(who)s's seat (%(reason)s)") % {"who": who, "reason": event.get("reason")}
    if kind == SEAT_RECLAIMED:
        return _("%(who)s took their seat back") % {"who": who}
    return str(kind)
