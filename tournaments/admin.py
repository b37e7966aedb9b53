from django.contrib import admin

from .models import Entry, Tournament


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("name", "format", "status", "table_size", "starts_at")
    list_filter = ("format", "status")
    readonly_fields = ("status", "current_round", "started_at", "finished_at", "created_by")

    def save_model(self, request, obj, form, change):  # type: ignore[no-untyped-def]
        if not change:
            obj.created_by = request.user
        super().save_model(request, obj, form, change)


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("tournament", "user", "score", "games", "wins", "paused", "withdrawn")
    readonly_fields = ("score", "games", "wins", "streak", "byes")
