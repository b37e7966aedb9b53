"""Making tables and games for tests: through the services, or through the REST API as a client
program would. Never behind the log's back: a finished game here is one played to its end.

Through the API (an APIClient per person): `create_table`, `seated_game`, `send`, `play_to_end`.
Through the services (users): `start_table`, `play_out`, `next_game`, `finished_game`.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

from rest_framework.test import APIClient

from games.eventlog import load_state
from games.models import Game, GameSeat, GameStatus, Table
from games.services.moves import game_command_submit, game_command_submit_for_seat
from games.services.tables import (
    TableSettings,
    table_add_bot,
    table_create,
    table_join,
    table_next_game,
    table_start,
)
from harehra import legal_commands

# --- through the REST API ------------------------------------------------------------------------

_cmd_ids = itertools.count(1)


def create_table(client: APIClient, **settings: Any) -> dict[str, Any]:
    r = client.post("/api/tables/", settings, format="json")
    assert r.status_code == 201, r.content
    return r.json()


def post(client: APIClient, url: str, data: dict[str, Any] | None = None) -> Any:
    return client.post(url, data or {}, format="json")


def seated_game(clients: list[APIClient], **settings: Any) -> int:
    """A table with one seat per client (the first hosts), started; returns the game id."""
    table = create_table(clients[0], seats=len(clients), **settings)
    for c in clients[1:]:
        r = post(c, f"/api/tables/{table['id']}/join/", {"invite_code": table["invite_code"]})
        assert r.status_code == 200, r.content
    r = post(clients[0], f"/api/tables/{table['id']}/start/")
    assert r.status_code == 200, r.content
    return r.json()["current_game"]


def send(client: APIClient, game_id: int, command: dict[str, Any], **extra: Any) -> Any:
    body = {"client_cmd_id": f"c{next(_cmd_ids)}", **command, **extra}
    return client.post(f"/api/games/{game_id}/commands/", body, format="json")


def play_to_end(clients_by_seat: dict[int, APIClient], game_id: int, max_moves: int = 5000) -> list[Any]:
    """Each awaited seat plays its first legal command until the game ends; returns every response."""
    responses: list[Any] = []
    any_client = next(iter(clients_by_seat.values()))
    for _ in range(max_moves):
        state = any_client.get(f"/api/games/{game_id}/").json()
        responses.append(state)
        if state["view"]["over"]:
            return responses
        seat = state["view"]["awaiting"]["seat"]
        client = clients_by_seat[seat]
        mine = client.get(f"/api/games/{game_id}/").json()
        responses.append(mine)
        command = {k: v for k, v in mine["legal"][-1].items() if k != "seat"}
        r = send(client, game_id, command)
        assert r.status_code == 200, r.content
        responses.append(r.json())
    raise AssertionError("the game did not end")


# --- through the services ------------------------------------------------------------------------

_ids = itertools.count(1)


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


def next_game(game: Game) -> Game:
    table = Table.objects.get(pk=game.table_id)
    return table_next_game(table=table, user=table.host)


def finished_game(people: list[Any], bots: int = 0, seed: int = 1, **settings: Any) -> Game:
    """A table's first game, played to its end by random legal commands."""
    return play_out(start_table(people, bots, **settings), random.Random(seed))


def end_with_seat_1_abandoned(game_id: int) -> None:
    """Seat 1's person leaves (a bot plays on for them), then the game (of three) ends at the turn
    limit with seats 0 and 1 left (R14), seat 2 out: by docs/RULES.md seat 0 is first, seat 2
    second and the abandoned seat 1 last, though it was still in at the end: places [1, 3, 2]."""
    from django.db import transaction

    from games.eventlog import load_state
    from games.models import Game
    from games.services.moves import game_append, game_lock
    from games.services.seats import seat_hand_to_bot
    from harehra import apply

    with transaction.atomic():
        assert seat_hand_to_bot(game=Game.objects.get(pk=game_id), seat=1, reason="left")
    with transaction.atomic():
        game = game_lock(game_id)
        state = load_state(game)
        out = {"type": "PlayerEliminated", "version": 1, "seat": 2, "cards": list(state.hands[2])}
        draw = {"type": "GameEnded", "version": 1, "result": "draw", "winner": None, "survivors": [0, 1]}
        after = apply(apply(state, out), draw)
        assert after.over
        game_append(game, [out, draw], before=state, after=after, actor_id=None)
