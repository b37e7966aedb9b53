"""Playing games to their end through the services, fast: random legal commands, no HTTP."""

from __future__ import annotations

import itertools
import random
from typing import Any

from games.eventlog import load_state
from games.models import Game, GameSeat, GameStatus, Table
from games.services.moves import game_command_submit, game_command_submit_for_seat
from games.services.tables import TableSettings, table_add_bot, table_create, table_join, table_start
from harehra import legal_commands

_ids = itertools.count(1)


def start_table(people: list[Any], bots: int = 0, rated: bool = True, **settings: Any) -> Game:
    """A table of `people` (the first hosts) and `bots`, started; its first game."""
    seats = len(people) + bots
    if seats > 4:
        settings.setdefault("packs", ("big-warren",))
    table = table_create(host=people[0], settings=TableSettings(seats=seats, rated=rated, **settings))
    for user in people[1:]:
        table_join(table=table, user=user)
    for _ in range(bots):
        table_add_bot(table=table, user=people[0])
    return table_start(table=table, user=people[0])


def play_out(game: Game, rng: random.Random, max_moves: int = 20000) -> Game:
    """Random legal commands until the game ends: a person's through their command service, a bot's
    (or a seat a bot stands in for) as the bots' tasks send them."""
    users = {s.seat: s.user for s in GameSeat.objects.filter(game=game).select_related("user")}
    for _ in range(max_moves):
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
    raise AssertionError("the game did not end")


def next_game(game: Game) -> Game:
    from games.services.tables import table_next_game

    table = Table.objects.get(pk=game.table_id)
    return table_next_game(table=table, user=table.host)
