"""Many live games over real websockets against real server processes: one scripted socket per seat
folding the pushed views, every game driven open loop at `rate` moves a second; a move's latency
runs from its send to its first event at the last of the table's four clients."""

from __future__ import annotations

import asyncio
import gc
import math
import os
import random
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, TypeVar

import uvloop

from bench.kit.client import Http, PageCounts, Run, SocketPage, pages_open
from bench.kit.stack import (
    DEFAULT_DATABASE_URL,
    DEFAULT_REDIS_URL,
    ROOT,
    SEATS,
    GameSpec,
    prepared_stack,
    raise_file_limit,
    stack_processes,
)
from bench.kit.stats import (
    counts,
    cpu_line,
    cpu_snapshot,
    jitter_lines,
    layer_shards,
    ms,
    percentile,
    reported,
    shared_lines,
    shared_snapshot,
)

GOAL_GAMES, GOAL_P99_MS = 500, 50.0
T = TypeVar("T")
R = TypeVar("R", bound="LiveResult")


@dataclass(frozen=True)
class LiveConfig:
    games: int = 10
    servers: int = 1
    rate: float = 1.0  # moves per second per game
    duration: float = 30.0  # measured seconds
    warmup: float = 5.0  # driven but not measured
    drain: float = 5.0  # after the last tick: wait this long at most for moves in flight
    jitter_seconds: float = 3.0  # how long the machine's wake-up jitter is timed before the run
    database_url: str = DEFAULT_DATABASE_URL
    redis_url: str = DEFAULT_REDIS_URL
    migrate: bool = True  # run `manage.py migrate` on the database first (in a subprocess)
    worker: bool = True  # also start the Celery worker (timers and bots; idle with long timers)
    # Websocket handshakes in flight at once, per server. Each handshake costs the server several
    # queries on its one database thread, and a socket not accepted soon is dropped.
    connect_concurrency: int = 4
    connect_timeout: float = 180.0  # for all sockets together
    seed: int = 1
    # "seat": a game's seats spread over the servers; "game": all of a game's sockets on one server,
    # as a load balancer hashing the socket's path (/ws/games/{id}/) puts them.
    route: Literal["seat", "game"] = "seat"
    server_env: tuple[tuple[str, str], ...] = ()  # extra environment for servers and worker
    log_dir: Path = field(default_factory=lambda: Path(tempfile.gettempdir()) / "harehra-bench-live")
    code_root: Path = ROOT  # the checkout the servers run
    code_label: str = "this checkout"

    def seat_servers(self, g: int, servers: Sequence[T]) -> list[T]:
        """The servers of game `g`'s seats, by `route`."""
        if self.route == "game":
            return [servers[g % len(servers)]] * SEATS
        return [servers[(g + s) % len(servers)] for s in range(SEATS)]


@dataclass
class Stats(PageCounts):
    latencies_ms: list[float] = field(default_factory=list)  # send -> first event at the last of 4
    ack_ms: list[float] = field(default_factory=list)  # send -> ack at the sender
    lag_ms: list[float] = field(default_factory=list)  # scheduled tick -> actual send (this process)
    sent: int = 0  # in the window
    acked: int = 0  # sent in the window and acknowledged (by the end of the drain)
    completed: int = 0  # sent in the window, first event at all four clients
    sent_total: int = 0  # including warm-up
    ticks: int = 0  # in the window
    late: int = 0  # ticks in the window that sent nothing: the previous move still in flight
    errors: Counter[str] = field(default_factory=Counter)  # by code; none is expected
    games_ended: int = 0
    unfinished: int = 0  # sent in the window, not complete when the drain ended ("dropped")
    unfinished_total: int = 0  # the same, warm-up moves included
    # The shared parts' counters at the window's start and end (shared_snapshot).
    shared: tuple[dict[str, float], dict[str, float]] = field(default_factory=lambda: ({}, {}))


@dataclass
class LiveResult:
    config: Any
    stats: Any
    setup_s: float
    connect_s: float
    window_s: float
    cpu_s: dict[str, float]
    lines: list[str]
    reference_ms: float = math.nan  # reference_loop_ms() before the run
    jitter_ms: tuple[float, ...] = ()  # wake_jitter_ms() before the run

    def per_second(self, n: int) -> float:
        return n / self.window_s if self.window_s else 0.0

    def machine_lines(self) -> list[str]:
        return [
            f"setup {self.setup_s:.1f} s, connect {self.connect_s:.1f} s; reference loop "
            f"{self.reference_ms:.1f} ms before the run (this machine's speed drifts: compare runs with "
            "it in view)",
            *jitter_lines(self.jitter_ms),
        ]


