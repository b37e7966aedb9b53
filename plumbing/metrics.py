"""The service's Prometheus metrics (prometheus_client), defined once here; the apps call the small
functions below, a few counter increments and histogram observations per move.

Several processes (every `serve`, every Celery worker) write to one directory when
PROMETHEUS_MULTIPROC_DIR is set in their environment (prometheus_client's multiprocess mode; it
must be set before this module is first imported, so it is an environment variable, not a Django
setting), and any `serve` process answers a scrape with the sum of all of them
(plumbing/monitoring.py). Without it each process counts only for itself, which is exact for
the embedded one-process server.

docs/OPERATIONS.md ("Metrics") says what each metric means and what to alert on.
"""

from __future__ import annotations

import atexit
import os
import time
from contextvars import ContextVar
from typing import Any

from prometheus_client import Counter, Gauge, Histogram

MULTIPROCESS_DIR = os.environ.get("PROMETHEUS_MULTIPROC_DIR", "")

HTTP_LATENCY = Histogram(
    "harehra_http_request_duration_seconds",
    "HTTP requests: time from arrival to the response, by URL pattern (route) and method",
    ["route", "method"],
)
HTTP_RESPONSES = Counter(
    "harehra_http_responses_total", "HTTP responses by URL pattern and status class", ["route", "status"]
)
SOCKETS_OPEN = Gauge(
    "harehra_websockets_open",
    "Open websockets by kind (game, lobby, table)",
    ["kind"],
    multiprocess_mode="livesum",
)
SOCKET_SESSIONS = Counter("harehra_websocket_sessions_total", "Websockets closed, by kind", ["kind"])
COMMANDS = Counter(
    "harehra_commands_total",
    "People's commands (socket and API) by outcome: ok, duplicate or the refusal's code",
    ["outcome"],
)
APPENDS = Counter(
    "harehra_appends_total",
    "Committed writes to a game's log (moves, bots, timers, seat changes, new games) by what made them",
    ["source"],
)
EVENTS = Counter("harehra_events_appended_total", "Events committed to games' logs")
MOVE_PUSH_LATENCY = Histogram(
    "harehra_move_push_seconds",
    "A move's time from its command's arrival (socket message, HTTP request or task start) to its "
    "push handed to the channel layer after commit",
    ["source"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
)
PUSH_FANOUT = Histogram(
    "harehra_push_fanout_sockets",
    "Sockets one server process had at a game when the game's push arrived",
    buckets=(1, 2, 3, 4, 5, 6, 8, 12, 16, 24, 32, 64, 128),
)
PUSH_DELIVERIES = Counter(
    "harehra_push_deliveries_total", "Game pushes delivered to sockets (one per socket)"
)
PUSH_GAPS = Counter(
    "harehra_push_gaps_total",
    "Pushes a socket got that did not follow on from its last seq (one before was lost or late), and "
    "notices that the game is further than the socket has seen: the socket read what it missed from the log",
)
PUSH_FAILURES = Counter(
    "harehra_push_failures_total", "Pushes that failed after their move committed (the move stands)"
)
CHANNEL_SEND_FAILURES = Counter(
    "harehra_channel_send_failures_total",
    "Sends to the channel layer that failed, by group kind and reason (channel_full, stopping, error)",
    ["group", "reason"],
)
TASK_LATENESS = Histogram(
    "harehra_task_lateness_seconds",
    "How late a bot's move (bot), a countdown (timer) or a slow deadline (slow) task started "
    "against its schedule",
    ["task"],
    buckets=(0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0, 300.0),
)
SWEEPS = Counter("harehra_sweeps_total", "Runs of the beat's sweep")
SWEEP_WORK = Counter(
    "harehra_sweep_work_total",
    "The sweep's pieces of work by stage and result (done, failed)",
    ["stage", "result"],
)
SWEEP_UNREAD = Counter(
    "harehra_sweep_unread_total", "Sweep work lists that could not be read, by stage", ["stage"]
)
SWEEP_SET_ASIDE = Counter("harehra_sweep_set_aside_total", "Games the sweep set aside")
TOURNAMENT_PUSHES = Counter(
    "harehra_tournament_pushes_total",
    "Messages published to tournament pages: the standings (to every page of the event) or one "
    "player's own entry (to their pages)",
    ["kind"],
)
TOURNAMENT_STANDINGS = Histogram(
    "harehra_tournament_standings_seconds",
    "Reading and encoding an event's standings for its pages, once per change",
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0),
)

