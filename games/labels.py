"""How seats are named wherever they are listed: a person by their username, a bot as
"Bot 3 · hard"; and the bot levels' words (the levels themselves are the pure game's)."""

from __future__ import annotations

from typing import Any

from django.utils.functional import lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, npgettext

from harehra.bots import LEVELS

# One word per level of the pure game's (a literal each, so the translation catalog finds them).
LEVEL_LABELS = {"easy": gettext_lazy("easy"), "normal": gettext_lazy("normal"), "hard": gettext_lazy("hard")}
if set(LEVEL_LABELS) != set(LEVELS):
    raise ImportError(f"games.labels names the levels {sorted(LEVEL_LABELS)}, the bots have {list(LEVELS)}")


def bot_name(number: int, level: str) -> str:
    """The name of the bot in seat `number` (from 0) playing at `level`."""
    return _("Bot %(n)d · %(level)s") % {"n": number + 1, "level": LEVEL_LABELS.get(level, level)}


def seat_name(seat: Any) -> str | None:
    """The name of a table's Seat or a game's GameSeat: its person's username, or its bot's name;
    None for an empty seat. The person's row is read unless the caller selected it."""
    if seat.user_id is not None:
        return str(seat.user.get_username())
    if not seat.is_bot:
        return None
    number = seat.number if hasattr(seat, "number") else seat.seat
    return bot_name(number, seat.bot_level)


def decision_time(seconds: int) -> str:
    """A table's time per decision in words: "1 day", "8 hours", "30 seconds"."""
    if seconds >= 86400 and seconds % 86400 == 0:
        n = seconds // 86400
        return npgettext("time per decision", "%(n)d day", "%(n)d days", n) % {"n": n}
    if seconds >= 3600 and seconds % 3600 == 0:
        n = seconds // 3600
        return npgettext("time per decision", "%(n)d hour", "%(n)d hours", n) % {"n": n}
    return npgettext("time per decision", "%(n)d second", "%(n)d seconds", seconds) % {"n": seconds}


# The same words made when read, for the forms' choices: they are built once and read in each
# request's language.
decision_time_lazy = lazy(decision_time, str)
