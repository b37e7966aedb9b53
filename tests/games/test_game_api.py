"""A whole game through the REST API, and the command service's guarantees."""

from __future__ import annotations

import json

import pytest

from games.eventlog import fold_from_log, load_state
from games.models import Game, GameEvent
from tests.factories import play_to_end, post, seated_game, send

pytestmark = pytest.mark.django_db


@pytest.fixture
def three(make_user, client_for):
    users = [make_user() for _ in range(3)]
    return users, [client_for(u) for u in users]


def _seats(game_id, users, clients):
    game = Game.objects.get(pk=game_id)
    by_user = {gs.user_id: gs.seat for gs in game.game_seats.all()}
    return {by_user[u.pk]: c for u, c in zip(users, clients, strict=True)}


def test_three_users_play_a_whole_game_to_its_end(three):
    users, clients = three
    game_id = seated_game(clients)
    play_to_end(_seats(game_id, users, clients), game_id)
    game = Game.objects.get(pk=game_id)
    assert game.status == "finished"
    final = clients[0].get(f"/api/games/{game_id}/").json()
    assert final["view"]["over"] is True
    assert final["seq"] == game.last_seq == GameEvent.objects.filter(game=game).count()
    assert list(GameEvent.objects.filter(game=game).values_list("seq", flat=True)) == list(
        range(1, game.last_seq + 1)
    )
    assert fold_from_log(game) == load_state(game)
    if game.result == "win":
        assert final["view"]["winner"] == game.winner_seat
    table = clients[0].get(f"/api/tables/{game.table_id}/").json()
    assert table["status"] == "between"
    me = clients[0].get("/api/accounts/me/").json()
    assert me["stats"]["played"] == 1 and me["games"][0]["id"] == game_id


def test_next_game_passes_the_shuffler_clockwise(three):
    users, clients = three
    game_id = seated_game(clients)
    first = Game.objects.get(pk=game_id)
    r = post(clients[1], f"/api/tables/{first.table_id}/next-game/")
    assert r.status_code == 409 and r.json()["code"] == "game_running"
    play_to_end(_seats(game_id, users, clients), game_id)
    r = post(clients[1], f"/api/tables/{first.table_id}/next-game/")
    assert r.status_code == 200, r.content
    second = Game.objects.get(pk=r.json()["current_game"])
    assert second.number == 2 and second.shuffler == (first.shuffler + 1) % 3


def test_resending_a_command_id_returns_the_first_outcome_and_writes_nothing(three):
    users, clients = three
    game_id = seated_game(clients)
    seats = _seats(game_id, users, clients)
    state = clients[0].get(f"/api/games/{game_id}/").json()
    seat = state["view"]["awaiting"]["seat"]
    mine = seats[seat].get(f"/api/games/{game_id}/").json()
    command = {k: v for k, v in mine["legal"][0].items() if k != "seat"}
    body = {"client_cmd_id": "same-id", **command}
    first = seats[seat].post(f"/api/games/{game_id}/commands/", body, format="json")
    assert first.status_code == 200 and first.json()["duplicate"] is False
    count = GameEvent.objects.filter(game_id=game_id).count()
    again = seats[seat].post(f"/api/games/{game_id}/commands/", body, format="json")
    assert again.status_code == 200 and again.json()["duplicate"] is True
    assert again.json()["events"] == first.json()["events"]
    assert GameEvent.objects.filter(game_id=game_id).count() == count


def test_expected_seq_makes_a_command_stale(three):
    users, clients = three
    game_id = seated_game(clients)
    seats = _seats(game_id, users, clients)
    view = clients[0].get(f"/api/games/{game_id}/").json()
    seat = view["view"]["awaiting"]["seat"]
    mine = seats[seat].get(f"/api/games/{game_id}/").json()
    command = {k: v for k, v in mine["legal"][0].items() if k != "seat"}
    r = send(seats[seat], game_id, command, expected_seq=view["seq"] - 1)
    assert r.status_code == 409 and r.json()["code"] == "stale"
    assert GameEvent.objects.filter(game_id=game_id).count() == view["seq"]
    r = send(seats[seat], game_id, command, expected_seq=view["seq"])
    assert r.status_code == 200


def test_authorization_stranger_wrong_seat_and_spectator(three, make_user, client_for):
    users, clients = three
    game_id = seated_game(clients)
    seats = _seats(game_id, users, clients)
    view = clients[0].get(f"/api/games/{game_id}/").json()
    awaited = view["view"]["awaiting"]["seat"]
    other = next(s for s in seats if s != awaited)
    r = send(seats[other], game_id, {"play": ["house"]})
    assert r.status_code == 409 and r.json()["code"] == "not_your_turn"
    stranger = client_for(make_user())
    r = send(stranger, game_id, {"play": ["house"]})
    assert r.status_code == 403 and r.json()["code"] == "not_seated"
    spectator = stranger.get(f"/api/games/{game_id}/").json()
    assert spectator["view"]["hand"] is None and spectator["legal"] == []
    from rest_framework.test import APIClient

    anonymous = APIClient()
    r = send(anonymous, game_id, {"play": ["house"]})
    assert r.status_code == 401 and r.json()["code"] == "not_authenticated"


