"""bench_live's realistic browser mix (`--mix browser`): clients that do what the site's pages do.

The scripted mode (`live.py`) folds events into a private view and never touches HTTP. Here every
client is one open browser page:

- a game page per seat (4 per game): its socket (`?batch=1`, a ping every 20 s, the history GET on
  every `state`), and per move either the pushed `view` message (`--client new`) or, as
  static/js/game.js does today (`--client old`), `GET /api/games/<id>/` 40 ms after the last event
  of a push, one request in flight and one more queued if events came meanwhile;
- a watch page on every fourth game (anonymous: the tables are public): the frames it starts from,
  its socket, and per move either the `view` message with `frames` (`new`, `?batch=1&frames=1`) or,
  as static/js/watch.js does, `GET /api/replays/<id>/frames/?perspective=spectator&from=<frames>` on
  every event message, one in flight and one queued; a watchers heartbeat POST every 10 s;
- a lobby page per ten players: `/ws/lobby/` (`new`) or `GET /lobby/?fragment=1` every 2 s after the
  previous answer (`old`, static/js/poll.js). When the server has no lobby socket, a `new` lobby
  page polls as the old one does and the report says so.

Every page keeps its HTTP/1.1 connection alive between requests, as a browser does.

Each game is driven open loop: decisions are scheduled with exponential gaps (mean `mean_gap`),
independent of the server's answers. A scheduled decision is sent by the seat whose latest view
says it must decide, chosen at random from that view's `legal`, once that seat's page holds a view
as new as everything the game has pushed (a person can't answer a turn they haven't seen). Until
then the decision waits ("wait" in the report); decisions due meanwhile queue behind it, so the
schedule's rate is kept as long as the server keeps up.

Latency of a move: from its send to the moment the last page of its table (4 seats, and the watch
page if any) holds a view at least as new as the move's first event.
"""

from __future__ import annotations

import asyncio
import gc
import json
import math
import os
import random
import secrets
import statistics
import tempfile
import time
from collections import Counter, deque
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlparse

import uvloop

from bench.live import (
    DEFAULT_DATABASE_URL,
    DEFAULT_REDIS_URL,
    ROOT,
    SEATS,
    GameSpec,
    cpu_snapshot,
    pids_named,
    prepared_stack,
    raise_file_limit,
    ref_worktree,
    reported,
    stack_processes,
    write_report,
)
from bench.service import percentile, process_cpu_seconds

Client = Literal["new", "old"]

# What the site must do, and what it aims for: 600 games at one command per
# 4 s each with spectators and lobby watchers, on one or two server processes.
MUST_GAMES, MUST_SERVERS, MUST_P50_MS, MUST_P99_MS = 600, 2, 20.0, 150.0
GOAL_GAMES, GOAL_P99_MS, GOAL_SERVER_CPU_MS = 1200, 100.0, 4.0
MUST_SENT_SHARE = 0.98  # of the scheduled decisions; a few queued at the window's end are not lost

# The pages' own timings (static/js/*.js; those of core/ are checked by tests/test_page_copies.py).
REFRESH_DEBOUNCE_S = 0.040  # game.js refreshSoon()
PING_S = 20.0  # core/gamesocket.js PING_MS
RESEND_S = 5.0  # core/gamesocket.js RESEND_MS: an unanswered command is sent again this often
LATE_ANSWER_S = 5.0  # an answer later than this is counted (the page holds its controls meanwhile)
LOBBY_POLL_S = 2.0  # poll.js
RESUME_RETRY_S = 3.0  # core/gamesocket.js RESUME_RETRY_MS (askResume)
# core/socket.js: how every page's socket reconnects (see backoff_delay and after_close below).
FIRST_RETRY_S, BASE_S, GROWTH, CAP_S, SLOW_TRIES = 0.25, 3.5, 1.6, 20.0, 3
RESTART_MIN_S, RESTART_SPREAD_S = 0.25, 1.0
HTTP_TIMEOUT_S = 30.0
SPECTATOR_BIT = 1 << SEATS


@dataclass(frozen=True)
class BrowserConfig:
    games: int = 10
    servers: int = 1
    client: Client = "new"
    mean_gap: float = 4.0  # seconds between a game's decisions, on average (exponential gaps)
    duration: float = 20.0  # measured seconds
    warmup: float = 5.0  # driven but not measured
    drain: float = 5.0  # after the window: wait this long at most for moves in flight
    jitter_seconds: float = 3.0  # how long the machine's wake-up jitter is timed before the run
    database_url: str = DEFAULT_DATABASE_URL
    redis_url: str = DEFAULT_REDIS_URL
    migrate: bool = True
    worker: bool = True
    connect_concurrency: int = 4  # websocket handshakes in flight at once, per server
    connect_timeout: float = 180.0
    seed: int = 1
    route: Literal["seat", "game"] = "seat"
    spectator_every: int = 4  # a watch page on games 0, 4, 8, ...
    players_per_lobby_watcher: int = 10
    server_env: tuple[tuple[str, str], ...] = ()
    log_dir: Path = field(default_factory=lambda: Path(tempfile.gettempdir()) / "harehra-bench-live")
    code_root: Path = ROOT  # the checkout the servers run
    code_label: str = "this checkout"
    # "close": the servers' HTTP requests close their database connection when they end (a settings
    # shim, see HTTP_DB_SHIM); "persistent": the servers exactly as configured (CONN_MAX_AGE=60).
    http_db: Literal["close", "persistent"] = "close"

    @property
    def spectators(self) -> int:
        return len(range(0, self.games, self.spectator_every)) if self.spectator_every > 0 else 0

    @property
    def lobby_watchers(self) -> int:
        players = self.games * SEATS
        return players // self.players_per_lobby_watcher if self.players_per_lobby_watcher > 0 else 0


@dataclass
class BrowserStats:
    latencies_ms: list[float] = field(default_factory=list)  # send -> last page of the table holds it
    ack_ms: list[float] = field(default_factory=list)
    wait_ms: list[float] = field(default_factory=list)  # scheduled -> sent (the mover's view came late)
    scheduled: int = 0  # decisions due in the window (games still running)
    sent: int = 0  # in the window
    acked: int = 0
    completed: int = 0
    sent_total: int = 0
    left_queued: int = 0  # due in the window, still waiting for their mover when it ended
    late_answers: int = 0  # commands answered more than LATE_ANSWER_S after they were first sent
    errors: Counter[str] = field(default_factory=Counter)  # refused commands, by code
    http_errors: Counter[str] = field(default_factory=Counter)  # "kind status" or "kind exception"
    http: Counter[str] = field(default_factory=Counter)  # requests started in the window, by kind
    http_connections: int = 0  # TCP connections opened in the window (keep-alive reuses the rest)
    socket_frames: int = 0  # websocket frames received by all pages in the window
    reconnects: int = 0
    seq_gaps: int = 0
    games_ended: int = 0
    unfinished: int = 0  # sent in the window, not held by every page of the table after the drain
    unfinished_total: int = 0
    lobby_messages: Counter[str] = field(default_factory=Counter)  # in the window, by type
    lobby_socket_unavailable: int = 0  # lobby pages that found no /ws/lobby/ and polled instead
    other_messages: Counter[str] = field(default_factory=Counter)
    # Sockets lost while playing (by close code; 1006: no close frame), and how long each page took
    # to be back (its new socket open and the resume's view or state held), by the phase it was lost in.
    closes: Counter[int] = field(default_factory=Counter)
    back_s: list[float] = field(default_factory=list)
    refused: Counter[int] = field(default_factory=Counter)  # sockets the pages stopped retrying (4403, ...)
    resent: int = 0  # commands sent again on a new socket (no answer came on the lost one)
    # Reconnections: attempts that failed (by what failed), the handshakes that worked (seconds),
    # and from a new socket's opening to the page holding what it brought.
    reconnect_failures: Counter[str] = field(default_factory=Counter)
    handshake_s: list[float] = field(default_factory=list)
    resume_s: list[float] = field(default_factory=list)
    bot_wait_s: list[float] = field(default_factory=list)  # a bot's turn shown -> its move shown


