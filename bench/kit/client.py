"""A scripted browser: pages that speak the pages' protocol (docs/PROTOCOL.md) over real sockets and
keep-alive HTTP as static/js/core/socket.js and core/gamesocket.js do, their waits read from those
scripts (`page_constants`; tests/test_page_copies.py compares both sides' rules)."""

from __future__ import annotations

import asyncio
import json
import math
import random
import re
import secrets
import time
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import AsyncIterator, Callable, Coroutine, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import urlparse

JS = Path(__file__).resolve().parents[2] / "static" / "js"
SEATS = 4
SPECTATOR_BIT = 1 << SEATS
HTTP_TIMEOUT_S = 30.0
LATE_ANSWER_S = 5.0  # an answer later than this is counted (the page holds its controls meanwhile)


def page_constants(script: Path) -> dict[str, float]:
    """The numbers a page script exports (`export const NAME = 123;`), by name."""
    found = re.findall(r"^export const ([A-Z_]+) = ([0-9.]+);", script.read_text(), re.MULTILINE)
    return {name: float(value) for name, value in found}


_SOCKET = page_constants(JS / "core" / "socket.js")
_GAMESOCKET = page_constants(JS / "core" / "gamesocket.js")
# core/socket.js: how every page's socket reconnects (see backoff_delay and after_close below).
FIRST_RETRY_S, BASE_S, CAP_S = (_SOCKET[n] / 1000 for n in ("FIRST_RETRY_MS", "BASE_MS", "CAP_MS"))
GROWTH, SLOW_TRIES = _SOCKET["GROWTH"], int(_SOCKET["SLOW_TRIES"])
RESTART_MIN_S, RESTART_SPREAD_S = _SOCKET["RESTART_MIN_MS"] / 1000, _SOCKET["RESTART_SPREAD_MS"] / 1000
# core/gamesocket.js: a game socket's ping, resend of an unanswered command, and resume again.
PING_S, RESEND_S, RESUME_RETRY_S = (
    _GAMESOCKET[n] / 1000 for n in ("PING_MS", "RESEND_MS", "RESUME_RETRY_MS")
)


async def connect(url: str, **options: Any) -> Any:
    """A websocket as the bench's pages open it: no compression (the servers decline
    permessage-deflate), no library pings (the pages send their own), no queue bound."""
    from websockets.asyncio.client import connect as ws_connect

    fixed = {"compression": None, "ping_interval": None, "open_timeout": 60, "max_queue": None}
    return await ws_connect(url, **{**fixed, "close_timeout": 2, "proxy": None, **options})


async def messages(ws: Any) -> AsyncIterator[tuple[float, list[dict[str, Any]]]]:
    """Each frame's arrival time and its messages (a `?batch=1` socket sends lists), until it closes."""
    from websockets.exceptions import ConnectionClosed

    try:
        async for raw in ws:
            now, data = time.monotonic(), json.loads(raw)
            yield now, data if isinstance(data, list) else [data]
    except ConnectionClosed:
        return


def send(ws: Any, data: dict[str, Any]) -> None:
    """Send without waiting: websockets' send does not wait while the write buffer has room, so a
    caller stays synchronous and never waits on one socket; a socket closed under it is ignored."""
    task = asyncio.ensure_future(ws.send(json.dumps(data, separators=(",", ":"))))
    task.add_done_callback(_ignore_closed)


def api(base: str, path: str, data: dict[str, Any] | None = None, token: str | None = None) -> Any:
    """One JSON request (POST with `data`, else GET), signed in by API token; its answer."""
    headers = {"Content-Type": "application/json", **({"Authorization": f"Token {token}"} if token else {})}
    body = json.dumps(data).encode() if data is not None else None
    req = urllib.request.Request(
        base + path, data=body, headers=headers, method="POST" if body is not None else "GET"
    )
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return json.load(r)
    except urllib.error.HTTPError as e:
        raise RuntimeError(f"{req.method} {path}: {e.code} {e.read()[:300]!r}") from None


