"""What one server process knows about its own sockets, kept in memory (no query per message):
the limits on what a client may send, the sockets of a user at a game, and the heartbeat that
keeps seated sockets' presence alive in Django's cache (games/services/presence.py reads it).

A socket counts while the task running its consumer is alive: a consumer that crashed, or whose
disconnect was never handled, stops counting at once here, and its presence runs out in the
cache after PRESENCE_LEASE_SECONDS (so does every presence of a killed process).
"""

from __future__ import annotations

import asyncio
import itertools
import random
import re
import threading
import time
import weakref
from typing import TYPE_CHECKING, Any

from channels.exceptions import StopConsumer
from django.conf import settings

from plumbing import jsontext, metrics
from plumbing.channellayer import ShardDown
from plumbing.logs import log_socket
from plumbing.publish import sends_to_loop

MAX_FRAME_CHARS = 8192  # a command is a few dozen characters
MAX_JSON_DEPTH = 4  # {"type": "command", "play": ["cumi"]} is 2 deep
MAX_CMD_ID_CHARS = 64
RATE_PER_SECOND = 10.0  # messages a socket may send, on average
RATE_BURST = 30.0
CLOSE_ABUSE = 4008  # policy violation: a socket that keeps sending past its limit is closed
REFUSALS_BEFORE_CLOSE = 100
CLOSE_TOO_MANY = 4429
CLOSE_REFUSED = 4403  # not allowed to see this (an unknown game or table, a private one, signed out)
# Signed out by a suspension or a ban: the `sanctioned` message just before it says why (its
# reason and end), and the page says so at once (docs/PROTOCOL.md).
CLOSE_SANCTIONED = 4401
# The channel layer's server a group of the socket lives on does not answer (a lost shard,
# plumbing/channellayer.py): 1012 closes a socket whose pushes were lost (its page reconnects soon
# and reads what it missed), 1013 turns away one that could not join (its page tries again later).
CLOSE_RESTART = 1012
CLOSE_LATER = 1013

_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"')


class Refused(Exception):
    def __init__(self, code: str, detail: str) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail


def parse_frame(text: str | None) -> Any:
    """A client's frame as JSON, refused (before parsing) when too long or too deeply nested."""
    if text is None:
        raise Refused("bad_message", "messages are JSON text")
    if len(text) > MAX_FRAME_CHARS:
        raise Refused("too_large", f"a message is at most {MAX_FRAME_CHARS} characters")
    depth = deepest = 0
    for ch in _STRINGS.sub("", text):
        if ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
            if deepest > MAX_JSON_DEPTH:
                raise Refused("too_deep", f"a message nests at most {MAX_JSON_DEPTH} levels")
        elif ch in "]}":
            depth -= 1
    try:
        return jsontext.loads(text)
    except (ValueError, RecursionError):
        raise Refused("bad_message", "messages are JSON") from None


def valid_cmd_id(cmd_id: Any) -> bool:
    if cmd_id is None or (isinstance(cmd_id, int) and not isinstance(cmd_id, bool)):
        return True
    return isinstance(cmd_id, str) and len(cmd_id) <= MAX_CMD_ID_CHARS


class RateLimit:
    """A token bucket: RATE_BURST messages at once, RATE_PER_SECOND on average."""

    def __init__(self, rate: float | None = None, burst: float | None = None) -> None:
        rate = settings.SOCKET_MESSAGES_PER_SECOND if rate is None else rate
        burst = settings.SOCKET_MESSAGES_BURST if burst is None else burst
        self.rate, self.burst = rate, burst
        self.tokens = burst
        self.at = time.monotonic()
        self.refused = 0

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        self.refused += 1
        return False


class SocketFeatures:
    """What a consumer offers the features mixed in above it in live/routes.py (the table chat,
    the spectator count): each feature takes the messages that are its own and passes the rest on
    with super(), and lets go of what it holds when the socket closes. The consumers below know no feature."""

    async def receive_more(self, message: dict[str, Any]) -> bool:
        """A message the consumer does not know; True once a feature took it."""
        return False

    async def leave_more(self) -> None:
        """The socket is closing."""

    async def group_lost_more(self, group: str) -> bool:
        """The subscription of `group` was lost with its channel-layer shard (LimitedSocket's
        layer_lost); True once a feature took it (it joins the group again itself)."""
        return False


