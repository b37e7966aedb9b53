"""The lobby's block of tournaments: the lobby page shows it without games importing this app."""

from __future__ import annotations

from typing import Any

from django import template

from ..selectors import tournament_list_rows

register = template.Library()


@register.inclusion_tag("tournaments/_lobby.html")
def tournaments_lobby() -> dict[str, Any]:
    lists = tournament_list_rows(featured_only=True)  # staff's events; players' are on /tournaments/
    return {"running": lists["running"], "upcoming": lists["upcoming"][:5]}