@dataclass
class BrowserResult:
    config: BrowserConfig
    stats: BrowserStats
    setup_s: float
    connect_s: float
    window_s: float
    cpu_s: dict[str, float]
    lines: list[str]
    reference_ms: float = math.nan
    jitter_ms: tuple[float, ...] = ()

    def per_second(self, n: int) -> float:
        return n / self.window_s if self.window_s else 0.0

    def cpu_ms_per_move(self, *labels: str) -> float:
        """CPU ms per move sent in the window, summed over the labels that start with any of `labels`."""
        if not self.stats.sent:
            return math.nan
        total = sum(v for k, v in self.cpu_s.items() if k.startswith(labels))
        return 1000 * total / self.stats.sent

    @property
    def http_per_move(self) -> float:
        return sum(self.stats.http.values()) / self.stats.sent if self.stats.sent else math.nan

    @property
    def clean(self) -> bool:
        s = self.stats
        return not (s.errors or s.http_errors or s.seq_gaps or s.unfinished or s.late_answers or s.reconnects)


# Django under ASGI runs each HTTP request's view on a thread of its own, so with persistent
# connections (CONN_MAX_AGE > 0, as docs/OPERATIONS.md runs production and live_stack runs its servers)
# every request opens a PostgreSQL connection that outlives it: a few dozen GETs a second take
# PostgreSQL to max_connections within seconds and every request fails. The sockets' database
# threads are long-lived and keep theirs. Until the server deals with it, the browser mix runs the
# servers with these settings: the site's own, and an HTTP request's connection closed at its end
# (what Django advises for ASGI without a pool: each request pays a connection's set-up).
HTTP_DB_SHIM = '''"""bench_live --mix browser: the site's settings; HTTP requests close their connection."""

from harehra_site.settings import *  # noqa: F403

from django.core.signals import request_finished as _finished
from django.db import connections as _connections


def _close(**kwargs):
    for conn in _connections.all(initialized_only=True):
        conn.close()


_finished.connect(_close, dispatch_uid="harehra-bench-close-http")
'''


def http_db_env(cfg: BrowserConfig) -> dict[str, str]:
    """Extra environment for the servers: the settings shim above, unless `persistent`."""
    if cfg.http_db == "persistent":
        return {}
    folder = cfg.log_dir / "settings-shim"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "harehra_bench_settings.py").write_text(HTTP_DB_SHIM)
    path = os.pathsep.join(p for p in (str(folder), os.environ.get("PYTHONPATH", "")) if p)
    return {"DJANGO_SETTINGS_MODULE": "harehra_bench_settings", "PYTHONPATH": path}


# --- HTTP/1.1 with keep-alive, as a browser page keeps its connection --------------------------------


class Http:
    """One page's HTTP connections to one server: reused while the server keeps them open.

    A page has at most a couple of requests in flight (its refresh and a heartbeat), so it opens a
    second connection only while the first is busy, as a browser would.
    """

    def __init__(self, ctx: RunContext, base_url: str, headers: dict[str, str]) -> None:
        parsed = urlparse(base_url)
        self.ctx = ctx
        self.host, self.port = parsed.hostname or "127.0.0.1", parsed.port or 80
        self.head = (
            f"Host: {self.host}:{self.port}\r\nAccept: */*\r\nUser-Agent: harehra-bench\r\n"
            + "".join(f"{k}: {v}\r\n" for k, v in headers.items())
        )
        self.idle: list[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = []

    async def request(
        self, method: str, path: str, kind: str, body: bytes | None = None, headers: str = ""
    ) -> tuple[int, bytes]:
        self.ctx.count_http(kind)
        extra = headers
        if body is not None:
            extra += f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
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
        self.ctx.count_connection()
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


# --- the run's shared context ------------------------------------------------------------------------


class RunContext:
    def __init__(self, cfg: BrowserConfig, stats: BrowserStats) -> None:
        self.cfg, self.stats = cfg, stats
        self.window = (math.inf, math.inf)
        self.playing = False  # past the connect phase: reconnects count
        self.stop_at = math.inf  # the games' schedules end here (bench/deploy.py sets it at its end)
        self.tasks: set[asyncio.Task[Any]] = set()
        # Every command a page sent and every answer it got, by cmd_id (bench/deploy.py checks
        # them against the log); None when nobody reads it.
        self.ledger: Ledger | None = None

    def in_window(self, now: float | None = None) -> bool:
        t = time.monotonic() if now is None else now
        return self.window[0] <= t < self.window[1]

    def count_http(self, kind: str) -> None:
        if self.in_window():
            self.stats.http[kind] += 1

    def count_connection(self) -> None:
        if self.in_window():
            self.stats.http_connections += 1

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        task = asyncio.ensure_future(coro)
        self.tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[Any]) -> None:
        self.tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            self.stats.other_messages[f"task_failed:{type(task.exception()).__name__}"] += 1


@dataclass
class Ledger:
    """The commands of a run and their answers: what the pages were told, to hold against the log."""

    sent: dict[str, tuple[int, int]] = field(default_factory=dict)  # cmd_id -> (game, seat)
    acks: dict[str, list[tuple[int | None, bool]]] = field(
        default_factory=dict
    )  # cmd_id -> [(seq, duplicate)]
    errors: dict[str, list[str]] = field(default_factory=dict)  # cmd_id -> codes
    # Where each command was sent, by the phase (the stats) it was sent in.
    phase_of: dict[str, BrowserStats] = field(default_factory=dict)


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


async def _connect(url: str) -> Any:
    from websockets.asyncio.client import connect

    # No compression: the servers decline permessage-deflate (serve sets ws_per_message_deflate off).
    return await connect(
        url,
        compression=None,
        ping_interval=None,
        open_timeout=60,
        close_timeout=2,
        max_queue=None,
        proxy=None,
    )


# --- pages ---------------------------------------------------------------------------------------------


class _Page:
    """What every page holds: its socket (if open) and its keep-alive HTTP connection."""

    ws: Any
    http: Http
    closing: bool

    async def close(self) -> None:
        self.closing = True
        ws = self.ws
        if ws is not None:
            await ws.close()
        self.http.close()


