"""The rating history as an SVG line chart, drawn on the server (no script needed)."""

from __future__ import annotations

from typing import Any

WIDTH, HEIGHT, PAD = 600, 200, 30


def rating_chart(history: list[dict[str, Any]], start: int = 1000) -> dict[str, Any] | None:
    """Points and axis labels for `history` (oldest first), starting from `start`; None if empty."""
    if not history:
        return None
    values = [history[0].get("before", start)] + [h["rating"] for h in history]
    low, high = min(values), max(values)
    if high - low < 20:
        low, high = low - 10, high + 10
    span_x = max(1, len(values) - 1)

    def x(i: int) -> float:
        return round(PAD + (WIDTH - 2 * PAD) * i / span_x, 1)

    def y(v: float) -> float:
        return round(HEIGHT - PAD - (HEIGHT - 2 * PAD) * (v - low) / (high - low), 1)

    points = [(x(i), y(v)) for i, v in enumerate(values)]
    return {
        "width": WIDTH,
        "height": HEIGHT,
        "points": " ".join(f"{px},{py}" for px, py in points),
        "dots": [
            {"x": px, "y": py, "rating": v, "game": history[i - 1]["game"] if i else None}
            for i, ((px, py), v) in enumerate(zip(points, values, strict=True))
        ],
        "high": high,
        "low": low,
        "y_high": y(high),
        "y_low": y(low),
        "left": PAD,
        "right": WIDTH - PAD,
        "games": len(history),
    }
