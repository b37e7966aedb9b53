"""Moments on pages, shown in each person's own time zone.

`{{ moment|when }}` (or `|when:"date"`) renders `<time datetime="…Z" data-when="datetime">` around
the moment in UTC, said so ("2026-12-07 18:00 UTC"): the text a page shows with no script, and
the same on every server whatever its zone. The page script static/js/core/times.js then rewrites
every such element in the browser's time zone and the page's language, naming the zone ("7 Dec
2026, 19:00 CET"). The server never guesses a person's zone."""

from __future__ import annotations

from datetime import UTC, datetime

from django import template
from django.utils.dateparse import parse_datetime
from django.utils.html import format_html
from django.utils.safestring import SafeString

register = template.Library()

STYLES = ("datetime", "date")


@register.filter
def when(value: datetime | str | None, style: str = "datetime") -> SafeString | str:
    """A moment (an aware datetime, or its ISO text) as a <time> element; "" for None."""
    if style not in STYLES:
        raise template.TemplateSyntaxError(f"when: the style is one of {', '.join(STYLES)}")
    moment = parse_datetime(value) if isinstance(value, str) else value
    if moment is None:
        return ""
    if moment.tzinfo is None:
        raise ValueError("when: a moment must know its zone (USE_TZ)")
    utc = moment.astimezone(UTC)
    text = f"{utc:%Y-%m-%d}" if style == "date" else f"{utc:%Y-%m-%d %H:%M} UTC"
    iso = utc.isoformat(timespec="seconds").replace("+00:00", "Z")
    return format_html('<time datetime="{}" data-when="{}">{}</time>', iso, style, text)