class SocketPage(_Page):
    """A page with a live game socket: reconnects after a loss, as live.js does."""

    bit = 0
    pings = True
    resumes = True  # live.js asks for what a gap missed; watch.js never does

    def __init__(self, game: BrowserGame, ws_base: str, http: Http) -> None:
        self.game, self.ctx, self.ws_base, self.http = game, game.ctx, ws_base, http
        self.ws: Any = None
        self.connected = asyncio.Event()
        self.closing = False
        self.seq = -1  # the seq of the view this page holds
        self.event_seq: int | None = None  # the last event seq on the socket
        self.resume_asked_at = -math.inf
        self.refreshing = False
        self.refresh_again = False
        self.lost: tuple[float, BrowserStats] | None = None  # when its socket was lost while playing
        self.opened_at = math.nan  # when its latest socket opened

    def socket_path(self) -> str:
        raise NotImplementedError

    async def start(self) -> None:
        """What the page loads before it opens its socket."""

    def on_open(self, now: float) -> None:
        """The socket is open."""

    def on_message(self, msg: dict[str, Any], now: float) -> None:
        raise NotImplementedError

    async def fetch(self) -> None:
        """One request that brings the page up to date (its view, or its frames)."""
        raise NotImplementedError

    async def refresh(self) -> None:
        """`fetch`, one at a time, as live.js and watch.js do: a refresh asked for while one
        runs makes it fetch once more when it ends, so the page ends holding the latest."""
        if self.refreshing:
            self.refresh_again = True
            return
        self.refreshing = True
        try:
            while True:
                self.refresh_again = False
                await self.fetch()
                if not self.refresh_again or self.closing:
                    break
        finally:
            self.refreshing = False

    async def run(self, sem: asyncio.Semaphore) -> None:
        """Open the socket and keep it open as core/socket.js does: after a loss, wait as
        `after_close` says (a failed handshake is a close without a code, 1006), then again."""
        from websockets.exceptions import ConnectionClosed, InvalidHandshake

        await self.start()
        first, attempt, slow_tries = True, 0, 0
        while not self.closing:
            started = time.monotonic()
            try:
                if first:  # the bench opens its pages a few at a time
                    async with sem:
                        ws = await _connect(self.ws_base + self.socket_path())
                else:  # a page reconnects on its own time, whatever the others do
                    ws = await _connect(self.ws_base + self.socket_path())
            except (OSError, TimeoutError, ConnectionClosed, InvalidHandshake) as e:
                if self.closing:
                    return
                self.ctx.stats.other_messages[f"connect_failed:{type(e).__name__}"] += 1
                if first:
                    await asyncio.sleep(0.5)  # the connect phase: the server is busy accepting
                    continue
                status = getattr(getattr(e, "response", None), "status_code", None)
                self.ctx.stats.reconnect_failures[type(e).__name__ + (f" {status}" if status else "")] += 1
                retry, delay, _ = after_close(1006, attempt, slow_tries)
                attempt += 1
                await asyncio.sleep(delay)
                continue
            if not first and self.ctx.playing:
                self.ctx.stats.reconnects += 1
                self.ctx.stats.handshake_s.append(time.monotonic() - started)
            first = False
            self.opened_at = time.monotonic()
            self.ws = ws
            self.on_open(time.monotonic())
            pinger = asyncio.create_task(self._ping(ws)) if self.pings else None
            served = False
            try:
                async for raw in ws:
                    now = time.monotonic()
                    if not served:  # counted from a connection that served something (socket.js)
                        served, attempt, slow_tries = True, 0, 0
                    if self.ctx.in_window(now):
                        self.ctx.stats.socket_frames += 1
                    data = json.loads(raw)
                    for msg in data if isinstance(data, list) else [data]:
                        self.on_message(msg, now)
            except ConnectionClosed:
                pass
            finally:
                if pinger is not None:
                    pinger.cancel()
                self.ws = None
                self.connected.clear()
            if self.closing:
                return
            code = ws.close_code if ws.close_code is not None else 1006
            now = time.monotonic()
            if self.ctx.playing:
                self.ctx.stats.closes[code] += 1
                if self.lost is None:
                    self.lost = (now, self.ctx.stats)
            retry, delay, slow = after_close(code, attempt, slow_tries)
            if not retry:
                self.ctx.stats.refused[code] += 1
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

    async def _ping(self, ws: Any) -> None:
        while True:
            await asyncio.sleep(PING_S)
            self.send({"type": "ping"})

    def send(self, data: dict[str, Any]) -> bool:
        ws = self.ws
        if ws is None:
            return False
        task = asyncio.ensure_future(ws.send(json.dumps(data, separators=(",", ":"))))
        task.add_done_callback(_ignore_closed)
        return True

    def on_event_seq(self, seq: int) -> bool:
        """live.js: only in-order events pass; a gap asks the server to resume from the last one.
        (watch.js reads no seqs: its pages take every event, and a gap is only counted.)"""
        if self.event_seq is None or seq <= self.event_seq:
            return False
        if seq > self.event_seq + 1:
            now = time.monotonic()
            if self.resumes:
                self.ask_resume(now)
                return False
            self.ctx.stats.seq_gaps += 1
        self.event_seq = seq
        self.resume_asked_at = -math.inf
        self.game.saw_event(seq)
        return True

    def ask_resume(self, now: float) -> None:
        if now - self.resume_asked_at > RESUME_RETRY_S:
            self.ctx.stats.seq_gaps += 1
            self.resume_asked_at = now
            self.send({"type": "resume", "after": self.event_seq})


