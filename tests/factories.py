"""Making tables and games for tests: through the services, or through the REST API as a client
program would. Never behind the log's back: a finished game here is one played to its end.

Through the API (an APIClient per person): `create_table`, `seated_game`, `send`, `play_to_end`.
Through the services (users): `start_table`, `play_out`, `next_game`, `finished_game`; and a game
whose abandoned seat places last: `seat_1_to_the_brink`, then `end_with_seat_1_abandoned`.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Sequence
from typing import Any

from django.db import transaction
from rest_framework.test import APIClient

from bench.stored_games import finished_game as finished_game  # re-exported: the tests' name
from bench.stored_games import play_out as play_out
from bench.stored_games import start_table as start_table
from games.eventlog import load_state
from games.models import Game, GameSeat, GameStatus, Table
from games.services.autoplay import game_bot_move
from games.services.moves import game_command_submit
from games.services.seats import seat_hand_to_bot
from games.services.tables import table_next_game
from harehra import Decision, GameState, legal_commands, step
from tests.support.decks import seeded_decks

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


def next_game(game: Game) -> Game:
    table = Table.objects.get(pk=game.table_id)
    return table_next_game(table=table, user=table.host)


# --- seat 1 abandoned, then out: a game ended by the rules with an abandoned seat placed last -----


def _steer(state: GameState, rng: random.Random) -> dict[str, Any]:
    """A command for the awaited seat that steers a three-seat game to `_at_the_brink`: every
    volley goes at seat 2 until it is out, then at seat 1, by as many Hare Cumi as there are; the
    target takes it, except that seat 0 (and seat 1 when it would be out) evades with Hare Taptap
    when it can; seat 0 heals when hurt; a seat with no such play plays something else (ties, skips
    and discards by `rng`), or, made to play Hare Cumi, plays one."""
    awaiting = state.awaiting
    assert awaiting is not None
    seat, victim = awaiting.seat, (1 if state.is_eliminated(2) else 2)
    legal = legal_commands(state, seat)
    plays = [c for c in legal if "play" in c]
    if awaiting.kind is Decision.VOLLEY:
        assert state.volley is not None
        out = state.damage[seat] + state.volley.count >= state.ruleset.max_damage
        evade = [c for c in legal if c["react"] == "taptap"]
        if evade and (seat != victim or (out and seat == 1)):
            return evade[0]
        return next(c for c in legal if c["react"] == "none")
    if awaiting.kind is not Decision.TURN:
        return rng.choice(legal)
    at_victim = [c for c in plays if c.get("target") == victim]
    if seat != victim and at_victim:
        return at_victim[-1]  # the most Hare Cumi
    if seat == 0 and state.damage[0] and {"seat": 0, "play": ["zada"]} in plays:
        return {"seat": 0, "play": ["zada"]}
    others = [c for c in plays if c["play"][0] != "cumi"]
    if seat == victim:
        others = [c for c in others if c["play"] != ["zada"]] or others
    if others:
        return rng.choice(others)
    if plays:  # Hare Cumi alone: one, at the seat hurt least
        return min(plays, key=lambda c: (state.damage[c["target"]], len(c["play"])))
    return rng.choice(legal)  # a burn


def _at_the_brink(state: GameState) -> bool:
    """Seat 2 is out, and seat 1 must answer a volley from seat 0 that puts it out, holding no
    Hare Taptap: taking it is its only legal answer."""
    awaiting, volley = state.awaiting, state.volley
    return (
        state.is_eliminated(2)
        and not state.is_eliminated(0)
        and awaiting is not None
        and awaiting.seat == 1
        and awaiting.kind is Decision.VOLLEY
        and volley is not None
        and volley.attacker == 0
        and state.damage[1] + volley.count >= state.ruleset.max_damage
        and "taptap" not in state.hands[1]
    )


def _seeded(rng: random.Random) -> Callable[[Sequence[str]], list[str]]:
    """The shuffle `seeded_decks(rng)` makes the services use (tests/support/decks.py)."""

    def shuffle(cards: Sequence[str]) -> list[str]:
        out = list(cards)
        rng.shuffle(out)
        return out

    return shuffle


def seat_1_to_the_brink(game_id: int) -> None:
    """A running game of three people, played on by their own commands to `_at_the_brink`.

    The commands are found first with the rules engine alone (`_steer`, a few tries at most),
    then sent through the command service one by one; reshuffles come from a seeded shuffle
    (`seeded_decks`) in both, so the game goes exactly as found."""
    game = Game.objects.get(pk=game_id)
    users = {s.seat: s.user for s in GameSeat.objects.filter(game=game).select_related("user")}
    assert sorted(users) == [0, 1, 2] and all(u is not None for u in users.values()), users
    start = load_state(game)
    for attempt in range(50):
        state, commands = start, []
        choices, shuffle = random.Random(attempt), _seeded(random.Random(attempt))
        while not state.over and not _at_the_brink(state) and len(commands) < 3000:
            command = _steer(state, choices)
            commands.append(command)
            _, state = step(state, command, shuffle)
        if _at_the_brink(state):
            break
    else:
        raise AssertionError("no way to the brink found")
    with seeded_decks(random.Random(attempt)):
        for command in commands:
            seat = command["seat"]
            body = {k: v for k, v in command.items() if k != "seat"}
            game_command_submit(game=game, user=users[seat], command=body, client_cmd_id=f"b{next(_ids)}")
    assert _at_the_brink(load_state(Game.objects.get(pk=game_id)))


def end_with_seat_1_abandoned(game_id: int) -> None:
    """Seat 1's person leaves while still in the game (a bot takes the seat), and the bot must
    take the volley that puts seat 1 out: seat 0 wins. The game is first played to that point
    (`seat_1_to_the_brink`) unless it is there already. By docs/RULES.md seat 0 is first, seat 2
    second and the abandoned seat 1 last, though it went out after seat 2: places [1, 3, 2]."""
    if not _at_the_brink(load_state(Game.objects.get(pk=game_id))):
        seat_1_to_the_brink(game_id)
    with transaction.atomic():
        assert seat_hand_to_bot(game=Game.objects.get(pk=game_id), seat=1, reason="left")
    game = Game.objects.get(pk=game_id)
    assert legal_commands(load_state(game), 1) == [{"seat": 1, "react": "none"}]
    # The bot's move, as its task makes it (a server's worker may make it first: then this one
    # finds the game moved on and changes nothing).
    game_bot_move(game_id=game_id, guard_seq=game.last_seq)
    game = Game.objects.get(pk=game_id)
    assert game.status == GameStatus.FINISHED and game.winner_seat == 0, (game.status, game.winner_seat)
