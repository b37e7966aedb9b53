"""{{ seconds|decision_time }}: a table's time per decision in the page's words (games.labels)."""

from __future__ import annotations

from django import template

from ..labels import decision_time as _decision_time

register = template.Library()


@register.filter
def decision_time(seconds: int) -> str:
    return _decision_time(int(seconds))
