"""Real ASGI server processes on loopback sharing PostgreSQL and Redis, with a real Celery worker."""

from __future__ import annotations

import asyncio
import json
import urllib.request
import uuid

import pytest
import websockets

from games.eventlog import events_with_seq
from games.frames import build_frames, states_at_each_step
from games.models import Game, GameEvent
from harehra import event_for, legal_commands, view_for
from replays.selectors import seat_names
from tests.live.client import LiveClient
from tests.support.waits import db_thread, until

pytestmark = [
    pytest.mark.server,
    pytest.mark.django_db(transaction=True),
    pytest.mark.stack(
        redis_db=9,
        servers=2,
        BOT_DELAY_SECONDS="0",
        AWAY_GRACE_SECONDS="1",
        # Bots move without delay here, so a person is asked faster than at any real table, where
        # each bot waits BOT_DELAY_SECONDS: the socket's message rate must not be what is tested.
        SOCKET_MESSAGES_PER_SECOND="500",
        SOCKET_MESSAGES_BURST="1000",
    ),
]


def _api(base: str, path: str, data: dict | None = None, token: str | None = None):
    headers = {"Content-Type": "application/json", **({"Authorization": f"Token {token}"} if token else {})}
    body = json.dumps(data).encode() if data is not None else None
    req = urllib.request.Request(base + path, data=body, headers=headers, method="POST" if body else "GET")
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.load(r)


def _game(stack, humans: int, bots: int, **settings):
    """Set up through a server's REST API, so its timers and bots are armed on the shared broker."""
    base = stack.url(0)
    tokens = [
        _api(
            base,
            "/api/accounts/register/",
            {"username": f"live{i}x{uuid.uuid4().hex[:8]}", "password": "correct-horse-battery"},
        )["token"]
        for i in range(humans)
    ]
    table = _api(base, "/api/tables/", {"seats": humans + bots, **settings}, tokens[0])
    for tok in tokens[1:]:
        _api(base, f"/api/tables/{table['id']}/join/", {}, tok)
    for _ in range(bots):
        _api(base, f"/api/tables/{table['id']}/add-bot/", {}, tokens[0])
    game = Game.objects.get(pk=_api(base, f"/api/tables/{table['id']}/start/", {}, tokens[0])["current_game"])
    return game, [(_api(base, f"/api/games/{game.pk}/", token=t)["view"]["seat"], t) for t in tokens]


async def _until_over(clients, stack, timeout: float = 240) -> None:
    """Wait for every client to see the end; on a timeout, say where each one stood, and have the
    servers log their tasks' stacks (test-output/servers/)."""
    try:
        await asyncio.wait_for(asyncio.gather(*(c.over.wait() for c in clients)), timeout)
    except TimeoutError:
        stack.dump_tasks()
        await asyncio.sleep(1)
        raise AssertionError("game did not end:\n" + "\n".join(c.where() for c in clients)) from None


def _game_row(game_id: int) -> Game:
    return Game.objects.get(pk=game_id)


async def _until_final_view(clients, game_id: int) -> None:
    """Wait until every client holds the view of the game's last seq (the end's push is read whole)."""
    last = (await db_thread(lambda: _game_row(game_id))).last_seq

    def seen(c) -> bool:
        return any(m["type"] in ("view", "state") and m["seq"] == last for m in c.messages)

    await until(
        lambda: all(seen(c) for c in clients),
        lambda: f"not every client saw the view at seq {last}: seqs {[c.seq for c in clients]}",
    )


def _assert_complete(client: LiveClient, game: Game) -> None:
    game.refresh_from_db()
    assert [seq for seq, _ in client.events] == list(range(1, game.last_seq + 1))


