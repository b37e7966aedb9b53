"""Standing answers over the game socket, through Channels' communicator on the full ASGI
application: the seat's person sets them and is answered on that socket alone; every frame the
other seats and a watching spectator receive, before, while and after the standing answer plays,
says nothing of them (the deal: tests/games/test_standing_answers.py)."""

from __future__ import annotations

import asyncio
import json
from datetime import timedelta
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.utils import timezone

from accounts.services import user_register, user_token
from games.models import Game, GameEvent, GameSeat
from games.services.autoplay import game_deadline_expire
from harehra_site.asgi import application
from tests.factories import seated_game
from tests.games.test_standing_answers import DRAWS, HANDS
from tests.support.decks import STACKED, stacked_deck

pytestmark = pytest.mark.django_db(transaction=True)
ORIGIN = (b"origin", b"http://localhost")


def _connect(game_id: int, token: str | None = None, frames: bool = False) -> WebsocketCommunicator:
    query = "?batch=1" + (f"&token={token}" if token else "") + ("&frames=1" if frames else "")
    return WebsocketCommunicator(application, f"/ws/games/{game_id}/{query}", headers=[ORIGIN])


async def _texts(comm: WebsocketCommunicator, wait: float = 0.5) -> list[str]:
    """Every text frame that comes until none has come for `wait` s."""
    out = []
    while not await comm.receive_nothing(timeout=wait):
        out.append(await comm.receive_from())
    return out


def _messages(texts: list[str]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for t in texts:
        m = json.loads(t)
        out.extend(m if isinstance(m, list) else [m])
    return out


def test_the_socket_sets_them_for_its_seat_alone_and_no_other_frame_tells(monkeypatch, settings):
    from rest_framework.test import APIClient

    settings.GAME_SHUFFLE = STACKED
    settings.AUTO_ANSWER_SECONDS = 3
    monkeypatch.setenv("DECK_TOP", ",".join(stacked_deck(HANDS, DRAWS, first=1)))
    users = [user_register(username=f"stand{i}", password="correct-horse-battery") for i in range(3)]
    clients = []
    for u in users:
        c = APIClient()
        c.credentials(HTTP_AUTHORIZATION=f"Token {user_token(user=u)}")
        clients.append(c)
    game_id = seated_game(clients)
    tokens = {gs.seat: user_token(user=gs.user) for gs in GameSeat.objects.filter(game_id=game_id)}
    # A watch page is open: each push also carries the spectators' replay frames.
    Game.objects.filter(pk=game_id).update(watched_until=timezone.now() + timedelta(minutes=5))
    expire = database_sync_to_async(_expire_now)

    async def run() -> dict[str, list[str]]:
        socks = {seat: _connect(game_id, tokens[seat]) for seat in (0, 1, 2)}
        watcher = _connect(game_id, frames=True)
        for comm in (*socks.values(), watcher):
            assert (await comm.connect())[0]
        got: dict[str, list[str]] = {"0": [], "1": [], "2": [], "watcher": []}

        async def gather(wait: float = 0.5) -> None:
            """What each socket receives until it has received nothing for `wait` s, all four at
            once (their quiet spells overlap)."""
            names = [*map(str, socks), "watcher"]
            texts = await asyncio.gather(*(_texts(comm, wait) for comm in (*socks.values(), watcher)))
            for name, more in zip(names, texts, strict=True):
                got[name] += more

        await gather()
        await socks[0].send_json_to({"type": "standing", "volley": "taptap"})
        await socks[0].send_json_to({"type": "standing", "skip": "always"})
        await watcher.send_json_to({"type": "standing", "volley": "never"})
        await gather()
        own = _messages(got["0"])
        assert [m for m in own if m["type"] == "standing"] == [
            {"type": "standing", "volley": "taptap", "skip": "ask"}
        ]
        assert [m["code"] for m in own if m["type"] == "error"] == ["bad_standing_answer"]
        assert [m["code"] for m in _messages(got["watcher"]) if m["type"] == "error"] == ["not_authenticated"]
        # Seat 1 aims at seat 0 over its socket; the short window runs out; the Taptap is played.
        await socks[1].send_json_to({"type": "command", "cmd_id": "aim", "play": ["cumi"], "target": 0})
        await gather()
        await expire(game_id)
        await gather(wait=1.0)  # the answer's push, which every socket is to have seen
        for comm in (*socks.values(), watcher):
            await comm.disconnect()
        return got

    got = asyncio.run(run())
    played = GameEvent.objects.filter(game_id=game_id, type="ReactionPlayed").values_list(
        "payload", flat=True
    )
    assert [p["card"] for p in played] == ["taptap"]
    for who in ("1", "2", "watcher"):
        texts = got[who]
        assert any('"ReactionPlayed"' in t for t in texts), who  # they saw the answer itself...
        assert not any("standing" in t for t in texts), who  # ...and nothing of the setting
        for m in _messages(texts):
            assert m["type"] != "standing", who
    # The watcher's frames came with the pushes (so they were checked above).
    assert any("frames" in m for m in _messages(got["watcher"]) if m["type"] == "view")


def _expire_now(game_id: int) -> None:
    game = Game.objects.get(pk=game_id)
    assert (game.awaiting_seat, game.awaiting_kind) == (0, "volley")
    assert (game.deadline_at - timezone.now()).total_seconds() <= 3  # the short window
    Game.objects.filter(pk=game_id).update(deadline_at=timezone.now() - timedelta(seconds=1))
    assert game_deadline_expire(game_id=game_id, guard_seq=game.last_seq) is not None
