"""The replay analysis socket (`/ws/replays/<ref>/analysis/`) on a real server with real Redis: its
first message is the analysis's status as it stands (a late or reconnecting page misses nothing),
then the worker's progress is pushed as it is written, and a last message says the analysis is
stored (without it: the page fetches it once) or failed. A replay one may not see, a bad ref and a
game that is not finished are refused with 4403 (docs/PROTOCOL.md).

The worker's part runs in this process (analysis_work, as the analysis task runs it), whose channel
layer is pointed at the server's Redis: what it publishes reaches the server's sockets. The read
again after a silence (a dead worker) is tested through Channels' communicator, its wait cut short."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
import websockets
from django.utils import timezone

from accounts.services import user_token
from analysis.models import AnalysisRequest, GameAnalysis, RequestStatus
from analysis.publish import analysis_group
from analysis.services import PROGRESS_STEP, analysis_work
from games.models import Game
from harehra.analysis import ANALYSIS_VERSION
from live.sockets import CLOSE_REFUSED
from tests.factories import finished_game, start_table
from tests.support.stack import Stack
from tests.support.waits import db_thread, until

pytestmark = [
    pytest.mark.server,
    pytest.mark.django_db(transaction=True),
    pytest.mark.stack(redis_db=8, servers=1, worker=False),
]
ORIGIN = "http://localhost"


@pytest.fixture
def layer_of(settings: Any) -> Callable[[Stack], None]:
    """Point this process's channel layer at the stack's Redis (and a tiny analysis budget)."""

    def point(stack: Stack) -> None:
        settings.ANALYSIS_PLAYOUTS = 2
        settings.CHANNEL_LAYERS = {
            "default": {
                "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
                "CONFIG": {"hosts": [stack.env["REDIS_URL"]]},
            }
        }

    return point


async def _subscribed(stack: Stack, game_id: int) -> None:
    """Until the server listens to the game's analysis group on Redis (a socket has joined it)."""
    import redis
    from channels.layers import get_channel_layer

    name = get_channel_layer()._get_group_channel_name(analysis_group(game_id))
    numsub = redis.Redis.from_url(stack.env["REDIS_URL"]).pubsub_numsub
    await until(lambda: numsub(name)[0][1] > 0, f"the server never subscribed to {name}", timeout=10)


async def _next(ws: Any) -> dict[str, Any]:
    message = json.loads(await asyncio.wait_for(ws.recv(), 30))
    assert message["type"] == "analysis", message
    return message


async def _refused(url: str) -> int | None:
    """The close code a socket gets before any message (None: it was served something)."""
    async with websockets.connect(url, origin=ORIGIN) as ws:
        try:
            await asyncio.wait_for(ws.recv(), 10)
        except websockets.ConnectionClosed as e:
            return e.rcvd.code if e.rcvd else None
    return None


def test_a_socket_gets_the_status_then_the_progress_then_that_it_is_stored(
    stack: Stack, layer_of: Any, make_user: Any
) -> None:
    layer_of(stack)
    two = [make_user("ann"), make_user("bob")]
    game = finished_game(two, seed=3, rated=False, replay_access="link")
    base = f"{stack.ws_url(0)}/ws/replays/{game.replay_key}/analysis/"
    now = timezone.now()
    AnalysisRequest.objects.create(
        game=game, version=ANALYSIS_VERSION, requested_by=two[0], status=RequestStatus.QUEUED,
        asked_at=now, updated_at=now,
    )  # fmt: skip

    async def run() -> tuple[list[dict[str, Any]], dict[str, Any], dict[str, Any]]:
        async with websockets.connect(base, origin=ORIGIN) as ws:  # signed out: the replay's link opens it
            first = await _next(ws)
            await _subscribed(stack, game.pk)
            work = asyncio.create_task(db_thread(lambda: analysis_work(game.pk)))
            got = []
            while not got or got[-1]["status"] != "done":
                got.append(await _next(ws))
            await work
            # After its last word the socket stays quiet (the page closes it).
            with pytest.raises(TimeoutError):
                await asyncio.wait_for(ws.recv(), 0.3)
        async with websockets.connect(base, origin=ORIGIN) as late:  # a page opened afterwards
            done = await _next(late)
        return got, first, done

    got, first, done = asyncio.run(run())
    queued = {"type": "analysis", "version": ANALYSIS_VERSION, "status": "queued"}
    assert first == {**queued, "progress": {"done": 0, "total": 0}}
    assert got[0] == {**queued, "status": "running", "progress": {"done": 0, "total": 0}}
    progress = [m["progress"] for m in got[1:-1]]
    assert all(m["status"] == "running" for m in got[1:-1])
    every = max(1, int(game.last_seq * PROGRESS_STEP))  # every 2% of the steps, not every step
    assert 10 <= len(progress) <= game.last_seq // every + 2
    assert all(p["total"] == game.last_seq for p in progress)
    assert [p["done"] for p in progress] == sorted(p["done"] for p in progress)
    assert progress[-1]["done"] == game.last_seq
    stored = GameAnalysis.objects.get(game=game)
    assert got[-1] == {
        "type": "analysis", "version": ANALYSIS_VERSION, "status": "done",
        "playouts": 2, "made_at": stored.created_at.isoformat(),
    }  # fmt: skip
    assert "analysis" not in got[-1]  # fetched once by the page, not sent to every socket
    assert done == got[-1]


