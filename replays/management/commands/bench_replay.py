"""How fast a long game's replay opens: prints figures for a game of at least --events events.

The game is played in memory by the engine, written to the database inside a transaction, measured
(the frames, the viewer page and the frames API) and rolled back: nothing is left behind.
"""

from __future__ import annotations

import json
import random
import time
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction
from django.test import Client

from games.engine import legal_commands, make_ruleset, replay, start_game, step
from games.models import Game, GameSeat, Seat, Table
from games.services.append import game_append
from replays.access import ALL
from replays.selectors import build_frames, game_events, seat_names


def long_game(min_events: int, seed: int) -> list[dict[str, Any]]:
    for attempt in range(200):
        rng = random.Random(seed + attempt)

        def shuffle(cards: Any, rng: random.Random = rng) -> list[str]:
            out = list(cards)
            rng.shuffle(out)
            return out

        events = start_game(make_ruleset(), 4, 0, shuffle)
        state = replay(events)
        while not state.over:
            seat = state.awaiting.seat
            legal = legal_commands(state, seat)
            # Shy players make long games: avoid volleys when anything else is possible.
            quiet = [c for c in legal if "cumi" not in c.get("play", [])] or legal
            new, state = step(state, rng.choice(quiet if rng.random() < 0.8 else legal), shuffle)
            events.extend(new)
        if len(events) >= min_events:
            return events
    raise RuntimeError("no game long enough")


def store_game(events: list[dict[str, Any]], usernames: list[str], replay_access: str = "public") -> Game:
    """Write a finished game played elsewhere (tests and this benchmark): users, table, seats, log."""
    User = get_user_model()
    users = [User.objects.create(username=name) for name in usernames]
    state = replay(events)
    table = Table.objects.create(host=users[0], seats=len(users), replay_access=replay_access)
    Seat.objects.bulk_create([Seat(table=table, number=i, user=u) for i, u in enumerate(users)])
    with transaction.atomic():
        game = Game.objects.create(table=table, number=1, players=len(users), shuffler=state.shuffler)
        GameSeat.objects.bulk_create([GameSeat(game=game, seat=i, user=u) for i, u in enumerate(users)])
        game.table = table
        game_append(game, [dict(e) for e in events], before=None, after=state, actor_id=None, bot_seats=())
    return game


class Rollback(Exception):
    pass


class Command(BaseCommand):
    help = "Measure how fast a long replay opens (nothing is stored)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--events", type=int, default=1000)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--repeat", type=int, default=5)

    def handle(self, *args: Any, **opts: Any) -> None:
        t = time.perf_counter()
        events = long_game(opts["events"], opts["seed"])
        self.stdout.write(f"game: {len(events)} events, played in {time.perf_counter() - t:.2f}s")
        try:
            with transaction.atomic():
                self.measure(events, opts["repeat"])
                raise Rollback
        except Rollback:
            pass

    def measure(self, events: list[dict[str, Any]], repeat: int) -> None:
        game = store_game(events, [f"bench-replay-{i}-{time.time_ns()}" for i in range(4)])

        def best(fn: Any) -> tuple[float, Any]:
            times, out = [], None
            for _ in range(repeat):
                t = time.perf_counter()
                out = fn()
                times.append(time.perf_counter() - t)
            return min(times) * 1000, out

        ms, loaded = best(lambda: game_events(game))
        self.stdout.write(f"load events from the database: {ms:7.1f} ms")
        names = seat_names(game)
        for label, perspective in (("all", ALL), ("seat:0", 0), ("spectator", None)):
            ms, frames = best(lambda p=perspective: build_frames(loaded, names, p))
            size = len(json.dumps(frames, separators=(",", ":")))
            self.stdout.write(f"build frames ({label:9}):      {ms:7.1f} ms  ({size / 1024:.0f} KiB as JSON)")
        client = Client()
        ms, page = best(lambda: client.get(f"/replays/{game.pk}/"))
        assert page.status_code == 200, page.status_code
        self.stdout.write(
            f"viewer page (frames inline):   {ms:7.1f} ms  ({len(page.content) / 1024:.0f} KiB)"
        )
        ms, api = best(lambda: client.get(f"/api/replays/{game.pk}/frames/?perspective=all"))
        assert api.status_code == 200, api.status_code
        self.stdout.write(f"frames API (all):              {ms:7.1f} ms  ({len(api.content) / 1024:.0f} KiB)")
        self.stdout.write(
            "the browser then parses the JSON and draws the log and chart once (see the browser test)"
        )
