"""The challenge form: whom to challenge, and the new table's settings (the lobby's own form)."""

from __future__ import annotations

from django import forms
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from games.forms import TableCreateForm
from games.labels import LEVEL_LABELS
from harehra.bots import DEFAULT_LEVEL, LEVELS


class ChallengeForm(TableCreateForm):
    field_order = ["people", "seats", "bot_level"]

    people = forms.CharField(
        label=_("Whom to challenge"),
        max_length=800,
        help_text=_("Their names, separated by commas. Bots take the seats nobody takes."),
    )
    bot_level = forms.ChoiceField(
        label=_("Bots in the seats nobody takes"),
        choices=[(level, capfirst(LEVEL_LABELS[level])) for level in LEVELS],
        initial=DEFAULT_LEVEL,
        required=False,
    )

    def names(self) -> list[str]:
        return [n.strip() for n in self.cleaned_data["people"].split(",") if n.strip()]
