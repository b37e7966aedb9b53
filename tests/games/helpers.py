"""Driving tables and games through the REST API, as a client program would."""

from __future__ import annotations

import itertools
from typing import Any

from rest_framework.test import APIClient

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
