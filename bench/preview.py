"""How fast a moment's picture is drawn and served, cold, warm and revalidated, and 60-step clips;
on a game written in a transaction that is rolled back."""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from django.core.cache import cache
from django.test import Client
from rest_framework.throttling import SimpleRateThrottle

from bench.kit.stats import percentile
from bench.stored_games import long_game, rolled_back, store_game
from games.frames import build_frames
from replays import preview
from replays.images import CLIP_MAX_STEPS
from replays.preview import preview_png
from replays.selectors import game_events, seat_names


def _pct(ms: list[float]) -> str:
    return f"p50 {statistics.median(ms):6.1f} ms  p95 {percentile(ms, 95):6.1f} ms  (n={len(ms)})"


def run_preview_bench(events_wanted: int, seed: int, count: int, write: Callable[[str], None]) -> None:
    events = long_game(events_wanted, seed)
    write(f"game: {len(events)} events")
    with rolled_back({**SimpleRateThrottle.THROTTLE_RATES, "preview": None, "clip": None}):
        _measure(events, count, seed, write)


def _measure(events: list[dict[str, Any]], count: int, seed: int, write: Callable[[str], None]) -> None:
    game = store_game(events, [f"bench-preview-{i}-{time.time_ns()}" for i in range(4)])
    steps = random.Random(seed).sample(range(len(events)), min(count, len(events)))
    loaded, names = game_events(game), seat_names(game)
    frames = [build_frames(loaded, names, "all", step, step)[0] for step in steps]
    preview._sprite.cache_clear()
    t, c = time.perf_counter(), time.process_time()
    preview_png(frames[0], names)
    write(
        f"first picture of a process (its pieces rendered): {(time.perf_counter() - t) * 1000:.1f} ms, "
        f"CPU {(time.process_time() - c) * 1000:.1f} ms"
    )
    wall, cpu, sizes = [], [], []
    for frame in frames:
        t, c = time.perf_counter(), time.process_time()
        sizes.append(len(preview_png(frame, names)))
        wall.append((time.perf_counter() - t) * 1000)
        cpu.append((time.process_time() - c) * 1000)
    write(f"{'Pillow compose + PNG:':26s}{_pct(wall)}")
    write(f"  its CPU time:           {_pct(cpu)}")
    median, largest = statistics.median(sizes) / 1024, max(sizes) / 1024
    write(f"  PNG size: median {median:.0f} KiB, largest {largest:.0f} KiB")
    urls = [f"/replays/{game.pk}/image.png?step={s}&perspective=all&lang=en" for s in steps]
    _served(urls, write)
    _clips(game.pk, len(events), seed, write)


def _clips(game_id: int, events: int, seed: int, write: Callable[[str], None]) -> None:
    """60-step clips (the most a clip holds) through the view, cold (never made) and warm."""
    starts = random.Random(seed + 1).sample(range(events - CLIP_MAX_STEPS), 8)
    urls = [f"/replays/{game_id}/clip.gif?from={s}&to={s + CLIP_MAX_STEPS - 1}&lang=en" for s in starts]
    client = Client()
    cache.clear()
    cpu: list[float] = []
    cold = _cold(client, urls, [], cpu)
    sizes, warm = [], []
    for url in urls:
        t = time.perf_counter()
        sizes.append(len(client.get(url).content))
        warm.append((time.perf_counter() - t) * 1000)
    write(f"GET clip.gif cold ({CLIP_MAX_STEPS} steps): {_pct(cold)}")
    write(f"  its CPU time:           {_pct(cpu)}")
    write(f"GET clip.gif warm:        {_pct(warm)}")
    median, largest = statistics.median(sizes) / 1024, max(sizes) / 1024
    write(f"  GIF size: median {median:.0f} KiB, largest {largest:.0f} KiB")


def _cold(client: Client, urls: list[str], etags: list[str], cpu: list[float]) -> list[float]:
    cold = []
    for url in urls:
        t, c = time.perf_counter(), time.process_time()
        r = client.get(url)
        cold.append((time.perf_counter() - t) * 1000)
        cpu.append((time.process_time() - c) * 1000)
        assert r.status_code == 200, r.status_code
        etags.append(r["ETag"])
    return cold


def _served(urls: list[str], write: Callable[[str], None]) -> None:
    client = Client()
    cache.clear()
    etags: list[str] = []
    cpu: list[float] = []
    cold = _cold(client, urls, etags, cpu)
    warm, revalidated = [], []
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
    write(f"  its CPU time:           {_pct(cpu)}")
    write(f"GET image.png warm:       {_pct(warm)}")
    write(f"GET image.png 304:        {_pct(revalidated)}")