@dataclass
class PageCounts:
    """The counters the pages keep, in the measured window unless said."""

    seq_gaps: int = 0
    resent: int = 0  # commands sent again on a new socket (no answer came on the lost one)
    reconnects: int = 0
    socket_frames: int = 0  # websocket frames received by all pages in the window
    other_messages: Counter[str] = field(default_factory=Counter)
    http_errors: Counter[str] = field(default_factory=Counter)  # "kind status" or "kind exception"
    http: Counter[str] = field(default_factory=Counter)  # requests started in the window, by kind
    http_connections: int = 0  # TCP connections opened in the window (keep-alive reuses the rest)
    lobby_messages: Counter[str] = field(default_factory=Counter)  # in the window, by type
    lobby_socket_unavailable: int = 0  # lobby pages that found no /ws/lobby/
    # Sockets lost while playing (by close code; 1006: no close frame), and how long each page took
    # to be back (its new socket open and the resume's view or state held), by the phase it was lost in.
    closes: Counter[int] = field(default_factory=Counter)
    back_s: list[float] = field(default_factory=list)
    refused: Counter[int] = field(default_factory=Counter)  # sockets the pages stopped retrying (4403, ...)
    # Reconnections: attempts that failed (by what failed), the handshakes that worked (seconds),
    # and from a new socket's opening to the page holding what it brought.
    reconnect_failures: Counter[str] = field(default_factory=Counter)
    handshake_s: list[float] = field(default_factory=list)
    resume_s: list[float] = field(default_factory=list)


class Run:
    """What the pages of one run share: their counters (a phase's: a bench may swap them) and the
    measured window."""

    def __init__(self, stats: PageCounts) -> None:
        self.stats = stats
        self.window = (math.inf, math.inf)
        self.playing = False  # past the connect phase: reconnects count
        self.stop_at = math.inf  # the games' schedules end here (bench/deploy.py sets it at its end)
        self.tasks: set[asyncio.Task[Any]] = set()
        # Every command a page sent and every answer it got, by cmd_id (bench/deploy.py checks
        # them against the log); None when nobody reads it.
        self.ledger: Any = None

    def in_window(self, now: float | None = None) -> bool:
        t = time.monotonic() if now is None else now
        return self.window[0] <= t < self.window[1]

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        task = asyncio.ensure_future(coro)
        self.tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[Any]) -> None:
        self.tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            self.stats.other_messages[f"task_failed:{type(task.exception()).__name__}"] += 1


def _ignore_closed(task: asyncio.Future[Any]) -> None:
    if not task.cancelled():
        task.exception()


def backoff_delay(attempt: int, rand: Callable[[], float] = random.random) -> float:
    """core/socket.js backoffDelay, in seconds: 0.25-0.5 s for the first try after a loss, then
    about 3.5 s growing by 1.6 a try up to 20 s, each wait +-25% at random."""
    if attempt <= 0:
        return FIRST_RETRY_S * (1 + rand())
    base = min(CAP_S, BASE_S * GROWTH ** (attempt - 1))
    return base * (0.75 + 0.5 * rand())


def after_close(
    code: int | None, attempt: int, slow_tries: int, rand: Callable[[], float] = random.random
) -> tuple[bool, float, bool]:
    """core/socket.js afterClose: (retry, delay in seconds, slow) after a close with `code`.
    4403/4401 stop; 4429/4008 retry slowly a few times; 1012 (a server restarting) waits 0.25 to
    1.25 s, evenly; 1013 skips the quick first try; anything else (1006: the connection just
    ended) retries at once."""
    if code in (4403, 4401):
        return False, 0.0, False
    if code in (4429, 4008):
        if slow_tries >= SLOW_TRIES:
            return False, 0.0, True
        return True, backoff_delay(max(attempt, 4), rand), True
    if code == 1012 and attempt <= 0:
        return True, RESTART_MIN_S + RESTART_SPREAD_S * rand(), False
    at = max(attempt, 1) if code in (1012, 1013) else attempt
    return True, backoff_delay(at, rand), False