def test_a_reconnecting_page_gets_the_progress_so_far_and_a_failure_is_said(
    stack: Stack, layer_of: Any, make_user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    layer_of(stack)

    def boom(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("out of memory")

    monkeypatch.setattr("analysis.services.analyse_apart", boom)
    two = [make_user("ann"), make_user("bob")]
    game = finished_game(two, seed=5, rated=False, replay_access="public")
    now = timezone.now()
    AnalysisRequest.objects.create(
        game=game, version=ANALYSIS_VERSION, requested_by=two[0], status=RequestStatus.RUNNING,
        done=40, total=game.last_seq, asked_at=now, updated_at=now,
    )  # fmt: skip
    url = f"{stack.ws_url(0)}/ws/replays/{game.pk}/analysis/"

    async def run() -> tuple[dict[str, Any], dict[str, Any]]:
        async with websockets.connect(url, origin=ORIGIN) as ws:
            first = await _next(ws)
            await _subscribed(stack, game.pk)
            # Its worker died; another takes it up, and the analysis raises.
            with pytest.raises(RuntimeError, match="out of memory"):
                await db_thread(lambda: analysis_work(game.pk))
            return first, await _next(ws), await _next(ws)

    first, restarted, failed = asyncio.run(run())
    assert first["status"] == "running" and first["progress"] == {"done": 40, "total": game.last_seq}
    assert restarted["status"] == "running" and restarted["progress"]["done"] == 0
    assert failed == {"type": "analysis", "version": ANALYSIS_VERSION, "status": "failed", "code": "error"}


def test_a_replay_one_may_not_see_is_refused(stack: Stack, make_user: Any) -> None:
    two = [make_user("ann"), make_user("bob")]
    eve = user_token(user=make_user("eve"))
    player = user_token(user=two[1])
    hidden = finished_game(two, seed=7, rated=False, replay_access="public")
    Game.objects.filter(pk=hidden.pk).update(replay_hidden=True)
    players_only = finished_game(two, seed=7, rated=False, replay_access="players")
    link = finished_game(two, seed=9, rated=False, replay_access="link")
    running = start_table(two, rated=False, replay_access="public")
    ws = f"{stack.ws_url(0)}/ws/replays"

    async def run() -> dict[str, int | None]:
        return {
            "hidden": await _refused(f"{ws}/{hidden.pk}/analysis/?token={eve}"),
            "hidden, its player": await _refused(f"{ws}/{hidden.pk}/analysis/?token={player}"),
            "players only": await _refused(f"{ws}/{players_only.pk}/analysis/?token={eve}"),
            "players only, its player": await _refused(f"{ws}/{players_only.pk}/analysis/?token={player}"),
            "link by id": await _refused(f"{ws}/{link.pk}/analysis/?token={eve}"),
            "link by key": await _refused(f"{ws}/{link.replay_key}/analysis/?token={eve}"),
            "wrong key": await _refused(f"{ws}/{'x' * 22}/analysis/"),
            "no such game": await _refused(f"{ws}/999999/analysis/"),
            "bad ref": await _refused(f"{ws}/%3Cnope%3E/analysis/"),
            "running": await _refused(f"{ws}/{running.pk}/analysis/"),
        }

    assert asyncio.run(run()) == {
        "hidden": CLOSE_REFUSED,
        "hidden, its player": None,
        "players only": CLOSE_REFUSED,
        "players only, its player": None,
        "link by id": CLOSE_REFUSED,
        "link by key": None,
        "wrong key": CLOSE_REFUSED,
        "no such game": CLOSE_REFUSED,
        "bad ref": CLOSE_REFUSED,
        "running": CLOSE_REFUSED,
    }


@pytest.mark.usefixtures("end_lingering_connections")
def test_a_silent_analysis_is_read_again_and_a_dead_workers_request_said_lost(
    make_user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Through Channels' communicator on the full ASGI application: the worker of a running
    analysis died, so nothing more is published; after QUIET_SECONDS of silence the socket reads
    the status again and says the request was given up."""
    from channels.testing import WebsocketCommunicator

    from harehra_site.asgi import application
    from live import analysis as sockets

    monkeypatch.setattr(sockets, "QUIET_SECONDS", 0.5)
    two = [make_user("ann"), make_user("bob")]
    game = finished_game(two, seed=5, rated=False, replay_access="public")
    now = timezone.now()
    row = AnalysisRequest.objects.create(
        game=game, version=ANALYSIS_VERSION, requested_by=two[0], status=RequestStatus.RUNNING,
        done=40, total=game.last_seq, asked_at=now, updated_at=now,
    )  # fmt: skip

    async def run() -> tuple[dict[str, Any], dict[str, Any]]:
        comm = WebsocketCommunicator(
            application, f"/ws/replays/{game.pk}/analysis/", headers=[(b"origin", b"http://localhost")]
        )
        assert (await comm.connect())[0]
        first = await comm.receive_json_from(timeout=5)
        await db_thread(
            lambda: AnalysisRequest.objects.filter(pk=row.pk).update(updated_at=now - timedelta(minutes=10))
        )
        lost = await comm.receive_json_from(timeout=5)
        assert await comm.receive_nothing(timeout=1)  # given up: no more reads
        await comm.disconnect()
        return first, lost

    first, lost = asyncio.run(run())
    assert first["status"] == "running"
    assert lost == {
        "type": "analysis",
        "version": ANALYSIS_VERSION,
        "status": "none",
        "code": "analysis_lost",
    }
