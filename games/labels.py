"""How a bot's seat is named wherever seats are listed: "Bot 3 · hard"."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

LEVEL_LABELS = {"easy": gettext_lazy("easy"), "normal": gettext_lazy("normal"), "hard": gettext_lazy("hard")}


def bot_name(number: int, level: str) -> str:
    """The name of the bot in seat `number` (from 0) playing at `level`."""
    return _("Bot %(n)d · %(level)s") % {"n": number + 1, "level": LEVEL_LABELS.get(level, level)}