def run_on_stack(
    cfg: Any,
    write: Callable[[str], None],
    drive: Callable[[list[GameSpec], Any], Coroutine[Any, Any, tuple[Any, float, float, dict[str, float]]]],
    sockets: int,
    result: type[R],
    code: str = "",
    server_env: dict[str, str] | None = None,
) -> R:
    """A live bench's run: games prepared, the servers started (`prepared_stack`), `drive(specs,
    stack)` run on uvloop (as the servers run: the clients take a quarter less CPU than on asyncio's
    loop), the figures it returns (stats, connect s, window s, CPU by part) as the result."""
    from django.db import connection

    if cfg.games < 1 or cfg.servers < 1 or cfg.duration <= 0:
        raise ValueError("games and servers are at least 1; the duration is positive")
    raise_file_limit(sockets)
    server_env = {**(server_env or {}), **dict(cfg.server_env)}
    with prepared_stack(cfg, write, code, server_env) as (prepared, stack):
        stats, connect_s, window_s, cpu = uvloop.run(drive(prepared.specs, stack))
    connection.close()
    return result(
        cfg, stats, prepared.setup_s, connect_s, window_s, cpu, [], prepared.reference_ms, prepared.jitter_ms
    )


@dataclass
class Move:
    cmd_id: str
    seat: int
    sent_at: float
    first_seq: int
    in_window: bool
    arrived: int = 0  # bit per seat: the move's first event reached that client
    acked_at: float | None = None
    ack_seq: int | None = None
    error: str | None = None

    @property
    def complete(self) -> bool:
        return self.error is not None or self.arrived == (1 << SEATS) - 1


class Client(SocketPage):
    """One seat's socket (the kit's page: no pings, no HTTP) and its own view of the game."""

    pings = False

    def __init__(self, game: GameRun, seat: int, token: str, url: str) -> None:
        super().__init__(game, url, Http(game.run, "http" + url.removeprefix("ws"), {}))
        self.seat, self.token = seat, token
        self.last_seq = 0
        # What the server pushes with every move (the page renders from it alone): the decision
        # awaited, as (seat, kind), and this seat's legal commands when the decision is its own.
        self.awaiting: tuple[int, str] | None = None
        self.legal: list[dict[str, Any]] = []
        self.over = False

    def socket_path(self) -> str:
        return f"/ws/games/{self.game.game_id}/?batch=1&token={self.token}"

    def send(self, data: dict[str, Any]) -> bool:
        return self.connected.is_set() and super().send(data)

    def on_message(self, msg: dict[str, Any], now: float) -> None:
        kind = msg.get("type")
        if kind == "event":
            seq = msg["seq"]
            if seq <= self.last_seq:
                return
            if seq != self.last_seq + 1:
                self.game.stats.seq_gaps += 1
            self.last_seq = seq
            self.game.arrived(self, seq, now)
        elif kind == "view":
            self.on_view(msg)
        elif kind == "ack":
            self.game.on_ack(msg, now)
        elif kind == "error":
            self.game.on_error(self, msg)
            # Every command is chosen as legal from the client's own view, so no refusal is
            # expected: one means the view was wrong (or the server). Reconnect for a fresh state.
            if self.ws is not None:
                self.run.spawn(self.ws.close())
        elif kind == "state":
            self.last_seq = msg["seq"]
            self.on_view(msg)
            self.connected.set()
            self.game.arrived(self, self.last_seq, now)
        elif kind != "deadline":
            self.game.stats.other_messages[str(kind)] += 1

    def on_view(self, msg: dict[str, Any]) -> None:
        """The view after a move (`view`), or on connecting (`state`): the decision awaited and
        this seat's legal commands, as the engine made them on the server."""
        view = msg["view"]
        awaiting = None if view["over"] else view["awaiting"]
        self.awaiting = (awaiting["seat"], awaiting["kind"]) if awaiting else None
        self.legal = list(msg.get("legal") or [])
        self.over = bool(view["over"]) or msg.get("status") != "running"


