"""One channel-layer Redis killed mid-game (plumbing/channellayer.py, "A lost shard"): two real
servers on a channel layer of two real Redis servers, two games whose groups live one on each,
each player's page a real socket on its own server, playing. The shard of one game is killed with
SIGKILL, then started again (as a supervisor does). That game's pages are closed with 1012, come
back and resume from the log; the other game's pages are never closed and its moves keep
arriving; no move is lost or applied twice, and what every page was told is the game's log."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.db import connection

from games.models import CommandRecord, GameEvent
from tests.redis_server import KillableRedis, killable_servers
from tests.support.game_page import Page, shard_of
from tests.support.stack import stack_for_test

pytestmark = [pytest.mark.server, pytest.mark.django_db(transaction=True)]


def _api(base: str, path: str, data: dict[str, Any] | None = None, token: str | None = None) -> Any:
    import urllib.request

    headers = {"Content-Type": "application/json", **({"Authorization": f"Token {token}"} if token else {})}
    body = json.dumps(data).encode() if data is not None else None
    req = urllib.request.Request(base + path, data=body, headers=headers, method="POST" if body else "GET")
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.load(r)


def _games(base: str, shards: set[int]) -> Iterator[tuple[int, list[str]]]:
    """Two-seat games (long timers: only the pages move) until one lives on each of `shards`."""
    wanted = set(shards)
    for _ in range(40):
        tokens = [
            _api(
                base,
                "/api/accounts/register/",
                {"username": f"sh{i}x{uuid.uuid4().hex[:8]}", "password": "correct-horse-battery"},
            )["token"]
            for i in range(2)
        ]
        table = _api(
            base,
            "/api/tables/",
            {"seats": 2, "turn_timer": 600, "reaction_timer": 600, "discard_timer": 600},
            tokens[0],
        )
        _api(base, f"/api/tables/{table['id']}/join/", {}, tokens[1])
        game_id = _api(base, f"/api/tables/{table['id']}/start/", {}, tokens[0])["current_game"]
        if shard_of(game_id) in wanted:
            wanted.discard(shard_of(game_id))
            yield game_id, tokens
            if not wanted:
                return
    raise AssertionError("no game on every shard")


def test_a_killed_channel_layer_shard_loses_no_move() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("the servers share the test database: PostgreSQL only")
    with (
        killable_servers(2) as shards,
        stack_for_test(
            "test_shard_loss",
            redis_db=5,
            servers=2,
            worker=False,
            CHANNEL_LAYER_REDIS_URLS=",".join(s.url for s in shards),
            THROTTLE_REGISTER="100000/hour",  # its players register until a game lives on each shard
        ) as stack,
    ):
        by_shard = {shard_of(g): (g, tokens) for g, tokens in _games(stack.url(0), {0, 1})}
        killed: KillableRedis = shards[0]
        out = asyncio.run(_play(stack, by_shard, killed))

    lost_game, kept_game = by_shard[0][0], by_shard[1][0]
    pages: dict[int, list[Page]] = out["pages"]
    kill_at, back_at = out["kill_at"], out["back_at"]

    # The lost shard's game: every page was closed with 1012 after the kill, came back and went on.
    for page in pages[lost_game]:
        assert [code for _, code in page.closes] == [1012], (page.name, page.closes)
        assert page.closes[0][0] >= kill_at
        assert any(t > back_at for t in page.events_at), f"{page.name}: no move after the shard was back"
    # The other shard's game noticed nothing: never closed, its moves kept arriving meanwhile.
    for page in pages[kept_game]:
        assert page.closes == [] and page.refused == 0, (page.name, page.closes, page.refused)
        assert any(kill_at < t < back_at for t in page.events_at), (
            f"{page.name}: no move while the shard was down"
        )

    # What every page was told is the log: each event once, in order, none missing, same types.
    for game_id, game_pages in pages.items():
        log = list(GameEvent.objects.filter(game_id=game_id).order_by("seq").values_list("seq", "type"))
        last = log[-1][0]
        for page in game_pages:
            first = page.seqs[0]
            assert page.seqs == list(range(first, last + 1)), (page.name, page.seqs, last)
            assert [page.types[s] for s in page.seqs] == [t for s, t in log if s >= first], page.name
        # Every answered command is in the log once, at the seq its answer named, and every
        # person's event in the log was made by a command a page sent.
        records = {
            c: (first_seq, last_seq)
            for c, first_seq, last_seq in CommandRecord.objects.filter(game_id=game_id).values_list(
                "client_cmd_id", "first_seq", "last_seq"
            )
        }
        acked = {c: s for page in game_pages for c, s in page.acks.items()}
        assert acked and all(records[c][1] == s for c, s in acked.items()), (acked, records)
        people = GameEvent.objects.filter(game_id=game_id, actor__isnull=False).exclude(
            type__in=["SeatReclaimed", "GameAborted"]
        )
        for seq in people.values_list("seq", flat=True):
            assert any(a <= seq <= b for a, b in records.values()), f"game {game_id}: seq {seq} by no command"


async def _play(
    stack: Any, by_shard: dict[int, tuple[int, list[str]]], killed: KillableRedis
) -> dict[str, Any]:
    pages: dict[int, list[Page]] = {}
    for game_id, tokens in by_shard.values():
        # Each player's page on its own server: every push crosses from one server to the other.
        pages[game_id] = [
            Page(stack.ws_url(i), game_id, token, f"g{game_id}s{i}") for i, token in enumerate(tokens)
        ]
    everyone = [p for ps in pages.values() for p in ps]
    lost_pages, kept_pages = pages[by_shard[0][0]], pages[by_shard[1][0]]
    tasks = [asyncio.create_task(p.run()) for p in everyone]

    async def until(done: Callable[[], bool], at_most: float) -> None:
        """Each phase lasts until what the test looks for has happened (at most `at_most` s:
        then the assertions say what is missing), a second at least, so that the games move."""
        start = time.monotonic()
        await asyncio.sleep(1.0)
        while not done() and time.monotonic() - start < at_most:
            await asyncio.sleep(0.1)

    try:
        await until(lambda: all(p.events_at for p in everyone), 10.0)  # every page playing
        kill_at = time.monotonic()
        killed.kill()
        # Down: the kept game plays on, the lost one's pages are closed and turned away.
        await until(
            lambda: (
                all(p.closes for p in lost_pages)
                and all(any(t > kill_at for t in p.events_at) for p in kept_pages)
            ),
            10.0,
        )
        await asyncio.to_thread(killed.start)
        back_at = time.monotonic()
        # Its pages back and playing.
        await until(lambda: all(any(t > back_at for t in p.events_at) for p in lost_pages), 20.0)
        for p in everyone:
            p.playing = False
        # The last moves' answers, and their pushes to the game's other page.
        await until(
            lambda: (
                all(p.pending is None for p in everyone)
                and all(len({p.last_seq for p in game_pages}) == 1 for game_pages in pages.values())
            ),
            5.0,
        )
    finally:
        for p in everyone:
            p.stop = True
        with contextlib.suppress(Exception):
            await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), 5)
    # Moves in flight at the stop are answered or not; the log is read after the servers stop.
    return {"pages": pages, "kill_at": kill_at, "back_at": back_at}
