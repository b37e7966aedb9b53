"""What the live benches share (bench/browser.py, bench/deploy.py, bench/push_live.py): their
configuration, the counters of their moves, their result, and one run on a prepared stack."""

from __future__ import annotations

import math
import tempfile
from collections import Counter
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, TypeVar

import uvloop

from bench.kit.client import PageCounts
from bench.kit.stack import (
    DEFAULT_DATABASE_URL,
    DEFAULT_REDIS_URL,
    ROOT,
    SEATS,
    GameSpec,
    prepared_stack,
    raise_file_limit,
)
from bench.kit.stats import jitter_lines

T = TypeVar("T")
R = TypeVar("R", bound="LiveResult")


@dataclass(frozen=True)
class LiveConfig:
    games: int = 10
    servers: int = 1
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
    sent: int = 0  # in the window
    acked: int = 0  # sent in the window and acknowledged (by the end of the drain)
    completed: int = 0  # sent in the window, first event at all four clients
    sent_total: int = 0  # including warm-up
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