class GameRun:
    """One game's four clients, the move in flight and the open-loop schedule."""

    def __init__(self, spec: GameSpec, urls: Sequence[str], run: Run, rng: random.Random) -> None:
        self.game_id = spec.game_id
        self.run, self.stats = run, run.stats
        self.rng = rng
        self.clients = [Client(self, s, spec.tokens[s], urls[s]) for s in range(SEATS)]
        self.pending: Move | None = None
        self.moves = 0
        self.ended = False
        self.window = (math.inf, math.inf)

    def known_seq(self) -> int:
        return max(c.last_seq for c in self.clients)

    def actor(self) -> Client | None:
        """The awaited seat's client, if it has seen everything the game has done so far."""
        seq = self.known_seq()
        for c in self.clients:
            if c.last_seq == seq and c.awaiting is not None and c.awaiting[0] == c.seat and c.legal:
                return c if c.connected.is_set() else None
        return None

    def tick(self, scheduled: float) -> None:
        now = time.monotonic()
        in_window = self.window[0] <= now < self.window[1]
        if in_window:
            self.stats.ticks += 1
            self.stats.lag_ms.append((now - scheduled) * 1000)
        m = self.pending
        if m is not None and not (m.complete and (m.acked_at is not None or m.error is not None)):
            if in_window:
                self.stats.late += 1
            return
        if any(c.over for c in self.clients):
            if not self.ended:
                self.ended = True
                self.stats.games_ended += 1
            return
        client = self.actor()
        if client is None:
            if in_window:
                self.stats.late += 1
            return
        self.moves += 1
        command = dict(self.rng.choice(client.legal))  # one the server sent for this seat
        cmd_id = f"{self.game_id}-{self.moves}"
        move = Move(cmd_id, client.seat, now, client.last_seq + 1, in_window)
        if not client.send({"type": "command", "cmd_id": cmd_id, **command}):
            if in_window:
                self.stats.late += 1
            return
        self.pending = move
        self.stats.sent_total += 1
        if in_window:
            self.stats.sent += 1
        # Clients already past the first seq (none, normally) count as arrived.
        for c in self.clients:
            if c.last_seq >= move.first_seq:
                move.arrived |= 1 << c.seat

    def arrived(self, client: Client, seq: int, now: float) -> None:
        m = self.pending
        if m is None or m.error is not None or seq < m.first_seq:
            return
        bit = 1 << client.seat
        if m.arrived & bit:
            return
        m.arrived |= bit
        if m.arrived == (1 << SEATS) - 1 and m.in_window:
            self.stats.completed += 1
            self.stats.latencies_ms.append((now - m.sent_at) * 1000)

    def on_ack(self, msg: dict[str, Any], now: float) -> None:
        m = self.pending
        if m is None or msg.get("cmd_id") != m.cmd_id:
            self.stats.other_messages["stray_ack"] += 1
            return
        m.acked_at, m.ack_seq = now, msg.get("seq")
        if m.in_window:
            self.stats.acked += 1
            self.stats.ack_ms.append((now - m.sent_at) * 1000)

    def on_error(self, client: Client, msg: dict[str, Any]) -> None:
        code = str(msg.get("code"))
        self.stats.errors[code] += 1
        m = self.pending
        if m is not None and msg.get("cmd_id") == m.cmd_id:
            m.error = code

    async def drive(self, start: float, end: float, period: float) -> None:
        scheduled = start + self.rng.random() * period  # spread the games over the period
        while scheduled < end:
            delay = scheduled - time.monotonic()
            if delay > 0:
                await asyncio.sleep(delay)
            self.tick(scheduled)
            scheduled += period


async def _drive_all(
    cfg: LiveConfig, specs: list[GameSpec], stack: Any, write: Callable[[str], None]
) -> tuple[Stats, float, float, dict[str, float]]:
    stats = Stats()
    run = Run(stats)
    master = random.Random(cfg.seed)
    ws_urls = [stack.ws_url(i) for i in range(len(stack.servers))]
    named = stack_processes(stack)
    runs = [
        GameRun(spec, cfg.seat_servers(g, ws_urls), run, random.Random(master.random()))
        for g, spec in enumerate(specs)
    ]
    clients = [c for r in runs for c in r.clients]
    sems = {url: asyncio.Semaphore(cfg.connect_concurrency) for url in ws_urls}
    opened = pages_open(
        run, clients, [], lambda c: sems[c.ws_base], cfg.connect_timeout, "sockets had their state"
    )
    async with opened as connect_s:
        # The clients' own long-lived objects are made: spare the measurement full collections
        # over them (the servers do the same at start).
        gc.collect()
        gc.freeze()
        run.playing = True  # reconnects count from here (not retries while connecting)
        write(f"connected {len(clients)} sockets in {connect_s:.1f} s; warming up {cfg.warmup:g} s ...")
        period = 1.0 / cfg.rate
        start = time.monotonic() + 0.2
        window = (start + cfg.warmup, start + cfg.warmup + cfg.duration)
        for r in runs:
            r.window = window
        drivers = [asyncio.create_task(r.drive(start, window[1], period)) for r in runs]
        await asyncio.sleep(max(0.0, window[0] - time.monotonic()))
        cpu_start = cpu_snapshot(named)
        shards = layer_shards(cfg.server_env)
        shared_start = await asyncio.to_thread(shared_snapshot, cfg.database_url, cfg.redis_url, *shards)
        await asyncio.sleep(max(0.0, window[1] - time.monotonic()))
        cpu_end = cpu_snapshot(named)
        shared_end = await asyncio.to_thread(shared_snapshot, cfg.database_url, cfg.redis_url, *shards)
        stats.shared = (shared_start, shared_end)
        cpu_window = {k: cpu_end[k] - cpu_start[k] for k in cpu_end}
        named_total = sum(v for k, v in cpu_window.items() if k != "machine")
        cpu_window["rest (postgres, ...)"] = cpu_window["machine"] - named_total
        await asyncio.gather(*drivers)
        drain_end = time.monotonic() + cfg.drain
        while time.monotonic() < drain_end and any(r.pending and not r.pending.complete for r in runs):
            await asyncio.sleep(0.05)
        unfinished = [r.pending for r in runs if r.pending is not None and not r.pending.complete]
        stats.unfinished = sum(m.in_window for m in unfinished)
        stats.unfinished_total = len(unfinished)
        stats.games_ended = sum(1 for r in runs if any(c.over for c in r.clients))
        return stats, connect_s, window[1] - window[0], cpu_window


