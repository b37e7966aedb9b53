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