class SeatPage(SocketPage):
    """static/js/game.js at one seat."""

    def __init__(self, game: BrowserGame, seat: int, token: str, ws_base: str, http_base: str) -> None:
        super().__init__(game, ws_base, Http(game.ctx, http_base, {"Authorization": f"Token {token}"}))
        self.seat, self.token, self.bit = seat, token, 1 << seat
        self.view: dict[str, Any] = {}
        self.legal: list[dict[str, Any]] = []
        self.status = "running"
        self.refresh_timer: asyncio.TimerHandle | None = None
        # core/gamesocket.js: commands not yet answered (with when each was last sent), sent again
        # on every new connection and every RESEND_S on an open one until their answer comes.
        self.unacked: dict[str, tuple[dict[str, Any], float]] = {}

    def socket_path(self) -> str:
        # live.js: the first connection gets a `state`; a reconnection names its last seq and gets
        # what it missed (and, from the new server, a `view` after it).
        after = "" if self.event_seq is None else f"&after={self.event_seq}"
        return f"/ws/games/{self.game.game_id}/?batch=1{after}&token={self.token}"

    def on_open(self, now: float) -> None:
        if self.event_seq is not None:
            self.connected.set()
        # gamesocket.js resend(): what the lost socket never answered, same cmd_id, in order.
        for cmd_id, (message, _) in list(self.unacked.items()):
            if self.send(message):
                self.unacked[cmd_id] = (message, now)
                self.ctx.stats.resent += 1

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
            if self.on_event_seq(msg["seq"]) and self.ctx.cfg.client == "old":
                self.refresh_soon()
        elif kind == "view":
            if self.ctx.cfg.client == "old":
                return  # today's live.js knows no such message
            if self.event_seq is not None and msg["seq"] > self.event_seq:
                self.ask_resume(now)  # live.js: some of its events never came
                return
            self.came_back(now)
            self.hold(msg["seq"], msg, now)
        elif kind == "state":
            self.event_seq = msg["seq"]
            self.seq = -1  # a fresh state replaces whatever the page held
            self.connected.set()
            self.came_back(now)
            self.hold(msg["seq"], msg, now)
            self.ctx.spawn(self.load_history())
        elif kind == "ack":
            self.unacked.pop(str(msg.get("cmd_id")), None)
            self.game.on_ack(msg, now)
        elif kind == "error":
            if "cmd_id" in msg:
                self.unacked.pop(str(msg["cmd_id"]), None)
            self.game.on_error(self, msg)
        elif kind not in ("deadline", "presence", "pong"):
            self.ctx.stats.other_messages[str(kind)] += 1

    async def load_history(self) -> None:
        await self.game.get(self.http, f"/api/games/{self.game.game_id}/events/?after=0", "history")

    def refresh_soon(self) -> None:
        if self.refresh_timer is not None:
            self.refresh_timer.cancel()
        loop = asyncio.get_running_loop()
        self.refresh_timer = loop.call_later(REFRESH_DEBOUNCE_S, lambda: self.ctx.spawn(self.refresh()))

    async def fetch(self) -> None:
        d = await self.game.get(self.http, f"/api/games/{self.game.game_id}/", "game")
        if d is not None:
            self.hold(d["seq"], d, time.monotonic())

    def command(self, cmd: dict[str, Any]) -> bool:
        """gamesocket.js command(): send now (not kept when the socket is down); keep it to send
        again, naming the seq the page had seen (expected_seq), until its answer comes."""
        if not (self.connected.is_set() and self.send(cmd)):
            return False
        kept = dict(cmd)
        if "expected_seq" not in kept and self.event_seq is not None:
            kept["expected_seq"] = self.event_seq
        self.unacked[str(cmd["cmd_id"])] = (kept, time.monotonic())
        self.ctx.spawn(self.resend_until_answered(str(cmd["cmd_id"])))
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
                self.ctx.stats.resent += 1


class WatchPage(SocketPage):
    """static/js/watch.js: an anonymous spectator."""

    bit = SPECTATOR_BIT
    pings = False  # watch.js sends none
    resumes = False

    def __init__(self, game: BrowserGame, ws_base: str, http_base: str) -> None:
        super().__init__(game, ws_base, Http(game.ctx, http_base, {}))
        self.frames = 0
        self.over = False
        self.client_id = secrets.token_hex(16)

    @property
    def frames_url(self) -> str:
        return f"/api/replays/{self.game.game_id}/frames/?perspective=spectator"

    async def start(self) -> None:
        await self.game.get(self.http, f"/watch/{self.game.game_id}/", "page", json_body=False)
        d = await self.game.get(self.http, self.frames_url + "&from=0", "frames")
        if d is not None:
            self.add_frames(d["frames"], time.monotonic())
        self.ctx.spawn(self.heartbeats())

    def socket_path(self) -> str:
        extra = "batch=1&frames=1&" if self.ctx.cfg.client == "new" else ""
        return f"/ws/games/{self.game.game_id}/?{extra}after={max(self.seq, 0)}"

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
        if self.ctx.cfg.client == "old":
            if kind == "event":
                self.on_event_seq(msg["seq"])
            if kind in ("event", "state"):
                self.ctx.spawn(self.refresh())
            return
        if kind == "event":
            self.on_event_seq(msg["seq"])
        elif kind == "view":
            self.came_back(now)
            self.over = self.over or msg.get("status") not in (None, "running")
            frames = msg.get("frames") or []
            if frames:
                if frames[0].get("step", self.frames) > self.frames:
                    self.ctx.spawn(self.refresh())  # a push was lost: read the frames it had
                else:
                    self.add_frames([f for f in frames if f.get("step", self.frames) >= self.frames], now)
            elif msg["seq"] > self.seq:
                self.ctx.spawn(self.refresh())  # a resume's view brings no frames
        elif kind == "state":
            self.came_back(now)
            self.event_seq = msg["seq"]
            self.ctx.spawn(self.refresh())  # frames from the count it has up to the state's seq
        elif kind not in ("deadline", "presence", "pong", "ack", "error", "watchers"):
            self.ctx.stats.other_messages[f"watch:{kind}"] += 1

    async def fetch(self) -> None:
        d = await self.game.get(self.http, f"{self.frames_url}&from={self.frames}", "frames")
        if d is not None:
            self.add_frames(d["frames"], time.monotonic())

    async def heartbeats(self) -> None:
        every = 10.0
        while not self.closing and not self.over:
            # The new watch page beats over its socket while it is open (watch.js), else over HTTP.
            if self.ctx.cfg.client == "new" and self.send({"type": "watching", "client_id": self.client_id}):
                await asyncio.sleep(every)
                continue
            body = json.dumps({"client_id": self.client_id, "leaving": False}).encode()
            d = await self.game.post(
                self.http, f"/api/replays/{self.game.game_id}/watchers/", "heartbeat", body
            )
            if d is not None:
                every = float(d.get("heartbeat") or every)
            await asyncio.sleep(every)


class LobbyPage(_Page):
    """The lobby: its socket (`new`), or static/js/poll.js polling the table list (`old`)."""

    def __init__(self, ctx: RunContext, ws_base: str, http_base: str) -> None:
        self.ctx, self.ws_base = ctx, ws_base
        self.http = Http(ctx, http_base, {})
        self.closing = False
        self.ws: Any = None
        self.ready = asyncio.Event()
        self.lost: tuple[float, BrowserStats] | None = None

    async def run(self) -> None:
        await self._get("/lobby/", "page")
        if self.ctx.cfg.client == "new" and await self._socket():
            return
        self.ready.set()
        while not self.closing:
            await asyncio.sleep(LOBBY_POLL_S)
            await self._get("/lobby/?fragment=1", "lobby", "X-Requested-With: fetch\r\n")

    async def _socket(self) -> bool:
        """Follow the lobby over its socket, reconnecting as core/socket.js does; False when the
        server has none (then poll)."""
        from websockets.exceptions import ConnectionClosed, InvalidHandshake

        worked = False
        attempt = slow_tries = 0
        while not self.closing:
            try:
                ws = await _connect(self.ws_base + "/ws/lobby/")
            except (OSError, TimeoutError, ConnectionClosed, InvalidHandshake):
                if worked and not self.closing:
                    await asyncio.sleep(after_close(1006, attempt, slow_tries)[1])
                    attempt += 1
                    continue
                break
            self.ws = ws
            served = False
            try:
                async for raw in ws:
                    if not served:
                        served, attempt, slow_tries = True, 0, 0
                        if self.lost is not None:  # back: the new socket's first message
                            self.lost[1].back_s.append(time.monotonic() - self.lost[0])
                            self.lost = None
                    if not worked:
                        worked = True
                        self.ready.set()
                    counted = self.ctx.in_window()
                    if counted:
                        self.ctx.stats.socket_frames += 1
                    msg = json.loads(raw)
                    for one in msg if isinstance(msg, list) else [msg]:
                        if counted:
                            self.ctx.stats.lobby_messages[str(one.get("type"))] += 1
            except ConnectionClosed:
                pass
            finally:
                self.ws = None
            if not worked:
                break  # closed before it said anything: no lobby socket here
            if self.closing:
                break
            code = ws.close_code if ws.close_code is not None else 1006
            if self.ctx.playing:
                self.ctx.stats.reconnects += 1
                self.ctx.stats.closes[code] += 1
                if self.lost is None:
                    self.lost = (time.monotonic(), self.ctx.stats)
            retry, delay, slow = after_close(code, attempt, slow_tries)
            if not retry:
                self.ctx.stats.refused[code] += 1
                break
            attempt += 1
            slow_tries += slow
            await asyncio.sleep(delay)
        if not worked and not self.closing:
            self.ctx.stats.lobby_socket_unavailable += 1
        return worked

    async def _get(self, path: str, kind: str, headers: str = "") -> None:
        try:
            status, _ = await self.http.request("GET", path, kind, headers=headers)
        except (OSError, asyncio.IncompleteReadError, ValueError, TimeoutError) as e:
            if not self.closing:
                self.ctx.stats.http_errors[f"{kind} {type(e).__name__}"] += 1
            return
        if status != 200:
            self.ctx.stats.http_errors[f"{kind} {status}"] += 1


