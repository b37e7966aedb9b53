"""Games for tests and benchmarks: played through the services (`start_table`, `play_out`,
`finished_game`), or finished elsewhere and written straight to the database (`store_game`)."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from rest_framework.throttling import SimpleRateThrottle

from games.eventlog import load_state
from games.models import Game, GameSeat, GameStatus, Seat, Table
from games.services.moves import game_append, game_command_submit, game_command_submit_for_seat
from games.services.tables import TableSettings, table_add_bot, table_create, table_join, table_start
from harehra import legal_commands, make_ruleset, replay, start_game, step

_ids = itertools.count(1)


class _Rollback(Exception):
    pass


@contextmanager
def rolled_back(throttle_rates: dict[str, Any] | None = None) -> Iterator[None]:
    """What is written inside is rolled back at the end; with `throttle_rates` the throttles'
    rates meanwhile (None: no limit)."""
    rates = SimpleRateThrottle.THROTTLE_RATES
    SimpleRateThrottle.THROTTLE_RATES = throttle_rates or rates
    try:
        with transaction.atomic():
            yield
            raise _Rollback
    except _Rollback:
        pass
    finally:
        SimpleRateThrottle.THROTTLE_RATES = rates


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


def start_table(people: list[Any], bots: int = 0, rated: bool = True, **settings: Any) -> Game:
    """A table of `people` (the first hosts) and `bots`, started; its first game."""
    seats = len(people) + bots
    if seats > 4:
        settings.setdefault("packs", ("big-warren",))
    table = table_create(host=people[0], settings=TableSettings(seats=seats, rated=rated, **settings))
    for user in people[1:]:
        table_join(table=table, user=user, invite_code=table.invite_code)
    for _ in range(bots):
        table_add_bot(table=table, user=people[0])
    return table_start(table=table, user=people[0])


def play_out(game: Game, rng: random.Random, max_moves: int = 20000, moves: int | None = None) -> Game:
    """Random legal commands until the game ends (or, with `moves`, for that many moves): a
    person's through their command service, a bot's (or a seat a bot stands in for) as the bots'
    tasks send them."""
    users = {s.seat: s.user for s in GameSeat.objects.filter(game=game).select_related("user")}
    for _ in range(max_moves if moves is None else moves):
        game = Game.objects.get(pk=game.pk)
        if game.status != GameStatus.RUNNING:
            return game
        state = load_state(game)
        assert state.awaiting is not None
        seat = state.awaiting.seat
        command = {k: v for k, v in rng.choice(legal_commands(state, seat)).items() if k != "seat"}
        if GameSeat.objects.filter(game=game, seat=seat, bot_playing=True).exists():
            game_command_submit_for_seat(game=game, seat=seat, command=command, guard_seq=game.last_seq)
        else:
            game_command_submit(game=game, user=users[seat], command=command, client_cmd_id=f"r{next(_ids)}")
    if moves is None:
        raise AssertionError("the game did not end")
    return Game.objects.get(pk=game.pk)


def finished_game(people: list[Any], bots: int = 0, seed: int = 1, **settings: Any) -> Game:
    """A table's first game, played to its end by random legal commands."""
    game = play_out(start_table(people, bots, **settings), random.Random(seed))
    assert game.status == GameStatus.FINISHED
    return game