class Notified:
    """What every socket of a signed-in person does with a notification said to their group
    (notifications/publish.py): it tells the page, whose bell shows the unread count
    (static/js/core/bell.js). The page reads the words itself, in its language."""

    async def user_notified(self, message: dict[str, Any]) -> None:
        note = {
            "type": "notification",
            "unread": message["unread"],
            "kind": message["kind"],
            "url": message["url"],
        }
        await self.send(text_data=jsontext.dumps(note))  # type: ignore[attr-defined]


class LimitedSocket:
    """What every socket (game, lobby, table) does with a client's frame before reading it: the
    rate limit, then the size and depth limits. Each refusal is an `error` and the socket stays
    open, until a client keeps sending past its rate (REFUSALS_BEFORE_CLOSE): then it is closed
    with CLOSE_ABUSE. A consumer puts this class before Channels' and handles what passes in
    `receive_message`; its `send_json` sends one message.

    It also counts the socket while it is open (plumbing/metrics.py, by `socket_kind`) and its
    messages each way, and logs the session when it closes (plumbing/logs.py)."""

    socket_kind = "other"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.rate = RateLimit()
        self.opened_at: float | None = None
        self.messages_in = self.messages_out = 0

    def session_fields(self) -> dict[str, Any]:
        """What the session's log line says about what the socket was for (ids only)."""
        user = self.scope.get("user")
        return {"user": user.pk if user is not None and user.is_authenticated else None}

    async def accept(self, subprotocol: str | None = None, headers: Any = None) -> None:
        if self.opened_at is None:  # counted before the client can know it is open
            self.opened_at = time.monotonic()
            metrics.socket_opened(self.socket_kind)
        await super().accept(subprotocol, headers)  # type: ignore[misc]

    async def websocket_connect(self, message: dict[str, Any]) -> None:
        """Channels' own; a socket that could not join its groups (ShardDown: the consumer left
        the ones it had joined) is turned away with CLOSE_LATER."""
        try:
            await super().websocket_connect(message)  # type: ignore[misc]
        except ShardDown:
            await self.refuse(CLOSE_LATER)

    async def layer_lost(self, message: dict[str, Any]) -> None:
        """A group of this socket lived on a channel-layer shard that was lost: what was pushed to
        it meanwhile is gone. Closed with CLOSE_RESTART: the page comes back and reads it all anew.
        (The game socket keeps itself open when the group lost is not its game's: live/game.py.)"""
        await self.close(code=CLOSE_RESTART)

    async def send(
        self, text_data: str | None = None, bytes_data: bytes | None = None, close: bool = False
    ) -> None:
        self.messages_out += 1
        await super().send(text_data, bytes_data, close)  # type: ignore[misc]

    async def websocket_disconnect(self, message: dict[str, Any]) -> None:
        """Channels' own, less its closing of stale database connections on its one shared sync
        thread: every socket's close in the process queued there (a restarting server's closes
        waited on it until its bound and were cancelled). These sockets reach the database only
        through their thread-pool calls, which close their connections themselves
        (plumbing/dbthreads.py); they join no class-level `groups`."""
        try:
            await self.disconnect(message["code"])  # type: ignore[attr-defined]
            raise StopConsumer()
        finally:
            if self.opened_at is not None:
                metrics.socket_closed(self.socket_kind)
                log_socket(
                    kind=self.socket_kind,
                    fields=self.session_fields(),
                    duration_s=time.monotonic() - self.opened_at,
                    messages_in=self.messages_in,
                    messages_out=self.messages_out,
                    code=message.get("code"),
                )
                self.opened_at = None

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        ticket = next(_tickets)
        _in_hand.add(ticket)
        try:
            await self._receive(text_data)
        finally:
            _in_hand.discard(ticket)

    async def _receive(self, text_data: str | None) -> None:
        self.messages_in += 1
        if not self.rate.take():
            if self.rate.refused > REFUSALS_BEFORE_CLOSE:
                await self.close(code=CLOSE_ABUSE)
                return
            await self.send_json({"type": "error", "code": "rate_limited", "detail": "too many messages"})
            return
        try:
            message = parse_frame(text_data)
        except Refused as e:
            await self.send_json({"type": "error", "code": e.code, "detail": e.detail})
            return
        await self.receive_message(message)

    async def receive_message(self, message: Any) -> None:
        raise NotImplementedError

    async def refuse(self, code: int) -> None:
        """Turn a connecting socket away with `code` (CLOSE_REFUSED, CLOSE_TOO_MANY). Accepted
        first: a socket closed during its handshake reaches a client as HTTP 403 (a browser sees
        1006), which it cannot tell from a lost connection; the code tells it why and whether to
        try again."""
        self.turned_away = True
        await self.accept()
        await self.close(code=code)

    async def close_sanctioned(self, message: dict[str, Any]) -> None:
        """The user was suspended or banned (publish_user_sanctioned): say why, then close with
        CLOSE_SANCTIONED. Sent as it is, ahead of anything a socket holds back to batch."""
        await self.send(text_data=jsontext.dumps({"type": "sanctioned", **message["sanction"]}))
        await self.close(code=CLOSE_SANCTIONED)

    if TYPE_CHECKING:
        scope: dict[str, Any]

        async def send_json(self, data: dict[str, Any]) -> None: ...

        async def close(self, code: int | bool | None = None, reason: str | None = None) -> None: ...


