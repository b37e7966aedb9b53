"""Forms for the site's pages: they parse and validate; services decide."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from harehra.bots import DEFAULT_LEVEL, LEVELS
from harehra.cards import PACKS

from .labels import LEVEL_LABELS, decision_time_lazy
from .models import SLOW_DECISION_SECONDS, BotLevel, Pace, ReplayAccess, Visibility
from .services.tables import TABLE_LIMITS, TableSettings

PACK_LABELS = {"big-warren": _("Big Warren (more cards, up to 6 players)")}


def _bounded(name: str) -> dict[str, Any]:
    """A number field's bounds and first value, as the table service sets them."""
    bounds = TABLE_LIMITS[name]
    return {"min_value": bounds.low, "max_value": bounds.high, "initial": getattr(TableSettings, name)}


class TableCreateForm(forms.Form):
    seats = forms.TypedChoiceField(
        label=_("Players"),
        choices=[(n, str(n)) for n in range(TABLE_LIMITS["seats"].low, TABLE_LIMITS["seats"].high + 1)],
        coerce=int,
        initial=TableSettings.seats,
        help_text=_("5 or 6 players need the Big Warren pack."),
    )
    packs = forms.MultipleChoiceField(
        label=_("Bonus packs"),
        choices=[(p, PACK_LABELS.get(p, p)) for p in PACKS],
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    mini = forms.IntegerField(
        label=_("Hare Mini cards"),
        min_value=TABLE_LIMITS["mini"].low,
        max_value=TABLE_LIMITS["mini"].high,
        initial=TableSettings.mini,
        help_text=_("Hare Mini is disabled: it can only be burned or discarded."),
    )
    pace = forms.ChoiceField(
        label=_("Pace"),
        choices=[
            (Pace.LIVE, _("Live: everyone plays now, decisions in seconds")),
            (Pace.SLOW, _("Slow: a decision in hours or days")),
        ],
        initial=Pace.LIVE,
        required=False,
        help_text=_(
            "At a slow table each player is told when a decision is theirs and has the time below to make it."
        ),
    )
    decision_seconds = forms.TypedChoiceField(
        label=_("Slow table: time per decision"),
        choices=[(n, decision_time_lazy(n)) for n in SLOW_DECISION_SECONDS],
        coerce=int,
        initial=24 * 3600,
        required=False,
        empty_value=None,
    )
    turn_timer = forms.IntegerField(label=_("Turn timer (seconds)"), **_bounded("turn_timer"))
    reaction_timer = forms.IntegerField(label=_("Reaction timer (seconds)"), **_bounded("reaction_timer"))
    discard_timer = forms.IntegerField(label=_("Discard timer (seconds)"), **_bounded("discard_timer"))
    visibility = forms.ChoiceField(
        label=_("Who can find the table"),
        choices=[
            (Visibility.PUBLIC, _("Public: listed in the lobby")),
            (Visibility.PRIVATE, _("Private: invite link only")),
        ],
        initial=Visibility.PUBLIC,
    )
    away_bot_level = forms.ChoiceField(
        label=_("Bot for players who are away or leave"),
        choices=[(level, capfirst(LEVEL_LABELS[level])) for level in LEVELS],
        initial=DEFAULT_LEVEL,
        required=False,
    )
    replay_access = forms.ChoiceField(
        label=_("Who can watch the replays"),
        choices=[
            (ReplayAccess.PUBLIC, _("Anyone")),
            (ReplayAccess.LINK, _("Anyone with the link")),
            (ReplayAccess.PLAYERS, _("Players only")),
        ],
        initial=ReplayAccess.PUBLIC,
    )
    rated = forms.TypedChoiceField(
        label=_("Rated or casual"),
        choices=[("1", _("Rated")), ("0", _("Casual: not rated"))],
        help_text=_("Rated games change the players' ratings."),
        coerce=lambda v: v == "1",
        initial="1",
        required=False,
        empty_value=TableSettings.rated,  # a form that does not say is rated, as a new table is
    )
    chat_enabled = forms.BooleanField(
        label=_("Table chat: players and spectators may write"), required=False, initial=True
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        seats, packs = data.get("seats"), data.get("packs") or []
        if seats and seats > 4 and "big-warren" not in packs:
            self.add_error("seats", _("5 or 6 players need the Big Warren pack."))
        if data.get("pace") == Pace.SLOW and data.get("decision_seconds") is None:
            self.add_error("decision_seconds", _("Choose the time per decision of a slow table."))
        return data

    def settings(self) -> TableSettings:
        d = self.cleaned_data
        return TableSettings(
            seats=d["seats"],
            packs=tuple(d["packs"]),
            mini=d["mini"],
            **self._timers(),
            visibility=d["visibility"],
            replay_access=d["replay_access"],
            rated=d["rated"],
            chat_enabled=d["chat_enabled"],
            away_bot_level=d.get("away_bot_level") or DEFAULT_LEVEL,
        )

    def _timers(self) -> dict[str, Any]:
        """A live table's three timers; a slow table's one time per decision (the timers, shown
        on the same form for live tables, are not its own)."""
        d = self.cleaned_data
        if d.get("pace") == Pace.SLOW:
            return {"pace": Pace.SLOW, "decision_seconds": d["decision_seconds"]}
        return {
            "turn_timer": d["turn_timer"],
            "reaction_timer": d["reaction_timer"],
            "discard_timer": d["discard_timer"],
        }


class SeatForm(forms.Form):
    """The optional seat number and invite code sent with a table action."""

    seat = forms.IntegerField(required=False, min_value=0, max_value=TABLE_LIMITS["seats"].high - 1)
    invite_code = forms.CharField(required=False, max_length=64)
    level = forms.ChoiceField(required=False, choices=BotLevel.choices)  # add-bot: the bot's level