if MULTIPROCESS_DIR:
    from prometheus_client import multiprocess

    # A process's live gauges (its open sockets) go with it; a killed one's stay until the
    # directory is emptied, which the service's start does (docs/OPERATIONS.md).
    atexit.register(multiprocess.mark_process_dead, os.getpid())

# Where and when the move being made started: set by the transport that took the command (the
# socket, the HTTP request, the task), read by the push after commit. Context variables follow the
# call into the database thread (asgiref copies them), so nothing is passed through the services.
_move_origin: ContextVar[tuple[str, float] | None] = ContextVar("move_origin", default=None)


def move_origin_set(source: str, started: float | None = None) -> Any:
    """Moves made from here on (in this context) started at `started` (perf_counter), from
    `source`. Returns the token for `move_origin_reset`."""
    return _move_origin.set((source, time.perf_counter() if started is None else started))


def move_origin_reset(token: Any) -> None:
    _move_origin.reset(token)


def move_pushed(events: int) -> None:
    """A write to a game's log committed and its push was handed to the channel layer."""
    origin = _move_origin.get()
    source = origin[0] if origin else "other"
    APPENDS.labels(source).inc()
    EVENTS.inc(events)
    if origin:
        MOVE_PUSH_LATENCY.labels(source).observe(time.perf_counter() - origin[1])


def push_failed() -> None:
    PUSH_FAILURES.inc()


def command_done(outcome: str) -> None:
    COMMANDS.labels(outcome).inc()


def socket_opened(kind: str) -> None:
    SOCKETS_OPEN.labels(kind).inc()


def socket_closed(kind: str) -> None:
    SOCKETS_OPEN.labels(kind).dec()
    SOCKET_SESSIONS.labels(kind).inc()


def push_delivered(fanout: int | None) -> None:
    """A push reached a socket; `fanout` (the process's sockets at that game) with the first
    delivery of each push in this process."""
    PUSH_DELIVERIES.inc()
    if fanout is not None:
        PUSH_FANOUT.observe(fanout)


def push_gap() -> None:
    PUSH_GAPS.inc()


def channel_send_failed(group: str, reason: str) -> None:
    CHANNEL_SEND_FAILURES.labels(group.partition(".")[0], reason).inc()


def task_late(task: str, seconds: float) -> None:
    TASK_LATENESS.labels(task).observe(max(seconds, 0.0))


def sweep_done(done: dict[str, int], failed: dict[str, int], unread: list[str], set_aside: int) -> None:
    SWEEPS.inc()
    sweep_work(done, failed, set_aside)
    for stage in unread:
        SWEEP_UNREAD.labels(stage).inc()


def sweep_work(done: dict[str, int], failed: dict[str, int], set_aside: int) -> None:
    """Work done for the sweep, by the sweep or by a task it handed a game to."""
    for stage, n in done.items():
        SWEEP_WORK.labels(stage, "done").inc(n)
    for stage, n in failed.items():
        SWEEP_WORK.labels(stage, "failed").inc(n)
    if set_aside:
        SWEEP_SET_ASIDE.inc(set_aside)


def tournament_pushed(kind: str, seconds: float | None = None) -> None:
    """A tournament message was handed to the channel layer (`seconds`: the standings' reading)."""
    TOURNAMENT_PUSHES.labels(kind).inc()
    if seconds is not None:
        TOURNAMENT_STANDINGS.observe(seconds)