REJOIN_EVERY_S = 1.0  # how often a socket tries again to join a group whose shard was lost


def rejoin_when_back(consumer: Any, group: str, then: Any = None) -> asyncio.Task[None]:
    """Join `group` again once its channel-layer shard answers (tried every REJOIN_EVERY_S, spread
    a little), for as long as the socket is open; then await `then()` when given (the table
    chat sends its history again)."""

    async def again() -> None:
        while True:
            await asyncio.sleep(REJOIN_EVERY_S * (0.5 + random.random()))
            task = getattr(consumer, "socket_task", None)
            if task is not None and task.done():
                return
            try:
                await consumer.channel_layer.group_add(group, consumer.channel_name)
            except ShardDown:
                continue
            if task is not None and task.done():  # closed meanwhile: its leaving is done
                await consumer.channel_layer.group_discard(group, consumer.channel_name)
                return
            if then is not None:
                await then()
            return

    task = asyncio.get_running_loop().create_task(again())
    _rejoining.add(task)  # held until done: the loop keeps only a weak reference
    task.add_done_callback(_rejoining.discard)
    return task


_rejoining: set[asyncio.Task[None]] = set()


# Messages being handled now, by any socket of the process: a stopping server lets the ones in
# hand finish (and answer) before it closes its sockets (harehra_site/management/commands/serve.py).
_tickets = itertools.count()
_in_hand: set[int] = set()


def messages_in_hand() -> frozenset[int]:
    """The messages being handled now (opaque tickets: compare with a later call)."""
    return frozenset(_in_hand)


# --- the process's sockets --------------------------------------------------------------------


class _Registry:
    def __init__(self) -> None:
        self.sockets: weakref.WeakSet[Any] = weakref.WeakSet()
        # Each user's sockets at each game, so a connect counts a few sockets, not all of them.
        self.by_user: dict[tuple[int, int], weakref.WeakSet[Any]] = {}
        # Each game's sockets and the last push delivered to them: the push's fan-out in this process.
        self.by_game: dict[int, weakref.WeakSet[Any]] = {}
        self.pushed: dict[int, int] = {}
        self.beat: threading.Thread | None = None  # the process's presence heartbeat

    def live(self) -> list[Any]:
        out = []
        for s in list(self.sockets):
            task = getattr(s, "socket_task", None)
            if task is None or task.done():
                self.sockets.discard(s)
            else:
                out.append(s)
        return out


_registry = _Registry()
_beat_lock = threading.Lock()


def socket_count(user_id: int, game_id: int) -> int:
    mine = _registry.by_user.get((user_id, game_id))
    if not mine:
        return 0
    for s in list(mine):
        if s.socket_task is None or s.socket_task.done():
            mine.discard(s)
    if not mine:
        del _registry.by_user[(user_id, game_id)]
    return len(mine)