def _assert_nothing_hidden(client: LiveClient, game: Game) -> None:
    """No message gives this client more than its own seat's view: every event is filtered for it,
    and every pushed view, legal list and replay frame is exactly what the engine allows it at that
    seq (so never another seat's cards or the draw pile's order)."""
    assert client.messages
    log = events_with_seq(game)
    states = dict(states_at_each_step(log))
    names = seat_names(game)
    views = 0
    for m in client.messages:
        text = json.dumps(m)
        assert 'draw_pile"' not in text and "hands" not in text, text
        if m["type"] == "state":
            assert m["view"]["seat"] == client.seat and (client.seat is not None or m["view"]["hand"] is None)
        if m["type"] == "event":
            e = m["event"]
            assert e == event_for(log[m["seq"] - 1][1], client.seat), text
            if e["type"] == "CardsDrawn" and e["seat"] != client.seat:
                assert "cards" not in e, text
            assert e["type"] != "DrawPileReshuffled" or "cards" not in e, text
        if m["type"] == "view":
            views += 1
            state = states[m["seq"]]
            assert m["view"] == view_for(state, client.seat), text
            allowed = legal_commands(state, client.seat) if client.seat is not None else []
            assert m["legal"] in ([], allowed), text
            for frame in m.get("frames", []):
                assert client.seat is None
                assert frame == build_frames(log, names, None, frame["step"], frame["step"])[0], text
    assert views > 0


def test_two_humans_on_two_servers_and_two_bots_play_to_the_end(stack):
    game, humans = _game(stack, 2, 2)

    async def run():
        players = [LiveClient(game.pk, tok, seat) for seat, tok in humans]
        spectator = LiveClient(game.pk, None, None, play=False)
        for i, c in enumerate([*players, spectator]):
            await c.connect(stack.ws_url(i % 2), stack.url(i % 2))
        await _until_over([*players, spectator], stack)
        await _until_final_view([*players, spectator], game.pk)
        for c in [*players, spectator]:
            await c.close()
        return players, spectator

    players, spectator = asyncio.run(run())
    game.refresh_from_db()
    assert game.status == "finished"
    logged = [e["type"] for _, e in events_with_seq(game)]
    for c in [*players, spectator]:
        _assert_complete(c, game)
        assert [e["type"] for _, e in c.events] == logged
        _assert_nothing_hidden(c, game)
        assert not [e for e in c.errors if e["code"] not in ("stale", "not_your_turn", "wrong_action")]
    actors = set(GameEvent.objects.filter(game=game).values_list("actor_id", flat=True))
    assert None in actors and len(actors - {None}) == 2  # bots moved, and both people did


def test_a_timeout_applies_the_default_action(stack):
    game, humans = _game(stack, 2, 0, turn_timer=5, reaction_timer=3, discard_timer=3)
    seq = game.last_seq

    async def run():
        watcher = LiveClient(game.pk, humans[0][1], humans[0][0], play=False)
        await watcher.connect(stack.ws_url(0), stack.url(0))
        await until(lambda: watcher.seq > seq, f"no move after seq {seq} reached the watcher", timeout=20)
        deadline = next(m for m in watcher.messages if m["type"] == "deadline")["deadline"]
        await watcher.close()
        return watcher, deadline

    watcher, deadline = asyncio.run(run())
    assert deadline is not None
    played = GameEvent.objects.get(game=game, seq=seq + 1)
    assert played.type in ("CardsPlayed", "CardBurned") and played.actor_id is None
    assert watcher.seq > seq


