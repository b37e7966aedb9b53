"""Finished games written straight to the database, for tests and benchmarks."""

from __future__ import annotations

import random
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction

from games.models import Game, GameSeat, Seat, Table
from games.services.moves import game_append
from harehra import legal_commands, make_ruleset, replay, start_game, step


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
    users = [User.objects.get_or_create(username=name)[0] for name in usernames]
    state = replay(events)
    table = Table.objects.create(host=users[0], seats=len(users), replay_access=replay_access)
    Seat.objects.bulk_create([Seat(table=table, number=i, user=u) for i, u in enumerate(users)])
    with transaction.atomic():
        game = Game.objects.create(table=table, number=1, players=len(users), shuffler=state.shuffler)
        GameSeat.objects.bulk_create([GameSeat(game=game, seat=i, user=u) for i, u in enumerate(users)])
        game.table = table
        game_append(game, [dict(e) for e in events], before=None, after=state, actor_id=None, bot_seats=())
    return game
