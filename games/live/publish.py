"""Telling live clients: messages go out on the channel layer only after the transaction commits."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextvars
import logging
import os
from collections.abc import Iterator
from concurrent.futures import Future
from contextlib import contextmanager
from typing import Any

from asgiref.sync import SyncToAsync, async_to_sync
from channels.exceptions import ChannelFull
from channels.layers import get_channel_layer

from games.selectors import lobby_change
from harehra_site import metrics

log = logging.getLogger(__name__)


def game_group(game_id: int) -> str:
    return f"game.{game_id}"


def table_group(table_id: int) -> str:
    return f"table.{table_id}"


LOBBY_GROUP = "lobby"


# The event loop of this process's server (`serve` names it), and the process it runs in.
_serving: tuple[asyncio.AbstractEventLoop, int] | None = None


def serving_loop_set(loop: asyncio.AbstractEventLoop | None) -> None:
    """The server's event loop, for the sends of this process's threads that are not the
    server's own (the embedded Celery worker's): see `_server_loop`."""
    global _serving
    _serving = (loop, os.getpid()) if loop is not None else None


def _server_loop() -> asyncio.AbstractEventLoop | None:
    """The event loop a send from this thread is handed to: that of the server whose database
    thread this is (as `async_to_sync` finds it), else the loop of the server this process runs.

    The second is for the embedded worker's threads, whose sends go to the in-memory channel layer:
    its queues belong to the server's loop and wake its sockets only when written from that loop.
    Run elsewhere (`async_to_sync`'s own loop) a send woke no socket until something else woke the
    loop, up to 50 ms later (issue 27), and touched the loop from another thread. None in a process
    that serves nothing (a `celery worker`, a management command): there a send runs to its end."""
    if getattr(SyncToAsync.threadlocal, "main_event_loop_pid", None) == os.getpid():
        loop = getattr(SyncToAsync.threadlocal, "main_event_loop", None)
        if loop is not None and loop.is_running():
            return loop
    serving = _serving
    if serving is not None and serving[1] == os.getpid() and serving[0].is_running():
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
    """Make the held sends, in order, on the server's loop."""
    layer = get_channel_layer()
    for group, message in held:
        try:
            await layer.group_send(group, message)
        except Exception as e:  # a lost push is recovered by the clients' seq check and resume
            _failed(group, e)
            log.exception("could not publish to %s", group)


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


def _log_failure(future: Future[Any], group: str) -> None:
    if not future.cancelled() and future.exception() is not None:
        _failed(group, future.exception())
        log.error("could not publish to %s", group, exc_info=future.exception())


def _send(group: str, message: dict[str, Any]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    held = _held.get()
    if held is not None:
        held.append((group, message))
        return
    _hand(layer, group, message)


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
        log.exception("could not publish to %s", group)
    return None


def publish_game_push(game_id: int, message: dict[str, Any]) -> None:
    """One move to every socket of the game; each consumer takes its own viewer's part."""
    _send(game_group(game_id), message)


def publish_game_head(game_id: int, seq: int) -> None:
    """The game has reached `seq`: its sockets that have not seen that far read what they missed.
    Said when a command comes again that was applied already: the server that applied it may have
    been killed before it pushed the move."""
    _send(game_group(game_id), {"type": "game.head", "seq": seq})


def publish_next_game(game_id: int, next_game_id: int) -> None:
    """The table's next game has started: the sockets of the game before it are told where to go."""
    _send(game_group(game_id), {"type": "game.meta", "kind": "next_game", "data": {"game": next_game_id}})


def publish_game_meta(game_id: int, kind: str, data: dict[str, Any]) -> None:
    _send(game_group(game_id), {"type": "game.meta", "kind": kind, "data": data})


def publish_table_changed(table_id: int) -> None:
    """Table sockets are told that something changed; lobby sockets get the table's new row.

    The row is rendered here, once per change in the process that made it, so a change costs each
    lobby socket on every server one forward and nothing else.
    """
    _send(table_group(table_id), {"type": "table.changed", "table": table_id})
    try:
        change = lobby_change(table_id)
    except Exception:  # a commit hook must not raise; a lobby catches up when it (re)connects
        log.exception("could not render the lobby row of table %s", table_id)
        return
    if change is not None:
        _send(LOBBY_GROUP, {"type": "lobby.table", **change})


def user_group(user_id: int) -> str:
    return f"user.{user_id}"


def publish_user_signed_out(user_id: int) -> None:
    """Close every socket the user has open, on every server process."""
    _send(user_group(user_id), {"type": "user.signed_out"})


def publish_user_credentials_ended(user_id: int, keep_token: str | None, keep_session: str | None) -> None:
    """Close the user's sockets, on every server process, but those signed in by the token or the
    session (digests: accounts.services.credential_digest) a password change kept. The same message
    as a sign-out's, naming what it keeps: each socket decides (harehra_site/ws_auth.py,
    `signed_out_by`)."""
    kept = {"keep_token": keep_token, "keep_session": keep_session}
    _send(user_group(user_id), {"type": "user.signed_out", **kept})


def publish_user_sanctioned(user_id: int, sanction: dict[str, Any]) -> None:
    """Close every socket the user has open, on every server process, each first telling its page
    why: `sanction` is {kind, until, reason} (accounts/notices.py, sanction_notice)."""
    _send(user_group(user_id), {"type": "user.sanctioned", "sanction": sanction})


def publish_to_group(group: str, message: dict[str, Any]) -> None:
    """Any other app's message to a group of sockets (the table chat's, for one)."""
    _send(group, message)
