"""Every sentence the site says about a game's events, written once.

Two describers read this table: the server's (games/describe.py: the frames API, link previews,
live watch frames) and the pages' (static/js/table/words.js: the game log, the watch page, the
replay viewer). The pages get it as static/js/table/sentences.js, which `python manage.py
export_sentences` writes from this module (tests/games/test_sentences.py fails when that file is
stale). Neither describer holds a sentence of its own: each picks the case and the variant below
and fills in the values.

An event type has one or more cases, tried in order: the first whose `when` fields all equal the
event's (a field the event lacks reads as None) says it. A case's templates:
- `other`: about someone else (or about nobody, when `name` is None);
- `you`: the reader holds the seat in %(name)s; `to_you`: the reader holds the seat in %(target)s.
Whole sentences for each, never "you" pasted into one: languages bend the verb (Czech "hraješ",
"hraje") and the pronoun ("ty", "tebe").

Values: %(name)s and %(target)s are the names of the seats in the event fields `name` and
`target`; %(n)s is `count` (a number, or a list's length), which also picks the plural form; the
others are (kind, event field) in `values`, kinds being those in VALUE_KINDS.

A sentence starts with a capital letter, except where it starts with a person's name (kept as its
owner typed it) or is a clause the game log joins to a play's line (`join`: "bob played Strom;
you are skipped"). The game log's own flags: `starts` (a line later clauses join), `minor` (a
quieter line), `turn` (a turn begins), and `log` False for a step the log says otherwise (the
replay viewer and the server say it).

The templates are marked for translation with gettext_noop and ngettext_noop (a keyword
harehra_site's makemessages adds), here for django.po and in the page's copy for djangojs.po; each
is translated only when said. tests/i18n holds the two catalogues to the same Czech for them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from django.utils.translation import gettext_noop

from harehra import EventType


class Plural(NamedTuple):
    singular: str
    plural: str


Template = str | Plural


def ngettext_noop(singular: str, plural: str) -> Plural:
    """A plural template, marked for makemessages (like gettext_noop) and translated when said."""
    return Plural(singular, plural)


# Values a template may name besides %(name)s, %(target)s and %(n)s, by kind: a card's name, the
# first card of a list, a list of cards ("2 × Hare Cumi, Strom"), a number as it is, and the hand
# limit a seat has left (the hand size less this damage, at least 0).
VALUE_KINDS = ("card", "first_card", "cards", "number", "limit")


@dataclass(frozen=True, slots=True)
class Say:
    other: Template
    you: Template | None = None
    to_you: Template | None = None
    when: Mapping[str, Any] = field(default_factory=dict)
    name: str | None = "seat"
    target: str | None = None
    count: str | None = None
    values: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    join: bool = False
    starts: bool = False
    minor: bool = False
    turn: bool = False
    log: bool = True


# A seat no name is known for (a document's seat past its list of players).
SEAT = gettext_noop("Seat %(n)s")

SENTENCES: dict[EventType, tuple[Say, ...]] = {
    EventType.GAME_STARTED: (
        Say(
            you=gettext_noop("the game begins. You shuffled."),
            other=gettext_noop("the game begins. %(name)s shuffled."),
            name="shuffler",
        ),
    ),
    EventType.TURN_STARTED: (
        Say(you=gettext_noop("your turn."), other=gettext_noop("%(name)s's turn."), minor=True, turn=True),
    ),
    EventType.CARDS_PLAYED: (
        Say(
            when={"target": None},
            you=gettext_noop("you played %(card)s"),
            other=gettext_noop("%(name)s played %(card)s"),
            values={"card": ("cards", "cards")},
            starts=True,
        ),
        Say(
            you=ngettext_noop(
                "you played %(card)s at %(target)s", "you played %(n)s × %(card)s at %(target)s"
            ),
            other=ngettext_noop(
                "%(name)s played %(card)s at %(target)s", "%(name)s played %(n)s × %(card)s at %(target)s"
            ),
            to_you=ngettext_noop(
                "%(name)s played %(card)s at you", "%(name)s played %(n)s × %(card)s at you"
            ),
            target="target",
            count="cards",
            values={"card": ("first_card", "cards")},
            starts=True,
        ),
    ),
    EventType.DIRECTION_CHANGED: (
        Say(
            when={"direction": "ccw"},
            other=gettext_noop("play now goes counterclockwise"),
            name=None,
            join=True,
        ),
        Say(other=gettext_noop("play now goes clockwise"), name=None, join=True),
    ),
    EventType.PROTECTION_GAINED: (
        Say(
            you=gettext_noop("you are protected from moral damage"),
            other=gettext_noop("%(name)s is protected from moral damage"),
            join=True,
        ),
    ),
    EventType.DAMAGE_HEALED: (
        # At 0 the event cannot tell a healed point from none to heal (Hare Zada at no damage):
        # say what is true.
        Say(
            when={"damage": 0},
            you=gettext_noop("you have no moral damage"),
            other=gettext_noop("%(name)s has no moral damage"),
            join=True,
        ),
        Say(
            you=gettext_noop("you healed to %(d)s damage"),
            other=gettext_noop("%(name)s healed to %(d)s damage"),
            values={"d": ("number", "damage")},
            join=True,
        ),
    ),
    EventType.PLAYER_SKIPPED: (
        Say(you=gettext_noop("you are skipped"), other=gettext_noop("%(name)s is skipped"), join=True),
    ),
    EventType.VOLLEY_PENDING: (
        # The game log says it with the play; a replay's step of its own says who must answer.
        Say(
            you=ngettext_noop(
                "%(target)s must answer Hare Cumi from you",
                "%(target)s must answer %(n)s × Hare Cumi from you",
            ),
            other=ngettext_noop(
                "%(target)s must answer Hare Cumi from %(name)s",
                "%(target)s must answer %(n)s × Hare Cumi from %(name)s",
            ),
            to_you=ngettext_noop(
                "you must answer Hare Cumi from %(name)s", "you must answer %(n)s × Hare Cumi from %(name)s"
            ),
            name="attacker",
            target="target",
            count="count",
            log=False,
        ),
    ),
    EventType.SKIP_PENDING: (
        # The game log says the skip once, as it ends ("you are skipped", or who forwarded it);
        # the one who must answer has the prompt, the others the turn line.
        Say(
            you=gettext_noop("you may forward the skip with Strom"),
            other=gettext_noop("%(name)s may forward the skip with Strom"),
            log=False,
        ),
    ),
    EventType.REACTION_PLAYED: (
        Say(
            when={"kind": "skip"},
            you=gettext_noop("you forwarded the skip with %(card)s"),
            other=gettext_noop("%(name)s forwarded the skip with %(card)s"),
            values={"card": ("card", "card")},
            join=True,
        ),
        Say(
            you=gettext_noop("you evaded with %(card)s"),
            other=gettext_noop("%(name)s evaded with %(card)s"),
            values={"card": ("card", "card")},
            join=True,
        ),
    ),
    EventType.REACTION_DECLINED: (
        # The log's next clause says a declined skip: "you are skipped".
        Say(
            when={"kind": "skip"},
            you=gettext_noop("you did not forward the skip"),
            other=gettext_noop("%(name)s did not forward the skip"),
            log=False,
        ),
        Say(you=gettext_noop("you took it"), other=gettext_noop("%(name)s took it"), join=True),
    ),
    EventType.DAMAGE_TAKEN: (
        Say(
            you=ngettext_noop(
                "you took %(n)s moral damage (hand limit %(limit)s)",
                "you took %(n)s moral damage (hand limit %(limit)s)",
            ),
            other=ngettext_noop(
                "%(name)s took %(n)s moral damage (hand limit %(limit)s)",
                "%(name)s took %(n)s moral damage (hand limit %(limit)s)",
            ),
            count="amount",
            values={"limit": ("limit", "damage")},
            join=True,
        ),
    ),
    EventType.PLAYER_ELIMINATED: (
        Say(you=gettext_noop("you are out of the game!"), other=gettext_noop("%(name)s is out of the game!")),
    ),
    EventType.CARD_BURNED: (
        Say(
            when={"card": None},
            you=gettext_noop("you could not play"),
            other=gettext_noop("%(name)s could not play"),
        ),
        Say(
            you=gettext_noop("you could not play and burned %(card)s"),
            other=gettext_noop("%(name)s could not play and burned %(card)s"),
            values={"card": ("card", "card")},
        ),
    ),
    EventType.CARDS_DRAWN: (
        # Another seat's cards are hidden: only how many.
        Say(
            when={"cards": None},
            you=ngettext_noop("you drew %(n)s card", "you drew %(n)s cards"),
            other=ngettext_noop("%(name)s drew %(n)s card", "%(name)s drew %(n)s cards"),
            count="count",
            minor=True,
        ),
        Say(
            you=gettext_noop("you drew %(cards)s"),
            other=gettext_noop("%(name)s drew %(cards)s"),
            values={"cards": ("cards", "cards")},
            minor=True,
        ),
    ),
    EventType.DRAW_PILE_RESHUFFLED: (
        Say(other=gettext_noop("The discard pile was shuffled into a new draw pile."), name=None, minor=True),
    ),
    EventType.DISCARD_REQUIRED: (
        Say(
            you=ngettext_noop("you must discard %(n)s card", "you must discard %(n)s cards"),
            other=ngettext_noop("%(name)s must discard %(n)s card", "%(name)s must discard %(n)s cards"),
            count="count",
        ),
    ),
    EventType.CARDS_DISCARDED: (
        Say(
            when={"cards": None},
            you=gettext_noop("you discarded"),
            other=gettext_noop("%(name)s discarded"),
        ),
        Say(
            you=gettext_noop("you discarded %(cards)s"),
            other=gettext_noop("%(name)s discarded %(cards)s"),
            values={"cards": ("cards", "cards")},
        ),
    ),
    EventType.GAME_ENDED: (
        Say(
            when={"winner": None},
            other=gettext_noop("The game ended in a draw at the turn limit."),
            name=None,
        ),
        Say(
            you=gettext_noop("you won the game!"),
            other=gettext_noop("%(name)s won the game!"),
            name="winner",
        ),
    ),
    EventType.GAME_ABORTED: (Say(other=gettext_noop("The game was called off."), name=None),),
    EventType.SEAT_TAKEN_BY_BOT: (
        Say(
            when={"reason": "left"},
            you=gettext_noop("you left; a bot plays your seat"),
            other=gettext_noop("%(name)s left; a bot plays the seat"),
        ),
        # A suspension or ban took the person off the table. They read why; the others read that
        # they left (as the table shows them: their chair is empty), not why.
        Say(
            when={"reason": "banned"},
            you=gettext_noop("your account was suspended or banned; a bot plays your seat"),
            other=gettext_noop("%(name)s left; a bot plays the seat"),
        ),
        Say(
            you=gettext_noop("you are away; a bot plays your seat"),
            other=gettext_noop("%(name)s is away; a bot plays the seat"),
        ),
    ),
    EventType.SEAT_RECLAIMED: (
        Say(
            you=gettext_noop("you are back and play again"),
            other=gettext_noop("%(name)s is back and plays again"),
        ),
    ),
}
