"""Every URL is throttled, or listed as cheap whatever the game's length or the request's size
(harehra_site/endpoint_costs.py); every throttled one has its row, with its measured cost and its
limit, in docs/OPERATIONS.md ("What a request costs")."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from django.urls import URLPattern, URLResolver, get_resolver

from harehra_site.endpoint_costs import CHEAP, STAFF_ONLY_PREFIX

OPERATIONS = Path(__file__).resolve().parents[2] / "docs" / "OPERATIONS.md"


def _routes(patterns: list[Any], prefix: str = "") -> Iterator[tuple[str, Any]]:
    for p in patterns:
        if isinstance(p, URLResolver):
            yield from _routes(p.url_patterns, prefix + str(p.pattern))
        elif isinstance(p, URLPattern):
            yield prefix + str(p.pattern), p.callback


def _throttles(view: Any) -> list[Any]:
    """An API view's throttle classes (DRF's as_view keeps the class, and initkwargs given to
    as_view), else those a Django class-based view's class or a plain view names."""
    cls = getattr(view, "cls", None)
    if cls is not None:
        return list(getattr(view, "initkwargs", {}).get("throttle_classes", cls.throttle_classes))
    view_class = getattr(view, "view_class", None)
    return list(getattr(view_class or view, "throttle_classes", []))


def _section() -> str:
    text = OPERATIONS.read_text()
    start = text.index("## What a request costs")
    end = text.find("\n## ", start + 1)
    return text[start : end if end != -1 else None]


def test_every_url_is_throttled_or_listed_as_cheap() -> None:
    routes = list(_routes(get_resolver().url_patterns))
    neither = [
        route
        for route, view in routes
        if not _throttles(view) and route not in CHEAP and not route.startswith(STAFF_ONLY_PREFIX)
    ]
    assert neither == [], f"neither throttled nor listed in harehra_site/endpoint_costs.py: {neither}"
    stale = set(CHEAP) - {route for route, _ in routes}
    assert not stale, f"listed as cheap but no such URL: {stale}"
    both = [route for route, view in routes if route in CHEAP and _throttles(view)]
    assert both == [], f"throttled, so its row belongs in docs/OPERATIONS.md, not the cheap list: {both}"


def test_every_throttled_url_has_its_row_with_its_cost_and_limit() -> None:
    section = _section()
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    missing = []
    for route, view in _routes(get_resolver().url_patterns):
        if not _throttles(view) or route.startswith(STAFF_ONLY_PREFIX):
            continue
        row = next((r for r in rows if f"/{route}`" in r.split("|")[1]), None)
        if row is None:
            missing.append(route)
            continue
        scopes = [t.scope for t in _throttles(view)]
        assert all(f"`{s}`" in row or s.upper() in row for s in scopes), (route, scopes, row)
    assert missing == [], f"throttled, but no row in docs/OPERATIONS.md's cost table: {missing}"
