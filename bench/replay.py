"""How fast a long game's replay opens, on a game written in a transaction that is rolled back."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

from django.test import Client

from bench.stored_games import long_game, rolled_back, store_game
from games.frames import build_frames
from replays.access import ALL
from replays.selectors import game_events, seat_names


def run_replay_bench(events_wanted: int, seed: int, repeat: int, write: Callable[[str], None]) -> None:
    t = time.perf_counter()
    events = long_game(events_wanted, seed)
    write(f"game: {len(events)} events, played in {time.perf_counter() - t:.2f}s")
    with rolled_back():
        _measure(events, repeat, write)


def _measure(events: list[dict[str, Any]], repeat: int, write: Callable[[str], None]) -> None:
    game = store_game(events, [f"bench-replay-{i}-{time.time_ns()}" for i in range(4)])

    def best(fn: Any) -> tuple[float, Any]:
        times, out = [], None
        for _ in range(repeat):
            t = time.perf_counter()
            out = fn()
            times.append(time.perf_counter() - t)
        return min(times) * 1000, out

    ms, loaded = best(lambda: game_events(game))
    write(f"load events from the database: {ms:7.1f} ms")
    names = seat_names(game)
    for label, perspective in (("all", ALL), ("seat:0", 0), ("spectator", None)):
        ms, frames = best(lambda p=perspective: build_frames(loaded, names, p))
        size = len(json.dumps(frames, separators=(",", ":")))
        write(f"build frames ({label:9}):      {ms:7.1f} ms  ({size / 1024:.0f} KiB as JSON)")
    client = Client()
    ms, page = best(lambda: client.get(f"/replays/{game.pk}/"))
    assert page.status_code == 200, page.status_code
    write(f"viewer page (frames inline):   {ms:7.1f} ms  ({len(page.content) / 1024:.0f} KiB)")
    ms, api = best(lambda: client.get(f"/api/replays/{game.pk}/frames/?perspective=all"))
    assert api.status_code == 200, api.status_code
    write(f"frames API (all):              {ms:7.1f} ms  ({len(api.content) / 1024:.0f} KiB)")
    write("the browser then parses the JSON and draws the log and chart once (see the browser test)")
