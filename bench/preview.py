"""How fast a moment's picture is served (replays/preview.py, replays/images.py): p50 and p95 of
/replays/<id>/image.png cold (never drawn: the SVG built and rendered), warm (drawn before: from
this site's cache) and revalidated (If-None-Match: 304), and the drawing's parts alone.

The game is played in memory by the engine, written to the database inside a transaction, measured
and rolled back: nothing is left behind. The throttle is lifted for the run.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from django.core.cache import cache
from django.db import transaction
from django.test import Client
from rest_framework.throttling import SimpleRateThrottle

from games.frames import build_frames
from replays.preview import preview_svg, render_png
from replays.selectors import game_events, seat_names
from tests.support.stored_games import long_game, store_game


class _Rollback(Exception):
    pass


def _pct(ms: list[float]) -> str:
    ms = sorted(ms)
    p95 = ms[min(len(ms) - 1, round(0.95 * (len(ms) - 1)))]
    return f"p50 {statistics.median(ms):6.1f} ms  p95 {p95:6.1f} ms  (n={len(ms)})"


def run_preview_bench(events_wanted: int, seed: int, count: int, write: Callable[[str], None]) -> None:
    events = long_game(events_wanted, seed)
    write(f"game: {len(events)} events")
    rates = SimpleRateThrottle.THROTTLE_RATES
    SimpleRateThrottle.THROTTLE_RATES = {**rates, "preview": None}
    try:
        with transaction.atomic():
            _measure(events, count, seed, write)
            raise _Rollback
    except _Rollback:
        pass
    finally:
        SimpleRateThrottle.THROTTLE_RATES = rates


def _measure(events: list[dict[str, Any]], count: int, seed: int, write: Callable[[str], None]) -> None:
    game = store_game(events, [f"bench-preview-{i}-{time.time_ns()}" for i in range(4)])
    steps = random.Random(seed).sample(range(len(events)), min(count, len(events)))
    loaded, names = game_events(game), seat_names(game)
    svg_ms, png_ms, cpu_ms, sizes = [], [], [], []
    for step in steps:
        t = time.perf_counter()
        frame = build_frames(loaded, names, "all", step, step)[0]
        svg = preview_svg(frame, names)
        svg_ms.append((time.perf_counter() - t) * 1000)
        t, c = time.perf_counter(), time.process_time()
        sizes.append(len(render_png(svg)))
        png_ms.append((time.perf_counter() - t) * 1000)
        cpu_ms.append((time.process_time() - c) * 1000)
    write(f"fold + SVG markup:        {_pct(svg_ms)}")
    write(f"resvg render + PNG:       {_pct(png_ms)}")
    write(f"  its CPU time:           {_pct(cpu_ms)}")
    write(f"PNG size: median {statistics.median(sizes) / 1024:.0f} KiB, largest {max(sizes) / 1024:.0f} KiB")
    client = Client()
    cache.clear()
    urls = [f"/replays/{game.pk}/image.png?step={s}&perspective=all&lang=en" for s in steps]
    cold, warm, revalidated, etags = [], [], [], []
    for url in urls:
        t = time.perf_counter()
        r = client.get(url)
        cold.append((time.perf_counter() - t) * 1000)
        assert r.status_code == 200, r.status_code
        etags.append(r["ETag"])
    for url, etag in zip(urls, etags, strict=True):
        t = time.perf_counter()
        r = client.get(url)
        warm.append((time.perf_counter() - t) * 1000)
        assert r.status_code == 200
        t = time.perf_counter()
        r = client.get(url, HTTP_IF_NONE_MATCH=etag)
        revalidated.append((time.perf_counter() - t) * 1000)
        assert r.status_code == 304
    write(f"GET image.png cold:       {_pct(cold)}")
    write(f"GET image.png warm:       {_pct(warm)}")
    write(f"GET image.png 304:        {_pct(revalidated)}")