class Http:
    """One page's HTTP connections to one server, reused while the server keeps them open; a second
    one opened only while the first is busy, as a browser would."""

    def __init__(self, run: Run, base_url: str, headers: dict[str, str]) -> None:
        parsed = urlparse(base_url)
        self.run = run
        self.host, self.port = parsed.hostname or "127.0.0.1", parsed.port or 80
        self.head = (
            f"Host: {self.host}:{self.port}\r\nAccept: */*\r\nUser-Agent: harehra-bench\r\n"
            + "".join(f"{k}: {v}\r\n" for k, v in headers.items())
        )
        self.idle: list[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = []

    async def request(
        self, method: str, path: str, kind: str, body: bytes | None = None
    ) -> tuple[int, bytes]:
        if self.run.in_window():
            self.run.stats.http[kind] += 1
        extra = "" if body is None else f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
        data = f"{method} {path} HTTP/1.1\r\n{self.head}{extra}\r\n".encode("latin-1") + (body or b"")
        for attempt in range(2):
            reused = attempt == 0 and bool(self.idle)
            conn = self.idle.pop() if reused else await self._open()
            try:
                conn[1].write(data)
                status, payload, keep = await asyncio.wait_for(_read_response(conn[0]), HTTP_TIMEOUT_S)
            except (OSError, asyncio.IncompleteReadError, ValueError):
                conn[1].close()
                # Uvicorn closes a connection idle for 5 s; a browser sends again on a new one.
                if reused:
                    self.close()  # the other idle ones are as old
                    continue
                raise
            if keep:
                self.idle.append(conn)
            else:
                conn[1].close()
            return status, payload
        raise AssertionError("unreachable")

    async def _open(self) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        if self.run.in_window():
            self.run.stats.http_connections += 1
        return await asyncio.open_connection(self.host, self.port)

    def close(self) -> None:
        for _, writer in self.idle:
            writer.close()
        self.idle.clear()


async def _read_response(reader: asyncio.StreamReader) -> tuple[int, bytes, bool]:
    line = await reader.readline()
    if not line:
        raise ConnectionResetError("closed before a response")
    status = int(line.split(None, 2)[1])
    length: int | None = None
    chunked, keep = False, True
    while True:
        h = await reader.readline()
        if not h:
            raise ConnectionResetError("closed in the headers")
        if h in (b"\r\n", b"\n"):
            break
        name, _, value = h.partition(b":")
        name, value = name.strip().lower(), value.strip().lower()
        if name == b"content-length":
            length = int(value)
        elif name == b"transfer-encoding" and b"chunked" in value:
            chunked = True
        elif name == b"connection" and value == b"close":
            keep = False
    if chunked:
        parts = []
        while True:
            size = int((await reader.readline()).split(b";")[0], 16)
            if size == 0:
                while (await reader.readline()) not in (b"\r\n", b"\n", b""):
                    pass
                break
            parts.append(await reader.readexactly(size))
            await reader.readexactly(2)
        return status, b"".join(parts), keep
    if length is not None:
        return status, await reader.readexactly(length), keep
    return status, await reader.read(), False


@dataclass
class Game:
    """What a page belongs to when no scenario reads what it sees (the lobby page, or a bench that
    reads its pages itself): the run, and the page's game (0: none)."""

    run: Run
    game_id: int = 0
    ended: bool = False


class Table(Protocol):
    """What a page tells the scenario it belongs to (a bench's game)."""

    run: Run
    game_id: int
    ended: bool

    def saw_event(self, seq: int, now: float) -> None: ...
    def held(self, page: SocketPage, seq: int, now: float) -> None: ...
    def on_ack(self, msg: dict[str, Any], now: float) -> None: ...
    def on_error(self, page: SeatPage, msg: dict[str, Any]) -> None: ...


class SocketPage:
    """A page with a socket (a game, watch or lobby page) and a keep-alive HTTP connection; its
    socket reconnects after a loss, as core/socket.js does."""

    bit = 0
    pings = True
    resumes = True  # a game page asks for what a gap missed; a watch page never does

    def __init__(self, game: Table, ws_base: str, http: Http) -> None:
        self.game, self.run, self.ws_base, self.http = game, game.run, ws_base, http
        self.ws: Any = None
        self.connected = asyncio.Event()
        self.closing = False
        self.seq = -1  # the seq of the view this page holds
        self.event_seq: int | None = None  # the last event seq on the socket
        self.resume_asked_at = -math.inf
        self.lost: tuple[float, Any] | None = None  # when its socket was lost while playing, the counts then
        self.opened_at = math.nan  # when its latest socket opened

    async def close(self) -> None:
        self.closing = True
        ws = self.ws
        if ws is not None:
            await ws.close()
        self.http.close()

    async def request(
        self, method: str, path: str, kind: str, body: bytes | None = None
    ) -> tuple[int, bytes] | None:
        """One HTTP request of the page; None when it failed (counted by kind)."""
        try:
            status, payload = await self.http.request(method, path, kind, body)
        except (OSError, asyncio.IncompleteReadError, ValueError, TimeoutError) as e:
            if self.counts_failures():
                self.run.stats.http_errors[f"{kind} {type(e).__name__}"] += 1
            return None
        if status != 200:
            self.run.stats.http_errors[f"{kind} {status}"] += 1
            return None
        return status, payload

    async def get(self, path: str, kind: str) -> Any:
        """GET `path` as JSON; None when it failed."""
        got = await self.request("GET", path, kind)
        return None if got is None else json.loads(got[1])

    def counts_failures(self) -> bool:
        return not self.game.ended and self.run.playing

    def socket_path(self) -> str:
        raise NotImplementedError

    def socket_missing(self) -> bool:
        """Whether to stop when its first socket fails, or closes before it brought anything: a
        page whose socket an older server may lack (the lobby's) counts itself and stops; a game
        page tries again."""
        return False

    def connect_options(self) -> dict[str, Any]:
        """How its socket opens beyond `connect`'s defaults (a browser's Origin and cookie, ...)."""
        return {}

    async def start(self) -> None:
        """What the page loads before it opens its socket."""

    def on_open(self, now: float) -> None:
        """The socket is open."""

    def on_message(self, msg: dict[str, Any], now: float) -> None:
        raise NotImplementedError

    async def run_page(self, sem: asyncio.Semaphore) -> None:
        """Open the socket and keep it open as core/socket.js does: after a loss, wait as
        `after_close` says (a failed handshake is a close without a code, 1006), then again."""
        from websockets.exceptions import ConnectionClosed, InvalidHandshake

        await self.start()
        first, attempt, slow_tries, ever_served = True, 0, 0, False
        while not self.closing:
            started = time.monotonic()
            try:
                url, options = self.ws_base + self.socket_path(), self.connect_options()
                if first:  # the bench opens its pages a few at a time
                    async with sem:
                        ws = await connect(url, **options)
                else:  # a page reconnects on its own time, whatever the others do
                    ws = await connect(url, **options)
            except (OSError, TimeoutError, ConnectionClosed, InvalidHandshake) as e:
                if self.closing:
                    return
                self.run.stats.other_messages[f"connect_failed:{type(e).__name__}"] += 1
                if first:
                    if self.socket_missing():
                        return
                    await asyncio.sleep(0.5)  # the connect phase: the server is busy accepting
                    continue
                status = getattr(getattr(e, "response", None), "status_code", None)
                self.run.stats.reconnect_failures[type(e).__name__ + (f" {status}" if status else "")] += 1
                retry, delay, _ = after_close(1006, attempt, slow_tries)
                attempt += 1
                await asyncio.sleep(delay)
                continue
            if not first and self.run.playing:
                self.run.stats.reconnects += 1
                self.run.stats.handshake_s.append(time.monotonic() - started)
            first = False
            self.opened_at = time.monotonic()
            self.ws = ws
            self.on_open(time.monotonic())
            pinger = asyncio.create_task(self._ping()) if self.pings else None
            served = False
            try:
                async for now, batch in messages(ws):
                    if not served:  # counted from a connection that served something (socket.js)
                        served, attempt, slow_tries, ever_served = True, 0, 0, True
                    if self.run.in_window(now):
                        self.run.stats.socket_frames += 1
                    for msg in batch:
                        self.on_message(msg, now)
            finally:
                if pinger is not None:
                    pinger.cancel()
                self.ws = None
                self.connected.clear()
            if self.closing or (not ever_served and self.socket_missing()):
                return
            code = ws.close_code if ws.close_code is not None else 1006
            stats = self.run.stats
            if self.run.playing:
                stats.closes[code] += 1
                if self.lost is None:
                    self.lost = (time.monotonic(), stats)
            retry, delay, slow = after_close(code, attempt, slow_tries)
            if not retry:
                stats.refused[code] += 1
                return
            attempt += 1
            slow_tries += slow
            await asyncio.sleep(delay)

    def came_back(self, now: float) -> None:
        """The page holds what its new socket brought after a loss: it is back."""
        if self.lost is not None:
            lost_at, stats = self.lost
            stats.back_s.append(now - lost_at)
            stats.resume_s.append(now - self.opened_at)
            self.lost = None

    async def _ping(self) -> None:
        while True:
            await asyncio.sleep(PING_S)
            self.send({"type": "ping"})

    def send(self, data: dict[str, Any]) -> bool:
        ws = self.ws
        if ws is None:
            return False
        send(ws, data)
        return True

    def on_event_seq(self, seq: int, now: float) -> bool:
        """A game page: only in-order events pass; a gap asks the server to resume from the last one.
        (A watch page reads no seqs: it takes every event, and a gap is only counted.)"""
        if self.event_seq is None or seq <= self.event_seq:
            return False
        if seq > self.event_seq + 1:
            if self.resumes:
                self.ask_resume(now)
                return False
            self.run.stats.seq_gaps += 1
        self.event_seq = seq
        self.resume_asked_at = -math.inf
        self.game.saw_event(seq, now)
        return True

    def ask_resume(self, now: float) -> None:
        if now - self.resume_asked_at > RESUME_RETRY_S:
            self.run.stats.seq_gaps += 1
            self.resume_asked_at = now
            self.send({"type": "resume", "after": self.event_seq})


class SeatPage(SocketPage):
    """The game page at one seat (static/js/game/, core/gamesocket.js), signed in by API token."""

    def __init__(self, game: Table, seat: int, token: str, ws_base: str, http_base: str) -> None:
        super().__init__(game, ws_base, Http(game.run, http_base, {"Authorization": f"Token {token}"}))
        self.seat, self.token, self.bit = seat, token, 1 << seat
        self.view: dict[str, Any] = {}
        self.legal: list[dict[str, Any]] = []
        self.status = "running"
        # core/gamesocket.js: commands not yet answered (with when each was last sent), sent again
        # on every new connection and every RESEND_S on an open one until their answer comes.
        self.unacked: dict[str, tuple[dict[str, Any], float]] = {}

    def socket_path(self) -> str:
        # The first connection gets a `state`; a reconnection names its last seq and gets what it
        # missed (and, from the new server, a `view` after it).
        after = "" if self.event_seq is None else f"&after={self.event_seq}"
        return f"/ws/games/{self.game.game_id}/?batch=1{after}&token={self.token}"

    def on_open(self, now: float) -> None:
        if self.event_seq is not None:
            self.connected.set()
        # gamesocket.js resend(): what the lost socket never answered, same cmd_id, in order.
        for cmd_id, (message, _) in list(self.unacked.items()):
            if self.send(message):
                self.unacked[cmd_id] = (message, now)
                self.run.stats.resent += 1

    @property
    def over(self) -> bool:
        return self.status != "running" or bool(self.view.get("over"))

    def hold(self, seq: int, data: dict[str, Any], now: float) -> None:
        if seq < self.seq:
            return
        self.seq, self.view, self.legal = seq, data["view"], data.get("legal") or []
        self.status = data.get("status") or self.status
        self.game.held(self, seq, now)

    def on_message(self, msg: dict[str, Any], now: float) -> None:
        kind = msg.get("type")
        if kind == "event":
            self.on_event_seq(msg["seq"], now)
        elif kind == "view":
            if self.event_seq is not None and msg["seq"] > self.event_seq:
                self.ask_resume(now)  # some of its events never came
                return
            self.came_back(now)
            self.hold(msg["seq"], msg, now)
        elif kind == "state":
            self.event_seq = msg["seq"]
            self.seq = -1  # a fresh state replaces whatever the page held
            self.connected.set()
            self.came_back(now)
            self.hold(msg["seq"], msg, now)
            self.run.spawn(self.get(f"/api/games/{self.game.game_id}/events/?after=0", "history"))
        elif kind == "ack":
            self.unacked.pop(str(msg.get("cmd_id")), None)
            self.game.on_ack(msg, now)
        elif kind == "error":
            if "cmd_id" in msg:
                self.unacked.pop(str(msg["cmd_id"]), None)
            self.game.on_error(self, msg)
        elif kind not in ("deadline", "presence", "pong"):
            self.run.stats.other_messages[str(kind)] += 1

    def command(self, cmd: dict[str, Any]) -> bool:
        """gamesocket.js command(): send now (not kept when the socket is down); keep it to send
        again, naming the seq the page had seen (expected_seq), until its answer comes."""
        if not (self.connected.is_set() and self.send(cmd)):
            return False
        kept = dict(cmd)
        if "expected_seq" not in kept and self.event_seq is not None:
            kept["expected_seq"] = self.event_seq
        self.unacked[str(cmd["cmd_id"])] = (kept, time.monotonic())
        self.run.spawn(self.resend_until_answered(str(cmd["cmd_id"])))
        return True

    async def resend_until_answered(self, cmd_id: str) -> None:
        """gamesocket.js resendUnanswered(): once a second, send the command again if it was last
        sent RESEND_S ago or more, until it is answered (or the page closes)."""
        while cmd_id in self.unacked and not self.closing:
            await asyncio.sleep(1.0)
            kept = self.unacked.get(cmd_id)
            now = time.monotonic()
            if kept is not None and now - kept[1] >= RESEND_S and self.send(kept[0]):
                self.unacked[cmd_id] = (kept[0], now)
                self.run.stats.resent += 1


class WatchPage(SocketPage):
    """The watch page: an anonymous spectator, its frames pushed with each move."""

    bit = SPECTATOR_BIT
    pings = False  # the watch page sends none
    resumes = False

    def __init__(self, game: Table, ws_base: str, http_base: str) -> None:
        super().__init__(game, ws_base, Http(game.run, http_base, {}))
        self.frames = 0
        self.over = False
        self.client_id = secrets.token_hex(16)
        self.refreshing = self.refresh_again = False

    @property
    def frames_url(self) -> str:
        return f"/api/replays/{self.game.game_id}/frames/?perspective=spectator"

    async def start(self) -> None:
        await self.request("GET", f"/watch/{self.game.game_id}/", "page")
        d = await self.get(self.frames_url + "&from=0", "frames")
        if d is not None:
            self.add_frames(d["frames"], time.monotonic())
        self.run.spawn(self.heartbeats())

    def socket_path(self) -> str:
        return f"/ws/games/{self.game.game_id}/?batch=1&frames=1&after={max(self.seq, 0)}"

    def on_open(self, now: float) -> None:
        self.event_seq = max(self.seq, 0)
        self.connected.set()

    def add_frames(self, frames: list[dict[str, Any]], now: float) -> None:
        self.frames += len(frames)
        if frames:
            self.over = self.over or bool(frames[-1].get("state", {}).get("over"))
            self.seq = max(self.seq, frames[-1]["seq"])
            self.game.held(self, self.seq, now)

    def on_message(self, msg: dict[str, Any], now: float) -> None:
        kind = msg.get("type")
        if kind == "event":
            self.on_event_seq(msg["seq"], now)
        elif kind == "view":
            self.came_back(now)
            self.over = self.over or msg.get("status") not in (None, "running")
            frames = msg.get("frames") or []
            if frames:
                if frames[0].get("step", self.frames) > self.frames:
                    self.run.spawn(self.refresh())  # a push was lost: read the frames it had
                else:
                    self.add_frames([f for f in frames if f.get("step", self.frames) >= self.frames], now)
            elif msg["seq"] > self.seq:
                self.run.spawn(self.refresh())  # a resume's view brings no frames
        elif kind == "state":
            self.came_back(now)
            self.event_seq = msg["seq"]
            self.run.spawn(self.refresh())  # frames from the count it has up to the state's seq
        elif kind not in ("deadline", "presence", "pong", "ack", "error", "watchers"):
            self.run.stats.other_messages[f"watch:{kind}"] += 1

    async def refresh(self) -> None:
        """The frames from the count it has, one request at a time: a refresh asked for while one
        runs makes it ask once more when it ends, so the page ends holding the latest."""
        if self.refreshing:
            self.refresh_again = True
            return
        self.refreshing = True
        try:
            while True:
                self.refresh_again = False
                d = await self.get(f"{self.frames_url}&from={self.frames}", "frames")
                if d is not None:
                    self.add_frames(d["frames"], time.monotonic())
                if not self.refresh_again or self.closing:
                    break
        finally:
            self.refreshing = False

    async def heartbeats(self) -> None:
        """The page beats over its socket while it is open, else over HTTP."""
        every = 10.0
        while not self.closing and not self.over:
            if self.send({"type": "watching", "client_id": self.client_id}):
                await asyncio.sleep(every)
                continue
            body = json.dumps({"client_id": self.client_id, "leaving": False}).encode()
            got = await self.request("POST", f"/api/replays/{self.game.game_id}/watchers/", "heartbeat", body)
            if got is not None:
                every = float(json.loads(got[1]).get("heartbeat") or every)
            await asyncio.sleep(every)


class LobbyPage(SocketPage):
    """The lobby page: a GET of the page, then its socket (no pings: it sends nothing)."""

    pings = False

    def __init__(self, run: Run, ws_base: str, http_base: str) -> None:
        super().__init__(Game(run), ws_base, Http(run, http_base, {}))

    async def start(self) -> None:
        await self.request("GET", "/lobby/", "page")

    def socket_path(self) -> str:
        return "/ws/lobby/"

    def socket_missing(self) -> bool:
        self.run.stats.lobby_socket_unavailable += 1
        self.connected.set()  # ready: the bench goes on without it
        return True

    def on_message(self, msg: dict[str, Any], now: float) -> None:
        self.came_back(now)  # back after a loss: the new socket's first message
        self.connected.set()
        if self.run.in_window(now):
            self.run.stats.lobby_messages[str(msg.get("type"))] += 1


@asynccontextmanager
async def pages_open(
    run: Run,
    pages: Sequence[SocketPage],
    lobbies: Sequence[LobbyPage],
    sem_of: Callable[[SocketPage], asyncio.Semaphore],
    timeout: float,
    what: str,
) -> AsyncIterator[float]:
    """Every page opened (its first socket a few at a time: `sem_of` a page's semaphore) and ready;
    the seconds that took. At the end every page is closed and the run's tasks are stopped.
    `what` names what was not ready in time ("game sockets were open")."""
    t0 = time.monotonic()
    tasks = [asyncio.create_task(p.run_page(sem_of(p))) for p in pages]
    anytime = asyncio.Semaphore(len(lobbies) or 1)  # the lobby pages open all at once
    tasks += [asyncio.create_task(lobby.run_page(anytime)) for lobby in lobbies]
    try:
        ready = [p.connected.wait() for p in [*pages, *lobbies]]
        try:
            await asyncio.wait_for(asyncio.gather(*ready), timeout=timeout)
        except TimeoutError:
            n = sum(p.connected.is_set() for p in pages)
            raise RuntimeError(f"only {n} of {len(pages)} {what} after {timeout:g} s") from None
        yield time.monotonic() - t0
    finally:
        run.playing = False
        await asyncio.gather(*(p.close() for p in [*pages, *lobbies]), return_exceptions=True)
        await asyncio.wait(tasks, timeout=5)
        for t in [*tasks, *run.tasks]:
            t.cancel()
        await asyncio.gather(*tasks, *run.tasks, return_exceptions=True)
