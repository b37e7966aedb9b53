import copy
from typing import Any

from django import forms
from django.contrib import admin

from games.forms import PACK_LABELS
from harehra.cards import PACKS
from plumbing.errors import ServiceError

from .models import Entry, Tournament
from .services import tournament_settings_check


class TournamentAdminForm(forms.ModelForm):  # type: ignore[type-arg]
    """Staff's form: the packs as checkboxes, and the rules the services keep (dates a list can
    show, sizes, timers), refused with the service's words before anything is written."""

    packs = forms.MultipleChoiceField(
        choices=[(p, PACK_LABELS.get(p, p)) for p in PACKS],
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )

    class Meta:
        model = Tournament
        fields = (
            "name", "format", "featured", "table_size", "min_table_size", "bots_fill", "bot_level",
            "bots_after_seconds", "packs", "mini", "turn_timer", "reaction_timer", "discard_timer",
            "rated", "entry_opens_at", "starts_at", "duration_minutes", "rounds",
        )  # fmt: skip

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if self.errors:
            return data  # a field is missing or malformed: its own error says so
        t = copy.copy(self.instance)
        for name, value in data.items():
            setattr(t, name, value)
        try:
            tournament_settings_check(t)
        except ServiceError as e:
            raise forms.ValidationError(e.detail, code=e.code) from e
        return data


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    form = TournamentAdminForm
    list_display = ("name", "format", "status", "featured", "table_size", "starts_at", "created_by")
    list_filter = ("format", "status", "featured")
    readonly_fields = ("status", "current_round", "started_at", "finished_at", "created_by")

    def save_model(self, request, obj, form, change):  # type: ignore[no-untyped-def]
        if not change:
            obj.created_by = request.user
        super().save_model(request, obj, form, change)


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("tournament", "user", "score", "games", "wins", "paused", "withdrawn")
    readonly_fields = ("score", "games", "wins", "streak", "byes")
