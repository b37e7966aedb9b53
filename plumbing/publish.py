"""The one way any app tells live clients something: `send_on_commit(group, message)`, a plain
message to a group of sockets on the channel layer, sent once the current transaction commits (at
once when none is open). What a message says and which group hears it is each app's own (its
`publish.py`); the sockets that forward it (the live tier, `live/`) import those apps, never the
other way round.

Where a send goes depends on the thread that makes it:
- inside `sends_held` (a socket's command, the API's command view): held, and made by the caller
  itself before it answers (`sends_made`, `sends_made_sync`);
- on a server's thread (a socket's database thread, the presence heartbeat, the embedded worker):
  handed to the server's event loop, which owns the in-memory layer's queues and the Redis
  connection;
- anywhere else (a Celery worker, a management command): run to its end.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextvars
import logging
import os
import threading
from collections.abc import Iterator
from concurrent.futures import Future
from contextlib import contextmanager
from typing import Any

from asgiref.sync import SyncToAsync, async_to_sync
from channels.exceptions import ChannelFull
from channels.layers import get_channel_layer
from django.db import transaction

from plumbing import metrics
from plumbing.channellayer import ShardDown

log = logging.getLogger(__name__)


def send_on_commit(group: str, message: dict[str, Any]) -> None:
    """Send `message` (a dict whose "type" names the consumers' handler) to every socket in
    `group`, on every server process, once the current transaction commits; at once when no
    transaction is open (a commit hook's own send among them). A lost send is logged and counted,
    never raised: the clients catch up on the next message or when they reconnect."""
    connection = transaction.get_connection()
    if connection.in_atomic_block:
        connection.on_commit(lambda: _send(group, message))
    else:
        _send(group, message)


def send_all_on_commit(sends: list[tuple[str, dict[str, Any]]]) -> None:
    """`send_on_commit` of several messages that belong together (a move's frames, one per viewer
    group: games/publish.py), in order: started together, so that the Redis layer takes them in
    one trip; and where no server's loop runs (a Celery worker), in one run to their end rather
    than one event loop and one Redis connection each."""
    connection = transaction.get_connection()
    if connection.in_atomic_block:
        connection.on_commit(lambda: _send_all(sends))
    else:
        _send_all(sends)


# The event loop of this process's server (`serve` names it), and the process it runs in.
_serving: tuple[asyncio.AbstractEventLoop, int] | None = None
# The loop a server's own thread hands its sends to (`sends_to_loop`).
_thread = threading.local()


def serving_loop_set(loop: asyncio.AbstractEventLoop | None) -> None:
    """The server's event loop, for the sends of this process's threads that are not the
    server's own (the embedded Celery worker's): see `_server_loop`."""
    global _serving
    _serving = (loop, os.getpid()) if loop is not None else None


@contextmanager
def sends_to_loop(loop: asyncio.AbstractEventLoop) -> Iterator[None]:
    """Within: this thread's sends are handed to `loop`, the server's (a socket's database thread,
    plumbing/dbthreads.py; the presence heartbeat's thread)."""
    before = getattr(_thread, "loop", None)
    _thread.loop = (loop, os.getpid())
    try:
        yield
    finally:
        _thread.loop = before


def _server_loop() -> asyncio.AbstractEventLoop | None:
    """The event loop a send from this thread is handed to: the one this thread was given
    (`sends_to_loop`), else that of the server whose thread this is as asgiref's thread handler
    says (a view the server runs in a thread), else the loop of the server this process runs.

    The last is for the embedded worker's threads, whose sends go to the in-memory channel layer:
    its queues belong to the server's loop and wake its sockets only when written from that loop.
    Run elsewhere (`async_to_sync`'s own loop) a send woke no socket until something else woke the
    loop, up to 50 ms later, and touched the loop from another thread. None in a process that
    serves nothing (a `celery worker`, a management command): there a send runs to its end."""
    pid = os.getpid()
    given = getattr(_thread, "loop", None)
    if given is not None and given[1] == pid and given[0].is_running():
        return given[0]  # type: ignore[no-any-return]
    if getattr(SyncToAsync.threadlocal, "main_event_loop_pid", None) == pid:
        loop = getattr(SyncToAsync.threadlocal, "main_event_loop", None)
        if loop is not None and loop.is_running():
            return loop  # type: ignore[no-any-return]
    serving = _serving
    if serving is not None and serving[1] == pid and serving[0].is_running():
        return serving[0]
    return None


# The sends held back within `sends_held` (threads a hop copies the context to included).
_held: contextvars.ContextVar[list[tuple[str, dict[str, Any]]] | None] = contextvars.ContextVar(
    "publish_held", default=None
)

# How long a view's answer waits for its pushes (`sends_made_sync`): a send still not done by
# then is late or lost, and the other pages catch up on the next push or their resume.
SENDS_WAIT_S = 5.0


@contextmanager
def sends_held() -> Iterator[list[tuple[str, dict[str, Any]]]]:
    """The sends to the channel layer made inside, held back instead of handed to the server's
    loop: the caller makes them (`sends_made`, `sends_made_sync`) before it answers. A command is
    answered only once its move's push is out: a server killed between the two would otherwise
    leave a mover who holds the answer (and so never sends the command again) and tables that
    never hear of the move. A socket's own command makes them itself, on the loop, once its
    database thread hands back: no hop to the loop and back for each send."""
    held: list[tuple[str, dict[str, Any]]] = []
    token = _held.set(held)
    try:
        yield held
    finally:
        _held.reset(token)


async def sends_made(held: list[tuple[str, dict[str, Any]]]) -> None:
    """Make the held sends on the server's loop: started together, in order, so that the Redis
    layer takes them to each Redis in one trip, in that order (plumbing/channellayer.py)."""
    layer = get_channel_layer()
    done = await asyncio.gather(
        *(layer.group_send(group, message) for group, message in held), return_exceptions=True
    )
    for (group, _), outcome in zip(held, done, strict=True):
        if isinstance(outcome, Exception):  # a lost push is recovered by the clients' seq check and resume
            _failed(group, outcome)
            _log_lost(group, outcome)
        elif isinstance(outcome, BaseException):
            raise outcome


def sends_made_sync(held: list[tuple[str, dict[str, Any]]]) -> None:
    """`sends_made` from a thread that is not the loop's (a view the server runs in a thread):
    handed to the loop in order, then waited for (at most SENDS_WAIT_S)."""
    layer = get_channel_layer()
    if layer is None:
        return
    futures = [f for group, message in held if (f := _hand(layer, group, message)) is not None]
    if futures:
        concurrent.futures.wait(futures, timeout=SENDS_WAIT_S)


def _failed(group: str, error: BaseException | None) -> None:
    reason = "channel_full" if isinstance(error, ChannelFull) else "stopping" if error is None else "error"
    metrics.channel_send_failed(group, reason)


def _log_lost(group: str, error: BaseException) -> None:
    if isinstance(error, ShardDown):  # said once per push, without a trace: an outage makes many
        log.warning("could not publish to %s: %s", group, error)
    else:
        log.error("could not publish to %s", group, exc_info=error)


def _log_failure(future: Future[Any], group: str) -> None:
    error = future.exception() if not future.cancelled() else None
    if error is not None:
        _failed(group, error)
        _log_lost(group, error)


def _send(group: str, message: dict[str, Any]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    held = _held.get()
    if held is not None:
        held.append((group, message))
        return
    _hand(layer, group, message)


def _send_all(sends: list[tuple[str, dict[str, Any]]]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    held = _held.get()
    if held is not None:
        held.extend(sends)
        return
    if _server_loop() is not None:
        for group, message in sends:  # handed over in order, they go in one trip (sends_made)
            _hand(layer, group, message)
        return
    try:
        async_to_sync(_group_send_all)(layer, sends)
    except Exception as e:  # a lost push is recovered by the clients' seq check and resume
        for group, _ in sends:
            _failed(group, e)
        _log_lost(sends[0][0], e)


async def _group_send_all(layer: Any, sends: list[tuple[str, dict[str, Any]]]) -> None:
    done = await asyncio.gather(*(layer.group_send(g, m) for g, m in sends), return_exceptions=True)
    failed = [(group, e) for (group, _), e in zip(sends, done, strict=True) if isinstance(e, BaseException)]
    for group, error in failed:
        _failed(group, error)
        _log_lost(group, error)


def _hand(layer: Any, group: str, message: dict[str, Any]) -> Future[Any] | None:
    """Send now: from a server's thread, handed to its loop (the future of the send); elsewhere,
    run to its end (None)."""
    loop = _server_loop()
    if loop is not None:
        # A server's database thread hands the send to the server's loop and goes on instead of
        # waiting for it: sends start in the order they are handed over, and the Redis layer
        # sends one at a time in that order.
        coro = layer.group_send(group, message)
        try:
            future = asyncio.run_coroutine_threadsafe(coro, loop)
        except RuntimeError:  # the loop closed since: the server is stopping
            coro.close()
            _failed(group, None)
            log.warning("could not publish to %s: the server is stopping", group)
            return None
        future.add_done_callback(lambda f: _log_failure(f, group))
        return future
    try:
        async_to_sync(layer.group_send)(group, message)
    except Exception as e:  # a lost push is recovered by the clients' seq check and resume
        _failed(group, e)
        _log_lost(group, e)
    return None
