"""What one request costs, for every endpoint whose cost grows with a game's length or a request's
size (docs/OPERATIONS.md, "What a request costs"): asked through Django's test client on a long
stored game, then rolled back."""

from __future__ import annotations

import json
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.test import Client
from rest_framework.throttling import SimpleRateThrottle

from analysis.services import analysis_run
from bench.kit.stats import percentile
from bench.stored_games import long_game, rolled_back, store_game
from games import eventlog, selectors
from replays.images import CLIP_MAX_STEPS

PASSWORD = "correct-horse-battery"


def run_endpoint_costs(events_wanted: int, seed: int, count: int, write: Callable[[str], None]) -> None:
    events = long_game(events_wanted, seed)
    with rolled_back(dict.fromkeys(SimpleRateThrottle.THROTTLE_RATES)):  # every scope: no limit
        _measure(events, seed, count, write)


def _measure(events: list[dict[str, Any]], seed: int, count: int, write: Callable[[str], None]) -> None:
    from django.contrib.auth import get_user_model

    stamp = time.time_ns()
    game = store_game(events, [f"bench-cost-{i}-{stamp}" for i in range(4)])
    seated = get_user_model().objects.get(username=f"bench-cost-0-{stamp}")
    seated.set_password(PASSWORD)
    seated.save()
    analysis_run(game.pk, playouts=2)  # the stored body's size does not depend on the budget
    document = Client().get(f"/api/replays/{game.pk}/export/").content
    write(
        f"game: {len(events)} events, 4 seats; export document {len(document) / 1024:.0f} KiB; "
        f"{count} requests each; password hasher {settings.PASSWORD_HASHERS[0].rsplit('.', 1)[-1]}"
    )
    anyone, player = Client(), Client()
    player.force_login(seated)
    rng = random.Random(seed)
    flip = [PASSWORD, PASSWORD + "-2"]
    g = game.pk
    steps = len(events)

    def clip() -> str:
        start = rng.randrange(steps - CLIP_MAX_STEPS)
        return f"/replays/{g}/clip.gif?from={start}&to={start + CLIP_MAX_STEPS - 1}&lang=en"

    cases: list[tuple[str, Callable[[], Any]]] = [
        (
            "POST /api/replays/import/",
            lambda: anyone.post("/api/replays/import/", document, "application/json"),
        ),
        ("GET /api/replays/<ref>/frames/", lambda: anyone.get(f"/api/replays/{g}/frames/")),
        ("GET /replays/<ref>/", lambda: anyone.get(f"/replays/{g}/")),
        ("GET /embed/replays/<ref>/", lambda: anyone.get(f"/embed/replays/{g}/")),
        ("GET /watch/<id>/", lambda: anyone.get(f"/watch/{g}/")),
        ("GET /api/replays/<ref>/export/", lambda: anyone.get(f"/api/replays/{g}/export/")),
        ("GET /api/replays/<ref>/analysis/", lambda: anyone.get(f"/api/replays/{g}/analysis/")),
        ("GET /api/games/<id>/events/?after=0", lambda: player.get(f"/api/games/{g}/events/?after=0")),
        (
            "GET /replays/<ref>/image.png (cold)",
            lambda: _cold(anyone, f"/replays/{g}/image.png?step={rng.randrange(steps)}&lang=en"),
        ),
        ("GET /replays/<ref>/clip.gif (cold, 60 steps)", lambda: _cold(anyone, clip())),
        (
            "POST /api/accounts/token/ (one password hashed)",
            lambda: Client().post(
                "/api/accounts/token/",
                json.dumps({"username": seated.username, "password": PASSWORD}),
                "application/json",
            ),
        ),
        ("POST /api/accounts/password/ (two hashed)", lambda: _password(player, flip)),
        ("GET /watch/<id>/image.png (cold)", lambda: _cold(anyone, f"/watch/{g}/image.png?lang=en")),
        # The cheap ones, for scale: a few rows, or a state kept in memory.
        ("GET /api/games/<id>/ (seated)", lambda: player.get(f"/api/games/{g}/")),
        ("GET /api/games/<id>/ (seated, no cache)", lambda: _uncached(player, f"/api/games/{g}/")),
        ("GET /api/replays/<ref>/", lambda: anyone.get(f"/api/replays/{g}/")),
        ("GET /api/tables/<id>/games/", lambda: player.get(f"/api/tables/{game.table_id}/games/")),
        ("GET /api/schema/", lambda: anyone.get("/api/schema/")),
    ]
    write(f"{'endpoint':48s} {'p50 ms':>8s} {'p95 ms':>8s} {'CPU p50':>8s} {'answer':>9s}")
    for label, ask in cases:
        ask()  # once first: the process's caches (a compiled template, a state) as a server has them
        wall, cpu, size = [], [], 0
        for _ in range(count):
            t, c = time.perf_counter(), time.process_time()
            r = ask()
            wall.append((time.perf_counter() - t) * 1000)
            cpu.append((time.process_time() - c) * 1000)
            assert r.status_code in (200, 204), (label, r.status_code, r.content[:200])
            size = len(r.content)
        write(
            f"{label:48s} {statistics.median(wall):8.1f} {percentile(wall, 95):8.1f} "
            f"{statistics.median(cpu):8.1f} {size / 1024:7.0f} KiB"
        )


def _password(client: Client, flip: list[str]) -> Any:
    """A password change and back again next time (the old one checked, the new one hashed)."""
    old, new = flip
    flip.reverse()
    return client.post(
        "/api/accounts/password/",
        json.dumps({"old_password": old, "new_password": new}),
        "application/json",
    )


def _uncached(client: Client, url: str) -> Any:
    """As a server process that has not read the game yet: its state from the snapshot and the
    events after it, a finished game's places from its log."""
    eventlog.forget_states()
    selectors._PLACES.clear()
    return client.get(url)


def _cold(client: Client, url: str) -> Any:
    cache.clear()  # drawn afresh: the site's cache of pictures emptied
    return client.get(url)