# --- one game: its pages, its schedule and its moves in flight -----------------------------------------


@dataclass
class BrowserMove:
    cmd_id: str
    seat: int
    sent_at: float
    first_seq: int
    need: int  # a bit per page of the table
    stats: BrowserStats | None  # of the window it was sent in (None: sent outside every window)
    arrived: int = 0
    error: str | None = None

    @property
    def in_window(self) -> bool:
        return self.stats is not None


class BrowserGame:
    def __init__(
        self,
        ctx: RunContext,
        spec: GameSpec,
        seat_servers: Sequence[tuple[str, str]],
        watch_server: tuple[str, str] | None,
        rng: random.Random,
    ) -> None:
        self.ctx, self.game_id = ctx, spec.game_id
        # Two streams: the schedule is then the same for every run with one seed, whatever the
        # games' choices (old and new clients see `legal` in their own orders).
        self.gaps, self.choices = random.Random(rng.random()), random.Random(rng.random())
        self.bot_seats = spec.bot_seats  # played by the worker's bots: no page
        self.seats = [
            SeatPage(self, s, spec.tokens[s], *seat_servers[s])
            for s in range(SEATS)
            if s not in spec.bot_seats
        ]
        self.watch = WatchPage(self, *watch_server) if watch_server else None
        self.pages: list[SocketPage] = [*self.seats, *([self.watch] if self.watch else [])]
        self.need = sum(p.bit for p in self.pages)
        self.head_seq = 0  # the newest seq the game is known to have (events pushed, acks)
        self.moves: list[BrowserMove] = []  # sent, not yet held by every page
        self.by_cmd: dict[str, BrowserMove] = {}  # sent, not yet answered (ack or error)
        self.unacked: BrowserMove | None = None  # the move that holds the controls until its answer
        # A bot's decision awaited: (the seq of the view that showed it, when, the stats then).
        self.bot_turn: tuple[int, float, BrowserStats] | None = None
        self.queue: deque[float] = deque()  # scheduled times of decisions not yet sent
        self.n = 0
        self.ended = False

    # -- HTTP on behalf of a page: JSON in and out, failures counted --

    async def get(self, http: Http, path: str, kind: str, json_body: bool = True) -> Any:
        return await self._request(http, "GET", path, kind, None, json_body)

    async def post(self, http: Http, path: str, kind: str, body: bytes) -> Any:
        return await self._request(http, "POST", path, kind, body, True)

    async def _request(
        self, http: Http, method: str, path: str, kind: str, body: bytes | None, json_body: bool
    ) -> Any:
        stats = self.ctx.stats
        try:
            status, payload = await http.request(method, path, kind, body)
        except (OSError, asyncio.IncompleteReadError, ValueError, TimeoutError) as e:
            if not self.ended and self.ctx.playing:
                stats.http_errors[f"{kind} {type(e).__name__}"] += 1
            return None
        if status != 200:
            stats.http_errors[f"{kind} {status}"] += 1
            return None
        return json.loads(payload) if json_body else payload

    # -- what the pages report --

    def saw_event(self, seq: int) -> None:
        self.head_seq = max(self.head_seq, seq)
        self.bot_moved(seq, time.monotonic())

    def bot_moved(self, seq: int, now: float) -> None:
        turn = self.bot_turn
        if turn is not None and seq > turn[0]:
            turn[2].bot_wait_s.append(now - turn[1])
            self.bot_turn = None

    def held(self, page: SocketPage, seq: int, now: float) -> None:
        """`page` now holds the game's view as of `seq`."""
        for m in list(self.moves):
            if seq >= m.first_seq and not m.arrived & page.bit:
                m.arrived |= page.bit
                if m.arrived == m.need:
                    self.moves.remove(m)
                    if m.stats is not None and m.error is None:
                        m.stats.completed += 1
                        m.stats.latencies_ms.append((now - m.sent_at) * 1000)
        if isinstance(page, SeatPage):
            if page.over and not self.ended:
                self.ended = True
                self.queue.clear()
            self.bot_moved(seq, now)
            awaiting = page.view.get("awaiting") if not page.over else None
            if awaiting and awaiting.get("seat") in self.bot_seats and self.bot_turn is None:
                self.bot_turn = (seq, now, self.ctx.stats)
        self.try_send(now)

    def on_ack(self, msg: dict[str, Any], now: float) -> None:
        cmd_id = str(msg.get("cmd_id"))
        m = self.by_cmd.pop(cmd_id, None)
        ledger = self.ctx.ledger
        if ledger is not None and cmd_id in ledger.sent:
            seq = msg.get("seq") if isinstance(msg.get("seq"), int) else None
            ledger.acks.setdefault(cmd_id, []).append((seq, bool(msg.get("duplicate"))))
        if m is None:
            self.ctx.stats.other_messages["stray_ack"] += 1
            return
        if self.unacked is m:
            self.unacked = None
        if now - m.sent_at > LATE_ANSWER_S and m.stats is not None:
            m.stats.late_answers += 1
        if isinstance(msg.get("seq"), int):
            self.head_seq = max(self.head_seq, msg["seq"])
        if m.stats is not None:
            m.stats.acked += 1
            m.stats.ack_ms.append((now - m.sent_at) * 1000)
        self.try_send(now)

    def on_error(self, page: SeatPage, msg: dict[str, Any]) -> None:
        code = str(msg.get("code"))
        self.ctx.stats.errors[code] += 1
        cmd_id = str(msg.get("cmd_id"))
        ledger = self.ctx.ledger
        if ledger is not None and cmd_id in ledger.sent:
            ledger.errors.setdefault(cmd_id, []).append(code)
        m = self.by_cmd.pop(cmd_id, None) if "cmd_id" in msg else None
        if m is not None:
            m.error = code
            if self.unacked is m:
                self.unacked = None
            if m in self.moves:
                self.moves.remove(m)
        # Every command comes from the page's own `legal`: a refusal means its view was stale.
        if self.ctx.cfg.client == "old":
            page.refresh_soon()  # game.js does this
        else:
            page.send({"type": "sync"})  # the new protocol's way to a current `view`

    # -- the schedule --

    def mover(self) -> SeatPage | None:
        for p in self.seats:
            if p.legal and p.seq >= self.head_seq and p.connected.is_set() and not p.over:
                return p
        return None

    def try_send(self, now: float) -> None:
        if not self.queue or self.ended:
            return
        if self.unacked is not None:
            return  # game/controller.js: the controls are held until the command's answer
        page = self.mover()
        if page is None:
            return
        self.n += 1
        command = {k: v for k, v in self.choices.choice(page.legal).items() if k != "seat"}
        cmd_id = f"b{self.game_id}-{self.n}"
        if not page.command({"type": "command", "cmd_id": cmd_id, **command}):
            return
        scheduled = self.queue.popleft()
        in_window = self.ctx.in_window(now)
        m = BrowserMove(
            cmd_id, page.seat, now, page.seq + 1, self.need, self.ctx.stats if in_window else None
        )
        for p in self.pages:
            if p.seq >= m.first_seq:
                m.arrived |= p.bit
        self.moves.append(m)
        self.by_cmd[cmd_id] = m
        self.unacked = m
        stats = self.ctx.stats
        if self.ctx.ledger is not None:
            self.ctx.ledger.sent[cmd_id] = (self.game_id, page.seat)
            self.ctx.ledger.phase_of[cmd_id] = stats
        stats.sent_total += 1
        if in_window:
            stats.sent += 1
            stats.wait_ms.append((now - scheduled) * 1000)

    async def drive(self, start: float, end: float) -> None:
        """Schedule decisions from `start` until `end` (or the run's `stop_at`, if sooner)."""
        rate = 1.0 / self.ctx.cfg.mean_gap
        due = start + self.gaps.expovariate(rate)
        while due < min(end, self.ctx.stop_at):
            delay = due - time.monotonic()
            if delay > 0:
                await asyncio.sleep(delay)
            if due >= self.ctx.stop_at:
                break
            if not self.ended:
                if self.ctx.in_window(due):
                    self.ctx.stats.scheduled += 1
                self.queue.append(due)
                self.try_send(time.monotonic())
            due += self.gaps.expovariate(rate)
        window = self.ctx.window
        self.ctx.stats.left_queued += sum(1 for t in self.queue if window[0] <= t < window[1])
        self.queue.clear()  # the window is over: nothing more is sent