def run_live_bench(cfg: LiveConfig, write: Callable[[str], None] = print) -> LiveResult:
    """Set up, start the stack, drive every game, and report. Bounded in time; loopback only."""
    if cfg.rate <= 0:
        raise ValueError("the rate is positive")
    result = run_on_stack(
        cfg, write, lambda specs, stack: _drive_all(cfg, specs, stack, write), cfg.games * SEATS, LiveResult
    )
    return reported(result, format_report(result), write)


def format_report(r: LiveResult) -> list[str]:
    cfg, s = r.config, r.stats
    target = cfg.games * cfg.rate
    lat = s.latencies_ms
    lines = [
        f"bench_live: {cfg.games} games x {SEATS} seats ({cfg.games * SEATS} sockets), "
        f"{cfg.servers} server(s) (sockets routed by {cfg.route}), {cfg.rate:g} move/s per game, "
        f"{r.window_s:.0f} s measured after {cfg.warmup:g} s warm-up; {os.cpu_count()} CPUs",
        *r.machine_lines(),
        f"moves sent:     {s.sent} ({r.per_second(s.sent):.1f}/s; schedule {target:.1f}/s)",
        f"moves acked:    {s.acked} ({r.per_second(s.acked):.1f}/s)",
        f"moves complete: {s.completed} (first event at all {SEATS} clients)",
        f"latency send -> last client (ms): p50 {ms(lat, 50)}  p99 {ms(lat, 99)}  "
        f"p99.9 {ms(lat, 99.9)}  max {ms(lat, 100)}  (n={len(lat)})",
        f"latency send -> ack (ms):         p50 {ms(s.ack_ms, 50)}  p99 {ms(s.ack_ms, 99)}  "
        f"max {ms(s.ack_ms, 100)}",
        f"late ticks (previous move in flight, nothing sent): {s.late} of {s.ticks}",
        f"dropped (sent, not complete after {cfg.drain:g} s drain): {s.unfinished} "
        f"({s.unfinished_total} counting warm-up moves; {s.sent_total} moves sent in all)",
        "errors: " + counts(s.errors),
        f"reconnects: {s.reconnects}; seq gaps: {s.seq_gaps}; games ended: {s.games_ended}",
        f"client tick lag (ms): p99 {ms(s.lag_ms, 99)}  max {ms(s.lag_ms, 100)}",
    ]
    if r.cpu_s:
        lines.append(cpu_line(r.cpu_s, r.window_s))
    if s.shared[1]:
        lines.extend(shared_lines(*s.shared, s.acked))
    if s.other_messages:
        lines.append("other messages: " + counts(s.other_messages))
    p99 = percentile(lat, 99)
    ok = (
        cfg.games >= GOAL_GAMES
        and not math.isnan(p99)
        and p99 < GOAL_P99_MS
        and not s.errors
        and not s.unfinished
        and s.late == 0
    )
    lines.append(
        f"goal ({GOAL_GAMES} games at 1 move/s, p99 < {GOAL_P99_MS:g} ms, no errors): "
        + ("met" if ok else "not met" if cfg.games >= GOAL_GAMES else "n/a (fewer games)")
    )
    return lines
