"""Slow tables for tests, made through the services: a table set to the slow pace (a decision a
day by default) before its first game, so that every deadline is stamped at that pace."""

from __future__ import annotations

import itertools
from datetime import timedelta
from typing import Any

from games.eventlog import load_state
from games.models import Game, GameSeat, Pace, Table
from games.services.moves import game_command_submit, game_command_submit_for_seat
from games.services.tables import TableSettings, table_add_bot, table_create, table_join, table_start
from harehra import legal_commands
from plumbing import clock

DAY = 86400
_ids = itertools.count(1)


def slow_table(
    people: list[Any], bots: int = 0, seconds: int = DAY, pace: str = Pace.SLOW, open_seats: int = 0
) -> Table:
    """A table of `people` (the first hosts), `bots` and `open_seats`, at `pace` with `seconds` a
    decision, not started."""
    seats = len(people) + bots + open_seats
    table = table_create(host=people[0], settings=TableSettings(seats=seats, rated=False))
    Table.objects.filter(pk=table.pk).update(
        pace=pace, turn_timer=seconds, reaction_timer=seconds, discard_timer=seconds
    )
    table.refresh_from_db()
    for user in people[1:]:
        table_join(table=table, user=user, invite_code=table.invite_code)
    for _ in range(bots):
        table_add_bot(table=table, user=people[0])
    return table


def slow_game(people: list[Any], bots: int = 0, seconds: int = DAY, pace: str = Pace.SLOW) -> Game:
    table = slow_table(people, bots, seconds, pace)
    return table_start(table=table, user=people[0])


def awaiting_user(game: Game) -> int | None:
    game = Game.objects.get(pk=game.pk)
    return (
        GameSeat.objects.filter(game=game, seat=game.awaiting_seat).values_list("user_id", flat=True).first()
    )


def play_until_awaits(game: Game, user: Any, moves: int = 200, waits: bool = False) -> Game:
    """The people of the game play legal commands (the last each is offered: no volleys at first)
    until `user` is awaited; with `waits`, by a decision that waits for them (not a reaction with
    no possible answer, declined within seconds: moves.py _with_deadline)."""
    users = {s.seat: s.user for s in GameSeat.objects.filter(game=game).select_related("user")}
    for _ in range(moves):
        game = Game.objects.get(pk=game.pk)
        if users.get(game.awaiting_seat) == user and (
            not waits or game.deadline_at - clock.now() > timedelta(minutes=1)
        ):
            return game
        state = load_state(game)
        seat = state.awaiting.seat  # type: ignore[union-attr]
        command = {k: v for k, v in legal_commands(state, seat)[-1].items() if k != "seat"}
        if users.get(seat) is None:  # a bot's seat: as its task would
            game_command_submit_for_seat(game=game, seat=seat, command=command, guard_seq=game.last_seq)
        else:
            game_command_submit(game=game, user=users[seat], command=command, client_cmd_id=f"s{next(_ids)}")
    raise AssertionError(f"{user} was never awaited")