# --- CPU: PostgreSQL's backends for this bench's database ----------------------------------------------


def _postgres_backends(dbname: str) -> list[int]:
    """PIDs of PostgreSQL backends connected to `dbname` (their title names it: `postgres: ... db ...`)."""
    out = []
    needle = f" {dbname} ".encode()
    for pid in pids_named("postgres"):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                if needle in f.read():
                    out.append(pid)
        except OSError:
            continue
    return out


def _stat_fields(pid: int) -> list[str]:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return []


def _postmaster_children_seconds() -> float:
    """CPU seconds of PostgreSQL backends that have ended (the postmaster has reaped them), in every
    database: with HTTP requests closing their connections, a backend lives for one request."""
    pids = set(pids_named("postgres"))
    for pid in pids:
        fields = _stat_fields(pid)
        if len(fields) > 14 and int(fields[1]) not in pids:  # the postmaster: its parent is no postgres
            return (int(fields[13]) + int(fields[14])) / os.sysconf("SC_CLK_TCK")
    return 0.0


CpuReading = tuple[dict[str, float], dict[int, float], float]


def _cpu(named: dict[str, list[int]], dbname: str) -> CpuReading:
    snap = cpu_snapshot(named)
    backends = {pid: process_cpu_seconds(pid) for pid in _postgres_backends(dbname)}
    return snap, backends, _postmaster_children_seconds()


def _cpu_window(start: CpuReading, end: CpuReading) -> dict[str, float]:
    out = {k: end[0][k] - start[0][k] for k in end[0]}
    # A backend that started in the window counts from 0 (it is at most a few ms old then).
    out["postgres (bench database)"] = sum(v - start[1].get(pid, 0.0) for pid, v in end[1].items())
    out["postgres (ended connections, any database)"] = end[2] - start[2]
    named = sum(v for k, v in out.items() if k != "machine")
    out["rest (other postgres, kernel, ...)"] = out["machine"] - named
    return out


# --- the run -------------------------------------------------------------------------------------------


async def _drive_all(
    cfg: BrowserConfig,
    specs: list[GameSpec],
    servers: list[tuple[str, str]],
    named: dict[str, list[int]],
    dbname: str,
    write: Callable[[str], None],
) -> tuple[BrowserStats, float, float, dict[str, float]]:
    stats = BrowserStats()
    ctx = RunContext(cfg, stats)
    master = random.Random(cfg.seed)
    games = []
    for g, spec in enumerate(specs):
        if cfg.route == "game":
            seat_servers = [servers[g % len(servers)]] * SEATS
        else:
            seat_servers = [servers[(g + s) % len(servers)] for s in range(SEATS)]
        watch = (
            servers[g % len(servers)] if cfg.spectator_every > 0 and g % cfg.spectator_every == 0 else None
        )
        games.append(BrowserGame(ctx, spec, seat_servers, watch, random.Random(master.random())))
    lobbies = [LobbyPage(ctx, *servers[i % len(servers)]) for i in range(cfg.lobby_watchers)]
    pages = [p for g in games for p in g.pages]
    sems = {ws: asyncio.Semaphore(cfg.connect_concurrency) for ws, _ in servers}
    t0 = time.monotonic()
    tasks = [asyncio.create_task(p.run(sems[p.ws_base])) for p in pages]
    tasks += [asyncio.create_task(lobby.run()) for lobby in lobbies]
    try:
        ready = [p.connected.wait() for p in pages] + [lobby.ready.wait() for lobby in lobbies]
        try:
            await asyncio.wait_for(asyncio.gather(*ready), timeout=cfg.connect_timeout)
        except TimeoutError:
            n = sum(p.connected.is_set() for p in pages)
            raise RuntimeError(
                f"only {n} of {len(pages)} game sockets were open after {cfg.connect_timeout:g} s"
            ) from None
        connect_s = time.monotonic() - t0
        gc.collect()
        gc.freeze()
        ctx.playing = True
        write(
            f"opened {len(pages)} game pages and {len(lobbies)} lobby pages in {connect_s:.1f} s; "
            f"warming up {cfg.warmup:g} s ..."
        )
        start = time.monotonic() + 0.2
        ctx.window = (start + cfg.warmup, start + cfg.warmup + cfg.duration)
        drivers = [asyncio.create_task(g.drive(start, ctx.window[1])) for g in games]
        await asyncio.sleep(max(0.0, ctx.window[0] - time.monotonic()))
        cpu_start = _cpu(named, dbname)
        await asyncio.sleep(max(0.0, ctx.window[1] - time.monotonic()))
        cpu = _cpu_window(cpu_start, _cpu(named, dbname))
        await asyncio.gather(*drivers)
        drain_end = time.monotonic() + cfg.drain
        while time.monotonic() < drain_end and any(g.moves for g in games):
            await asyncio.sleep(0.05)
        stats.unfinished = sum(1 for g in games for m in g.moves if m.in_window)
        stats.unfinished_total = sum(len(g.moves) for g in games)
        stats.games_ended = sum(1 for g in games if g.ended)
        return stats, connect_s, ctx.window[1] - ctx.window[0], cpu
    finally:
        ctx.playing = False
        closing: list[SocketPage | LobbyPage] = [*pages, *lobbies]
        await asyncio.gather(*(p.close() for p in closing), return_exceptions=True)
        await asyncio.wait(tasks, timeout=5)
        for t in [*tasks, *ctx.tasks]:
            t.cancel()
        await asyncio.gather(*tasks, *ctx.tasks, return_exceptions=True)