def socket_register(consumer: Any, user_id: int | None, game_id: int) -> bool:
    """Count this socket; False (not counted) if the user already has the most a game allows."""
    consumer.socket_task = asyncio.current_task()
    consumer.user_id_for_limit = user_id
    consumer.game_id_for_limit = game_id
    if user_id is not None and socket_count(user_id, game_id) >= settings.SOCKETS_PER_USER_PER_GAME:
        return False
    _registry.sockets.add(consumer)
    _registry.by_game.setdefault(game_id, weakref.WeakSet()).add(consumer)
    if user_id is not None:
        _registry.by_user.setdefault((user_id, game_id), weakref.WeakSet()).add(consumer)
    _start_heartbeat()
    return True


def socket_unregister(consumer: Any) -> None:
    _registry.sockets.discard(consumer)
    game_id = getattr(consumer, "game_id_for_limit", None)
    at_game = _registry.by_game.get(game_id)  # type: ignore[arg-type]
    if at_game is not None:
        at_game.discard(consumer)
        if not at_game:
            del _registry.by_game[game_id]  # type: ignore[arg-type]
            _registry.pushed.pop(game_id, None)  # type: ignore[arg-type]
    key = (getattr(consumer, "user_id_for_limit", None), getattr(consumer, "game_id_for_limit", None))
    mine = _registry.by_user.get(key)  # type: ignore[arg-type]
    if mine is not None:
        mine.discard(consumer)
        if not mine:
            del _registry.by_user[key]  # type: ignore[arg-type]


def push_delivered(game_id: int, last_seq: int) -> None:
    """A push up to `last_seq` reached one of this process's sockets at the game; the first to
    receive it also records how many sockets the process has there (the push's fan-out here)."""
    if _registry.pushed.get(game_id) == last_seq:
        metrics.push_delivered(None)
        return
    _registry.pushed[game_id] = last_seq
    at_game = _registry.by_game.get(game_id)
    metrics.push_delivered(len(at_game) if at_game else 1)


def _seated_now() -> dict[asyncio.AbstractEventLoop, dict[tuple[int, int], int]]:
    """(game, seat) of every live seated socket of this process, with how many it has there, by
    the event loop they run on (a server has one); read from the heartbeat's thread while the
    loop adds and drops sockets: a set changed under the read is read again."""
    for _ in range(10):
        try:
            live = [
                s
                for s in list(_registry.sockets)
                if getattr(s, "socket_task", None) is not None and not s.socket_task.done()
            ]
            break
        except RuntimeError:  # the loop changed the set during the copy
            continue
    else:
        return {}
    out: dict[asyncio.AbstractEventLoop, dict[tuple[int, int], int]] = {}
    for s in live:
        seat = getattr(s, "presence_seat", None)
        if seat is not None:
            seats = out.setdefault(s.socket_task.get_loop(), {})
            key = (s.game_id_for_limit, seat)
            seats[key] = seats.get(key, 0) + 1
    return out


def _start_heartbeat() -> None:
    with _beat_lock:
        if _registry.beat is None or not _registry.beat.is_alive():
            _registry.beat = threading.Thread(target=_heartbeat, name="presence-heartbeat", daemon=True)
            _registry.beat.start()


def _heartbeat() -> None:
    """Every PRESENCE_HEARTBEAT_SECONDS, one cache write renews the presence of every seat this
    process has a live socket for, and a seat the sweep counted out while one of them was open
    is counted again (games/services/presence.py, presence_heartbeat).

    On a thread of its own, not on the event loop nor on the loop's thread pool: a loop held by
    other work, or a pool queued with every socket's database calls (a busy arena), delayed the
    renewal past the lease, and the sweep then showed a player whose page was open as offline."""
    from django.db import close_old_connections

    from games.services.presence import presence_heartbeat

    last = time.monotonic()
    while True:
        # Woken each second at most, so a changed period (tests change it) takes effect soon.
        time.sleep(max(0.0, min(1.0, last + settings.PRESENCE_HEARTBEAT_SECONDS - time.monotonic())))
        if time.monotonic() < last + settings.PRESENCE_HEARTBEAT_SECONDS:
            continue
        last = time.monotonic()
        looked_at = time.time()
        for loop, seats in _seated_now().items():
            # A game told of a seat counted again is told from the loop of its sockets, as from
            # their database threads (plumbing/publish.py, `sends_to_loop`).
            close_old_connections()
            try:
                with sends_to_loop(loop):
                    presence_heartbeat(seats, looked_at=looked_at)
            except Exception:
                import logging

                logging.getLogger(__name__).exception("presence heartbeat failed")
            finally:
                close_old_connections()
