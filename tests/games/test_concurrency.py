"""Two commands for the same decision at once: exactly one is accepted, the log stays gap-free."""

from __future__ import annotations

import threading

import pytest
from django.db import connection
from rest_framework.test import APIClient

from accounts.services import user_register, user_token
from games.models import Game, GameEvent
from tests.factories import seated_game

pytestmark = pytest.mark.django_db(transaction=True)


def _client(user):
    c = APIClient()
    c.credentials(HTTP_AUTHORIZATION=f"Token {user_token(user=user)}")
    return c


@pytest.mark.parametrize("same_id", [False, True])
def test_racing_commands_for_one_decision(same_id):
    users = [user_register(username=f"racer{i}{same_id}", password="correct-horse-battery") for i in range(2)]
    clients = [_client(u) for u in users]
    game_id = seated_game(clients)
    game = Game.objects.get(pk=game_id)
    seat = game.awaiting_seat
    owner = next(u for u in users if game.game_seats.get(seat=seat).user_id == u.pk)
    legal = _client(owner).get(f"/api/games/{game_id}/").json()["legal"]
    commands = [legal[0], legal[-1]]
    results: list = [None, None]
    barrier = threading.Barrier(2)

    def submit(i: int) -> None:
        try:
            body = {
                "client_cmd_id": "same" if same_id else f"cmd-{i}",
                "expected_seq": game.last_seq,
                **{k: v for k, v in commands[i].items() if k != "seat"},
            }
            c = _client(owner)
            barrier.wait()
            results[i] = c.post(f"/api/games/{game_id}/commands/", body, format="json")
        finally:
            connection.close()

    threads = [threading.Thread(target=submit, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    codes = sorted(r.status_code for r in results)
    if same_id:
        # The resend returns the first outcome; only one set of events is written.
        assert codes == [200, 200]
        assert sorted(r.json()["duplicate"] for r in results) == [False, True]
    else:
        assert codes == [200, 409]
        loser = next(r for r in results if r.status_code == 409)
        assert loser.json()["code"] in ("stale", "not_your_turn", "wrong_action")
    seqs = list(GameEvent.objects.filter(game_id=game_id).values_list("seq", flat=True))
    assert seqs == list(range(1, len(seqs) + 1))
    winner = next(r for r in results if r.status_code == 200 and not r.json()["duplicate"])
    assert Game.objects.get(pk=game_id).last_seq == winner.json()["seq"] == len(seqs)