def run_browser_bench(cfg: BrowserConfig, write: Callable[[str], None] = print) -> BrowserResult:
    """Set up fresh games, start the servers from `cfg.code_root`, open every page, drive, report."""
    from django.db import connection

    if cfg.games < 1 or cfg.servers < 1 or cfg.mean_gap <= 0 or cfg.duration <= 0:
        raise ValueError("games and servers are at least 1; mean gap and duration are positive")
    # Sockets and keep-alive connections: about three per page, at both ends of loopback.
    raise_file_limit(6 * (cfg.games * (SEATS + 1) + cfg.lobby_watchers))
    with prepared_stack(
        database_url=cfg.database_url,
        redis_url=cfg.redis_url,
        games=cfg.games,
        migrate_first=cfg.migrate,
        jitter_seconds=cfg.jitter_seconds,
        servers=cfg.servers,
        worker=cfg.worker,
        log_dir=cfg.log_dir,
        write=write,
        code=f" from {cfg.code_label}, {cfg.client} browser client",
        root=cfg.code_root,
        server_env={**http_db_env(cfg), **dict(cfg.server_env)},
    ) as (prepared, stack):
        servers = [(stack.ws_url(i), stack.url(i)) for i in range(len(stack.servers))]
        named = stack_processes(stack)
        dbname = urlparse(cfg.database_url).path.lstrip("/")
        drive = _drive_all(cfg, prepared.specs, servers, named, dbname, write)
        stats, connect_s, window_s, cpu = uvloop.run(drive)
    connection.close()
    result = BrowserResult(
        cfg, stats, prepared.setup_s, connect_s, window_s, cpu, [], prepared.reference_ms, prepared.jitter_ms
    )
    return reported(result, format_browser_report(result), write)


# --- old against new, alternating ----------------------------------------------------------------------


def run_browser_compare(
    cfg: BrowserConfig,
    ref: str,
    rounds: int,
    write: Callable[[str], None] = print,
    ref_client: Client = "old",
) -> list[BrowserResult]:
    """`rounds` times: REF's code with `ref_client` (the old pages by default; "new" compares two
    versions of the server under the same pages), then this checkout with the new one.

    REF runs from a detached `git worktree` (removed at the end) on the same database, Redis and
    virtualenv; the database is migrated with this checkout's migrations, which include REF's.
    Each run sets up fresh games.
    """
    if rounds < 1:
        raise ValueError("rounds is at least 1")
    results: list[BrowserResult] = []
    with ref_worktree(ref, write) as ref_code:
        for r in range(rounds):
            for role in ("old", "new"):
                client: Client = ref_client if role == "old" else "new"
                run_cfg = replace(
                    cfg,
                    client=client,
                    migrate=cfg.migrate and not results,
                    code_root=ref_code.tree if role == "old" else ROOT,
                    code_label=ref_code.label if role == "old" else ref_code.here,
                    log_dir=cfg.log_dir / f"round{r + 1}-{role}",
                )
                write("")
                write(f"=== round {r + 1} of {rounds}: {role} code, {client} client ===")
                results.append(run_browser_bench(run_cfg, write))
    write_report(format_comparison(results), write)
    return results


# --- reports -------------------------------------------------------------------------------------------


def _ms(values: Sequence[float], p: float) -> str:
    v = percentile(values, p)
    return "n/a" if math.isnan(v) else f"{v:.1f}"


def _f(v: float, digits: int = 2) -> str:
    return "n/a" if math.isnan(v) else f"{v:.{digits}f}"


def must_lines() -> list[str]:
    return [
        f"must: {MUST_GAMES} concurrent 4-seat games, one command per 4 s each ({MUST_GAMES // 4} moves/s), "
        f"spectators and lobby watchers, on 1-{MUST_SERVERS} server processes: p50 <= {MUST_P50_MS:g} ms, "
        f"p99 <= {MUST_P99_MS:g} ms, no errors, gaps or lost moves",
        f"goal: {GOAL_GAMES} games at p99 <= {GOAL_P99_MS:g} ms, "
        f"server CPU per move < {GOAL_SERVER_CPU_MS:g} ms",
    ]