def test_disconnect_bot_takes_the_seat_reconnect_reclaims_it(stack):
    game, humans = _game(stack, 2, 0, turn_timer=600, reaction_timer=600, discard_timer=600)
    (seat_a, tok_a), (seat_b, tok_b) = humans

    async def run():
        # a never moves: with both people playing, a two-seat game could end before a leaves.
        a = LiveClient(game.pk, tok_a, seat_a, play=False)
        b = LiveClient(game.pk, tok_b, seat_b)
        await a.connect(stack.ws_url(0), stack.url(0))
        await b.connect(stack.ws_url(1), stack.url(1))
        # b plays until the game waits for a, and a has seen it: only a's leaving can move it on.
        await until(
            lambda: db_thread(lambda: _game_row(game.pk).awaiting_seat == seat_a),
            "the game never waited for a",
        )
        await until(lambda: a.seq == b.seq > 0, lambda: f"a (seq {a.seq}) and b (seq {b.seq}) differ")
        assert not b.over.is_set()
        # b waits while a is away: the bot in a's seat alone must not play the game to its end
        # before a is back (b's decisions wait for b, with 600 s timers).
        b.paused = True
        await a.close()
        await until(  # grace period 1 s, then the worker's check (it may still be starting)
            lambda: any(e["type"] == "SeatTakenByBot" for _, e in b.events),
            "no bot took a's seat after a left",
            timeout=30,
        )
        taken_seq = b.seq
        back = LiveClient(game.pk, tok_a, seat_a)
        back.seq, back.events = a.seq, list(a.events)
        await back.connect(stack.ws_url(1), stack.url(1))
        await back.ws.send(json.dumps({"type": "reclaim"}))
        await until(
            lambda: any(e["type"] == "SeatReclaimed" for _, e in b.events),
            "a never took the seat back",
            timeout=30,
        )
        b.paused, b.acted_at = False, -1
        await b.ws.send(json.dumps({"type": "sync"}))  # its answer says whether b must decide
        await _until_over([back, b], stack)
        await _until_final_view([back, b], game.pk)
        await back.close()
        await b.close()
        return back, b, taken_seq

    back, b, taken_seq = asyncio.run(run())
    types = [e["type"] for _, e in b.events]
    assert "SeatTakenByBot" in types and "SeatReclaimed" in types
    assert types.index("SeatTakenByBot") < types.index("SeatReclaimed")
    taken = next(e for _, e in b.events if e["type"] == "SeatTakenByBot")
    assert taken == {"type": "SeatTakenByBot", "version": 1, "seat": seat_a, "reason": "away"}
    _assert_complete(back, game)
    _assert_complete(b, game)
    reclaimed_at = next(s for s, e in b.events if e["type"] == "SeatReclaimed")
    assert GameEvent.objects.filter(game=game, seq__gt=reclaimed_at, actor__isnull=False).exists()
    assert taken_seq < reclaimed_at


def test_killing_a_server_mid_game_loses_nothing(stack):
    game, humans = _game(stack, 2, 2)

    async def run():
        a = LiveClient(game.pk, humans[0][1], humans[0][0])
        b = LiveClient(game.pk, humans[1][1], humans[1][0])
        await a.connect(stack.ws_url(0), stack.url(0))
        await b.connect(stack.ws_url(1), stack.url(1))
        await until(lambda: b.seq >= 30 or b.over.is_set(), lambda: f"b reached only seq {b.seq}", timeout=30)
        b.paused = True
        stack.kill_server(1)
        await asyncio.gather(b.reader, return_exceptions=True)
        gone_at = b.seq

        def moved_on() -> bool:
            row = _game_row(game.pk)
            return row.last_seq > gone_at or row.status == "finished"

        # The game goes on without b's socket meanwhile (a bot takes b's seat if b must decide).
        await until(lambda: db_thread(moved_on), f"the game stopped at seq {gone_at}", timeout=30)
        b.paused = False
        await b.connect(stack.ws_url(0), stack.url(0))  # reconnect to the other process and resume
        b.acted_at = -1  # the resume's view says whether b must decide, and b acts on it
        await _until_over([a, b], stack)
        await _until_final_view([a, b], game.pk)
        await a.close()
        await b.close()
        return a, b

    a, b = asyncio.run(run())
    for c in (a, b):
        _assert_complete(c, game)
    assert [(s, e["type"]) for s, e in a.events] == [(s, e["type"]) for s, e in b.events]


AWAIT_KEYS = {
    "TurnStarted": "seat",
    "VolleyPending": "target",
    "SkipPending": "seat",
    "DiscardRequired": "seat",
}


def test_a_foreign_origin_is_refused(stack):
    game, humans = _game(stack, 2, 0)

    async def run():
        url = f"{stack.ws_url(0)}/ws/games/{game.pk}/?token={humans[0][1]}"
        with pytest.raises(websockets.InvalidStatus) as refused:
            await websockets.connect(url, origin="http://evil.example")
        assert refused.value.response.status_code == 403
        ok = await websockets.connect(url, origin="http://localhost")
        assert json.loads(await ok.recv())["type"] == "state"
        await ok.close()

    asyncio.run(run())
