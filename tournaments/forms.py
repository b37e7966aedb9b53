"""The page's form for a player's own event: it parses and validates; the service decides."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django import forms
from django.utils.formats import localize
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from games.forms import PACK_LABELS
from games.labels import decision_time_lazy
from games.models import SLOW_DECISION_SECONDS, Pace
from games.services.tables import TABLE_LIMITS, TableSettings
from harehra.cards import PACKS

from .limits import GAME_MINUTES, PLAYER_ARENA_MINUTES, PLAYER_ROUNDS
from .models import Format


def _minutes(n: int) -> str:
    if n == 0:
        return str(_("Now"))
    if n % 60 == 0:
        return str(ngettext_lazy("In %(n)d hour", "In %(n)d hours", n // 60) % {"n": n // 60})
    return str(ngettext_lazy("In %(n)d minute", "In %(n)d minutes", n) % {"n": n})


def _length(n: int) -> str:
    return str(ngettext_lazy("%(n)d minute", "%(n)d minutes", n) % {"n": n})


def game_minutes_help() -> str:
    """How long a game lasts at each table size (limits.GAME_MINUTES), for choosing a length."""
    m = {
        f"m{size}": localize(int(p50) if float(p50).is_integer() else p50)  # 3.5, in Czech 3,5
        for size, (p50, _p90) in GAME_MINUTES.items()
    }
    return str(
        _(
            "A game takes about %(m2)s minutes at a table of 2, %(m3)s of 3, %(m4)s of 4, %(m5)s of 5 "
            "and %(m6)s of 6; one game in ten takes half as long again. For several games each, "
            "choose at least three games' worth."
        )
        % m
    )


ARENA_LENGTHS = [n for n in (10, 15, 20, 30, 45, 60, 90, 120, 180) if PLAYER_ARENA_MINUTES[0] <= n]
STARTS_IN = (0, 5, 10, 15, 30, 60, 120, 360, 1440)


class TournamentCreateForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=80)
    format = forms.ChoiceField(
        label=_("Format"),
        choices=[
            (Format.ARENA, _("Arena: a new table as soon as your game ends, until the time is up")),
            (Format.SWISS, _("Swiss: a fixed number of rounds, players of similar score together")),
        ],
        initial=Format.ARENA,
        widget=forms.RadioSelect,
    )
    table_size = forms.TypedChoiceField(
        label=_("Players at a table"),
        choices=[(n, str(n)) for n in range(2, 7)],
        coerce=int,
        initial=4,
        help_text=_("5 or 6 players need the Big Warren pack."),
    )
    starts_in = forms.TypedChoiceField(
        label=_("Start"),
        choices=[(n, "") for n in STARTS_IN],
        coerce=int,
        initial=10,
        help_text=_("Players may enter from now on; an arena also takes them until its end."),
    )
    duration_minutes = forms.TypedChoiceField(
        label=_("Arena length"),
        choices=[(n, "") for n in ARENA_LENGTHS],
        coerce=int,
        initial=30,
        required=False,
        help_text="",  # set per instance: the game lengths (translated when the form is made)
    )
    rounds = forms.TypedChoiceField(
        label=_("Swiss rounds"),
        choices=[(n, str(n)) for n in range(PLAYER_ROUNDS[0], PLAYER_ROUNDS[1] + 1)],
        coerce=int,
        initial=5,
        required=False,
        help_text=_("Each round lasts as long as its longest game."),
    )
    packs = forms.MultipleChoiceField(
        label=_("Bonus packs"),
        choices=[(p, PACK_LABELS.get(p, p)) for p in PACKS],
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    turn_timer = forms.IntegerField(
        label=_("Turn timer (seconds)"),
        min_value=TABLE_LIMITS["turn_timer"].low,
        max_value=TABLE_LIMITS["turn_timer"].high,
        initial=TableSettings.turn_timer,
    )
    decision_seconds = forms.TypedChoiceField(
        label=_("Swiss: slow games"),
        choices=[
            ("", _("No: live games, the timers above")),
            *((n, decision_time_lazy(n)) for n in SLOW_DECISION_SECONDS),
        ],
        coerce=int,
        empty_value=None,
        required=False,
        help_text=_("A slow event's round is played over days: this long per decision."),
    )
    bots_fill = forms.BooleanField(
        label=_("Bots fill a table when too few players are free"), required=False, initial=True
    )
    bots_after_seconds = forms.TypedChoiceField(
        label=_("Arena: seat a waiting player with bots after"),
        choices=[(n, "") for n in (10, 20, 30, 60)],
        coerce=int,
        initial=30,
        required=False,
        help_text=_("A bot's seat scores for nobody."),
    )
    rated = forms.BooleanField(
        label=_("Rated: its games change the players' ratings"), required=False, initial=True
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Labels of the choices made per request, in the request's language.
        f = self.fields
        f["starts_in"].choices = [(n, _minutes(n)) for n in STARTS_IN]  # type: ignore[attr-defined]
        f["duration_minutes"].choices = [(n, _length(n)) for n in ARENA_LENGTHS]  # type: ignore[attr-defined]
        f["duration_minutes"].help_text = game_minutes_help()
        f["bots_after_seconds"].choices = [  # type: ignore[attr-defined]
            (n, str(ngettext_lazy("%(n)d second", "%(n)d seconds", n) % {"n": n})) for n in (10, 20, 30, 60)
        ]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        size, packs = data.get("table_size"), data.get("packs") or []
        if size and size > 4 and "big-warren" not in packs:
            self.add_error("table_size", _("5 or 6 players need the Big Warren pack."))
        if data.get("format") == Format.ARENA and not data.get("duration_minutes"):
            self.add_error("duration_minutes", _("Choose the arena's length."))
        if data.get("format") == Format.SWISS and not data.get("rounds"):
            self.add_error("rounds", _("Choose the number of rounds."))
        return data

    def spec(self, now: datetime) -> dict[str, Any]:
        """The service's settings of the event."""
        d = self.cleaned_data
        arena = d["format"] == Format.ARENA
        spec: dict[str, Any] = {
            "name": d["name"],
            "format": d["format"],
            "table_size": d["table_size"],
            "min_table_size": d["table_size"],
            "bots_fill": d["bots_fill"],
            "packs": list(d["packs"]),
            "turn_timer": d["turn_timer"],
            "rated": d["rated"],
            **(
                {"pace": Pace.SLOW, "decision_seconds": d["decision_seconds"]}
                if d.get("decision_seconds")
                else {}
            ),
            "entry_opens_at": now,
            "starts_at": now + timedelta(minutes=d["starts_in"]),
        }
        if arena:
            spec["duration_minutes"] = d["duration_minutes"]
            spec["bots_after_seconds"] = d.get("bots_after_seconds") or 30
        else:
            spec["rounds"] = d["rounds"]
        return spec