def format_browser_report(r: BrowserResult) -> list[str]:
    cfg, s = r.config, r.stats
    lat = s.latencies_ms
    http_total = sum(s.http.values())
    lines = [
        f"bench_live --mix browser --client {cfg.client}: {cfg.games} games x {SEATS} seats, "
        f"{cfg.spectators} watch pages, {cfg.lobby_watchers} lobby pages; {cfg.servers} server(s) "
        f"(sockets routed by {cfg.route}) from {cfg.code_label}; a decision per game every "
        f"{cfg.mean_gap:g} s on average (exponential); {r.window_s:.0f} s measured after "
        f"{cfg.warmup:g} s warm-up; {os.cpu_count()} CPUs",
        "servers' HTTP requests: "
        + (
            "close their database connection at their end (bench settings shim; see HTTP_DB_SHIM)"
            if cfg.http_db == "close"
            else "persistent database connections, as configured (Django's ASGI makes one per request)"
        ),
        *must_lines(),
        f"setup {r.setup_s:.1f} s, connect {r.connect_s:.1f} s; reference loop {r.reference_ms:.1f} ms "
        "before the run (this machine's speed drifts: compare runs with it in view)",
        *(
            [
                "machine wake-up jitter before the run: a {:.1f} ms loop run every 20 ms took "
                "p50 {:.1f}  p99 {:.1f}  max {:.1f} ms".format(*r.jitter_ms)
            ]
            if r.jitter_ms
            else []
        ),
        f"moves scheduled: {s.scheduled} ({r.per_second(s.scheduled):.1f}/s; "
        f"{cfg.games / cfg.mean_gap:.1f}/s expected)",
        f"moves sent:      {s.sent} ({r.per_second(s.sent):.1f}/s); still queued at the end: {s.left_queued}",
        f"moves acked:     {s.acked}; complete: {s.completed} (held by every page of the table)",
        f"latency send -> last page holds the view (ms): p50 {_ms(lat, 50)}  p99 {_ms(lat, 99)}  "
        f"p99.9 {_ms(lat, 99.9)}  max {_ms(lat, 100)}  (n={len(lat)})",
        f"latency send -> ack (ms):                      p50 {_ms(s.ack_ms, 50)}  p99 {_ms(s.ack_ms, 99)}  "
        f"max {_ms(s.ack_ms, 100)}",
        f"wait scheduled -> sent (mover's view not there yet; ms): p50 {_ms(s.wait_ms, 50)}  "
        f"p99 {_ms(s.wait_ms, 99)}  max {_ms(s.wait_ms, 100)}",
        f"lost (sent, not held by every page after {cfg.drain:g} s drain): {s.unfinished} "
        f"({s.unfinished_total} counting warm-up moves; {s.sent_total} sent in all)",
        "errors: " + (", ".join(error_items(s)) or "none"),
        f"reconnects: {s.reconnects}; seq gaps: {s.seq_gaps}; games ended: {s.games_ended}",
        f"HTTP requests per move: {_f(r.http_per_move)} ({http_total} in the window: "
        + (", ".join(f"{k} {v}" for k, v in sorted(s.http.items())) or "none")
        + f"; {s.http_connections} new connections); socket frames received per move: "
        + _f(s.socket_frames / s.sent if s.sent else math.nan, 1),
    ]
    if cfg.lobby_watchers:
        if s.lobby_socket_unavailable:
            lines.append(
                f"lobby socket unavailable: {s.lobby_socket_unavailable} of {cfg.lobby_watchers} lobby pages "
                f"found no /ws/lobby/ and polled /lobby/?fragment=1 every {LOBBY_POLL_S:g} s instead"
            )
        elif cfg.client == "new":
            by_type = ", ".join(f"{k} {v}" for k, v in sorted(s.lobby_messages.items())) or "none"
            lines.append(f"lobby socket messages in the window: {by_type}")
    if r.cpu_s:
        cpu = ", ".join(f"{k} {100 * v / r.window_s:.0f}%" for k, v in r.cpu_s.items())
        lines.append(f"CPU in the window (100% = one core): {cpu}")
        lines.append(
            f"CPU per move (ms): servers {_f(r.cpu_ms_per_move('server'))}, "
            f"PostgreSQL {_f(r.cpu_ms_per_move('postgres'))} (of which ended connections "
            f"{_f(r.cpu_ms_per_move('postgres (ended'))}), "
            f"bench clients {_f(r.cpu_ms_per_move('bench'))}, worker {_f(r.cpu_ms_per_move('celery'))}, "
            f"machine {_f(r.cpu_ms_per_move('machine'))}"
        )
    if s.other_messages:
        lines.append("other messages: " + ", ".join(f"{k} {v}" for k, v in sorted(s.other_messages.items())))
    lines.append("verdict: " + verdict(r))
    return lines


def error_items(s: BrowserStats) -> list[str]:
    """Refused commands by code, failed HTTP requests by kind, and commands never answered."""
    items = [f"{k} {v}" for k, v in sorted(s.errors.items())]
    items += [f"HTTP {k} {v}" for k, v in sorted(s.http_errors.items())]
    if s.late_answers:
        items.append(f"answered after more than {LATE_ANSWER_S:g} s {s.late_answers}")
    return items


def verdict(r: BrowserResult) -> str:
    cfg, s = r.config, r.stats
    p50, p99 = percentile(s.latencies_ms, 50), percentile(s.latencies_ms, 99)
    kept = s.scheduled and s.sent >= MUST_SENT_SHARE * s.scheduled
    must_ok = bool(kept) and r.clean and not math.isnan(p99) and p50 <= MUST_P50_MS and p99 <= MUST_P99_MS
    scale = cfg.games >= MUST_GAMES and cfg.servers <= MUST_SERVERS and cfg.spectators and cfg.lobby_watchers
    must = ("met" if must_ok else "not met") if scale else f"n/a ({cfg.games} games)"
    if not must_ok and scale:
        must += f" (p50 {_f(p50, 1)}, p99 {_f(p99, 1)} ms, sent {s.sent} of {s.scheduled}, clean {r.clean})"
    goal_ok = must_ok and p99 <= GOAL_P99_MS and r.cpu_ms_per_move("server") < GOAL_SERVER_CPU_MS
    goal = ("met" if goal_ok else "not met") if cfg.games >= GOAL_GAMES else "n/a"
    return f"must {must}; goal {goal}"


def format_comparison(results: Sequence[BrowserResult]) -> list[str]:
    """Every run as a row, then the median of each side and new/old."""
    head = (
        "| run | client | code | ref. loop | moves/s (sched.) | p50 | p99 | p99.9 | max | "
        "server CPU/move | PG CPU/move | bench CPU/move | HTTP/move | errors, gaps, lost, reconnects |"
    )
    lines = [*must_lines(), head, "|" + "---|" * 14]

    def row(i: int, r: BrowserResult) -> str:
        s, lat = r.stats, r.stats.latencies_ms
        bad = sum(s.errors.values()) + sum(s.http_errors.values()) + s.late_answers
        return (
            f"| {i} | {r.config.client} | {r.config.code_label} | {r.reference_ms:.1f} ms | "
            f"{r.per_second(s.sent):.1f} ({r.per_second(s.scheduled):.1f}) | "
            f"{_ms(lat, 50)} | {_ms(lat, 99)} | "
            f"{_ms(lat, 99.9)} | {_ms(lat, 100)} | {_f(r.cpu_ms_per_move('server'))} ms | "
            f"{_f(r.cpu_ms_per_move('postgres'))} ms | {_f(r.cpu_ms_per_move('bench'))} ms | "
            f"{_f(r.http_per_move)} | {bad}, {s.seq_gaps}, {s.unfinished}, {s.reconnects} |"
        )

    lines += [row(i + 1, r) for i, r in enumerate(results)]
    figures: dict[str, Callable[[BrowserResult], float]] = {
        "server CPU per move (ms)": lambda r: r.cpu_ms_per_move("server"),
        "PostgreSQL CPU per move (ms)": lambda r: r.cpu_ms_per_move("postgres"),
        "bench CPU per move (ms)": lambda r: r.cpu_ms_per_move("bench"),
        "machine CPU per move (ms)": lambda r: r.cpu_ms_per_move("machine"),
        "HTTP requests per move": lambda r: r.http_per_move,
        "latency p50 (ms)": lambda r: percentile(r.stats.latencies_ms, 50),
        "latency p99 (ms)": lambda r: percentile(r.stats.latencies_ms, 99),
        "latency p99.9 (ms)": lambda r: percentile(r.stats.latencies_ms, 99.9),
        "latency max (ms)": lambda r: percentile(r.stats.latencies_ms, 100),
        "moves/s sent": lambda r: r.per_second(r.stats.sent),
    }
    lines += ["", "| figure (median of the runs) | old | new | new/old |", "|---|---|---|---|"]
    for name, get in figures.items():
        old = _median([get(r) for r in results if r.config.code_root != ROOT])
        new = _median([get(r) for r in results if r.config.code_root == ROOT])
        ratio = new / old if old and not math.isnan(old) and not math.isnan(new) else math.nan
        lines.append(f"| {name} | {_f(old)} | {_f(new)} | {_f(ratio)} |")
    return lines


def _median(values: Sequence[float]) -> float:
    values = [v for v in values if not math.isnan(v)]
    return statistics.median(values) if values else math.nan