def test_bad_input_gets_a_code_never_a_500(three):
    users, clients = three
    game_id = seated_game(clients)
    seats = _seats(game_id, users, clients)
    awaited = clients[0].get(f"/api/games/{game_id}/").json()["view"]["awaiting"]["seat"]
    c = seats[awaited]
    before = GameEvent.objects.filter(game_id=game_id).count()
    bad_bodies = [
        {"client_cmd_id": "x1"},
        {"client_cmd_id": "x2", "play": "cumi"},
        {"client_cmd_id": "x3", "play": ["dragon"]},
        {"client_cmd_id": "x4", "play": ["cumi"], "target": "nobody"},
        {"client_cmd_id": "", "play": ["house"]},
        {"client_cmd_id": "x5", "react": "maybe"},
        {"client_cmd_id": "x6", "play": [], "burn": None},
        {"client_cmd_id": ["x7"], "burn": None},
        {"client_cmd_id": "x8", "play": ["cumi"], "expected_seq": "soon"},
    ]
    for body in bad_bodies:
        r = c.post(f"/api/games/{game_id}/commands/", body, format="json")
        assert r.status_code == 400, (body, r.content)
        assert r.json()["code"] == "bad_command"
    r = c.post(f"/api/games/{game_id}/commands/", "[1, 2]", content_type="application/json")
    assert r.status_code == 400
    r = c.post(f"/api/games/{game_id}/commands/", "{not json", content_type="application/json")
    assert r.status_code == 400 and "code" in r.json()
    assert c.get(f"/api/games/{game_id}/events/?after=abc").status_code == 400
    assert c.get("/api/games/999999/").status_code == 404
    assert GameEvent.objects.filter(game_id=game_id).count() == before


def test_no_hidden_card_in_any_response_over_a_whole_game(three, make_user, client_for):
    """Capture everything each seat and a spectator receive; nothing hidden from them may appear."""
    users, clients = three
    game_id = seated_game(clients)
    seats = _seats(game_id, users, clients)
    spectator = client_for(make_user())
    captured: dict[object, list[str]] = {s: [] for s in seats}
    captured[None] = []
    game = Game.objects.get(pk=game_id)
    for _ in range(2000):
        for seat, c in [*seats.items(), (None, spectator)]:
            for url in (f"/api/games/{game_id}/", f"/api/games/{game_id}/events/?after=0"):
                captured[seat].append(c.get(url).content.decode())
        view = spectator.get(f"/api/games/{game_id}/").json()["view"]
        if view["over"]:
            break
        seat = view["awaiting"]["seat"]
        mine = seats[seat].get(f"/api/games/{game_id}/").json()
        command = {k: v for k, v in mine["legal"][-1].items() if k != "seat"}
        r = send(seats[seat], game_id, command)
        captured[seat].append(r.content.decode())
        assert r.status_code == 200
    assert game.pk == game_id
    for seat, bodies in captured.items():
        for body in bodies:
            data = json.loads(body)
            for text in _card_lists(data):
                # A list of 6+ cards can only be a hand dump or a pile: never allowed to a viewer.
                assert len(text) <= 5, (seat, text)
            _assert_no_foreign_draws(data, seat)


def _card_lists(data):
    cards = {"right", "left", "house", "strom", "cumi", "taptap", "zada", "mini"}
    if isinstance(data, list):
        if data and all(isinstance(x, str) and x in cards for x in data):
            yield data
        for x in data:
            yield from _card_lists(x)
    elif isinstance(data, dict):
        for k, v in data.items():
            # A view's discard pile is public: every card in it was played face up. The simulator's
            # view check (harehra/simulation.py) makes sure it is the pile and nothing else.
            if k != "discard_pile":
                yield from _card_lists(v)


def _assert_no_foreign_draws(data, seat):
    """No event carries cards drawn by another seat, a reshuffled order, or another seat's hand."""
    if isinstance(data, dict):
        if data.get("type") == "CardsDrawn" and data.get("seat") != seat:
            assert "cards" not in data, data
        if data.get("type") == "DrawPileReshuffled":
            assert "cards" not in data, data
        if data.get("type") == "GameStarted":
            assert "hands" not in data and "draw_pile" not in data, data
        if "view" in data and isinstance(data["view"], dict):
            assert data["view"]["seat"] == seat
        for v in data.values():
            _assert_no_foreign_draws(v, seat)
    elif isinstance(data, list):
        for v in data:
            _assert_no_foreign_draws(v, seat)


@pytest.mark.parametrize("replay_access", ["players", "link"])
def test_a_finished_games_log_follows_its_replay_access(three, make_user, client_for, replay_access):
    users, clients = three
    game_id = seated_game(clients, replay_access=replay_access)
    play_to_end(_seats(game_id, users, clients), game_id)
    stranger = client_for(make_user())
    for url in (f"/api/games/{game_id}/", f"/api/games/{game_id}/events/?after=0"):
        assert stranger.get(url).status_code == 404
        assert clients[1].get(url).status_code == 200


def test_a_hidden_replay_hides_the_finished_games_log(three, make_user, client_for):
    users, clients = three
    game_id = seated_game(clients)
    play_to_end(_seats(game_id, users, clients), game_id)
    stranger = client_for(make_user())
    assert stranger.get(f"/api/games/{game_id}/events/?after=0").status_code == 200
    Game.objects.filter(pk=game_id).update(replay_hidden=True)
    assert stranger.get(f"/api/games/{game_id}/events/?after=0").status_code == 404
    assert clients[0].get(f"/api/games/{game_id}/events/?after=0").status_code == 200


def test_profiles_list_private_games_only_to_their_player(three, make_user, client_for):
    users, clients = three
    private_game = seated_game(clients, visibility="private")
    stranger = client_for(make_user())
    mine = clients[0].get("/api/accounts/me/").json()["games"]
    assert private_game in [g["id"] for g in mine]
    theirs = stranger.get(f"/api/accounts/users/{users[0].username}/").json()["games"]
    assert private_game not in [g["id"] for g in theirs]
    page = stranger.get(f"/players/{users[0].username}/").content.decode()
    assert f"/watch/{private_game}/" not in page
