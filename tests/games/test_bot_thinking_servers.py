"""A process that thinks for hard bots (games/bot_thinking.py) leaves nothing running when it is
killed: its forkserver, the forkserver's child that searches and multiprocessing's resource
tracker end with it, whatever killed it (games/lifeline.py). Once they outlived it, parent 1, after
`scripts/prod --stop`. Here a real embedded server (`serve --worker embedded`), or a real
`celery worker`, moves hard bots, and is killed with SIGKILL."""

from __future__ import annotations

import asyncio
import os
import signal
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import redis
from django.db import connection

from tests.live.client import LiveClient
from tests.live.test_live_servers import _api
from tests.support.stack import OUTPUT, Stack, database_url, live_stack, stack_for_test
from tests.support.waits import wait_until

pytestmark = [pytest.mark.server, pytest.mark.django_db(transaction=True)]


def _descendants(pid: int) -> dict[int, str]:
    """Every process below `pid`, with its command line."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
    found, frontier = {}, [pid]
    while frontier:
        here = frontier.pop()
        for child, parent in parents.items():
            if parent == here and child not in found:
                found[child] = _command(child)
                frontier.append(child)
    return found


def _command(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()[:120]
    except OSError:
        return "?"


def _running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _hard_bot_game(base: str) -> tuple[int, int, str]:
    token = _api(
        base,
        "/api/accounts/register/",
        {"username": f"think{uuid.uuid4().hex[:8]}", "password": "correct-horse-battery"},
    )["token"]
    table = _api(base, "/api/tables/", {"seats": 4}, token)
    for _ in range(3):
        _api(base, f"/api/tables/{table['id']}/add-bot/", {"level": "hard"}, token)
    game_id = _api(base, f"/api/tables/{table['id']}/start/", {}, token)["current_game"]
    return game_id, _api(base, f"/api/games/{game_id}/", token=token)["view"]["seat"], token


@contextmanager
def _thinker(kind: str) -> Iterator[tuple[Stack, int]]:
    """The stack and the pid of the process that moves the bots: an embedded server, or a
    `celery worker` on Redis beside a server."""
    options = {"BOT_DELAY_SECONDS": "0.1", "BOT_THINK_PROCESSES": "1"}
    if kind == "embedded server":
        with live_stack(
            database_url=database_url(connection.settings_dict),
            redis_url="",  # the embedded worker, on the memory broker: the server moves the bots
            servers=0,
            worker=False,
            log_dir=OUTPUT / "servers" / "test_bot_thinking_servers",
            **options,
        ) as stack:
            stack.start_server("embedded")
            yield stack, stack.servers[0][0].pid
        return
    with stack_for_test(
        "test_bot_thinking_servers_worker", redis_db=14, servers=1, worker=False, **options
    ) as stack:
        stack._celery("worker", ["--pool", "threads", "--concurrency", "4"])
        broker = redis.Redis.from_url(stack.env["REDIS_URL"])
        wait_until(lambda: broker.exists("_kombu.binding.celery"), "the worker declared no queue", timeout=60)
        yield stack, stack.workers[-1].pid


@pytest.mark.parametrize("kind", ["embedded server", "celery worker"])
def test_a_killed_thinker_leaves_no_thinking_process_running(kind: str) -> None:
    with _thinker(kind) as (stack, thinker):
        game_id, seat, token = _hard_bot_game(stack.url(0))

        async def until_a_bot_thought() -> dict[int, str]:
            person = LiveClient(game_id, token, seat)  # plays its seat at once, so the bots get turns
            await person.connect(stack.ws_url(0), stack.url(0))
            try:
                for _ in range(600):
                    children = _descendants(thinker)
                    if any("forkserver" in c for c in children.values()) and len(children) >= 3:
                        return children
                    await asyncio.sleep(0.1)
                raise AssertionError(f"no thinking process started under the {kind}: {children}")
            finally:
                await person.close()

        children = asyncio.run(until_a_bot_thought())
        # The forkserver, the child that searches (the forkserver's), the resource tracker.
        assert sum("forkserver" in c for c in children.values()) >= 2, children
        assert any("resource_tracker" in c for c in children.values()), children
        os.kill(thinker, signal.SIGKILL)
        killed = time.monotonic()
        try:
            wait_until(
                lambda: not [pid for pid in children if _running(pid)],
                lambda: (
                    f"still running after the {kind}'s kill -9: "
                    + str({pid: _command(pid) for pid in children if _running(pid)})
                ),
                timeout=5,
                every=0.1,
            )
        finally:  # what a failure leaves running is ended here, not left on the machine
            for pid in children:
                if _running(pid):
                    os.kill(pid, signal.SIGKILL)
        print(f"{kind}: the thinking processes ended {time.monotonic() - killed:.2f} s after the kill")
