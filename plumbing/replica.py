"""Reads that tolerate lag, from a streaming replica of the primary (`DATABASE_REPLICA_URL`).

Nothing goes to the replica unless code asks for it: a view that only reads what may be a few
seconds old (a finished game's replay, a profile, the leaderboard, a finished event's standings)
is decorated with `replica_view`, other code wraps a read in `replica_read`. A router that sent
every read to the replica would break the move path: its `select_for_update` is a read to Django's
router, and a standby refuses it; a command that read its game from a replica a move behind would
be refused as stale. So reads go to the primary everywhere else, as before, and writes always.

What the person just caused is read from the primary (read-your-writes):
- the person's session and user are read on the primary before the view reads anything;
- for `stick_seconds()` after any request of theirs that may write (POST, PUT, PATCH, DELETE) a
  signed cookie (`ReadYourWritesMiddleware`) sends all their reads to the primary: the replica
  serves reads only while its measured lag is within `REPLICA_MAX_LAG_SECONDS`, measured at most
  `REPLICA_CHECK_SECONDS` ago, so after that long it holds the write;
- a view that finds, on the replica, something still changing (a running game, an event not over,
  the person's own profile) calls `primary_needed()` and is run again on the primary: a game
  finished by a move on a socket is then never shown unfinished to the player who finished it.

A lost or lagging replica is never an error on a page: the lag is measured (once a
`REPLICA_CHECK_SECONDS` per process, on the request that finds it old) and past the limit reads
go to the primary; a replica connection that fails marks it down for `REPLICA_RETRY_SECONDS` and
the view runs again on the primary. `/readyz` reports the replica (`replica_report`); a replica in
trouble never makes a server unready, as the primary serves its reads.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from contextvars import ContextVar
from dataclasses import dataclass
from functools import wraps
from typing import Any, ParamSpec, TypeVar

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.utils import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse

REPLICA = "replica"
COOKIE = "harehra_wrote"
_SALT = "plumbing.replica.wrote"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "TRACE"})

P = ParamSpec("P")
R = TypeVar("R")

_reading: ContextVar[bool] = ContextVar("replica_reading", default=False)


class PrimaryNeeded(Exception):
    """What was read on the replica may be behind what the reader expects: read it all again on
    the primary."""


def configured() -> bool:
    return REPLICA in settings.DATABASES


def reading_replica() -> bool:
    return _reading.get()


def primary_needed() -> None:
    """Called where a read on the replica found something still changing: the caller's whole read
    runs again on the primary (nothing happens when it already reads the primary)."""
    if _reading.get():
        raise PrimaryNeeded


def max_lag() -> float:
    return float(getattr(settings, "REPLICA_MAX_LAG_SECONDS", 5.0))


def check_every() -> float:
    return float(getattr(settings, "REPLICA_CHECK_SECONDS", 1.0))


def retry_after() -> float:
    return float(getattr(settings, "REPLICA_RETRY_SECONDS", 10.0))


def stick_seconds() -> float:
    """How long after a person's write their reads stay on the primary: a replica used for reads
    is at most `max_lag` behind as of a measure at most `check_every` old, plus a second to spare."""
    return max_lag() + check_every() + 1.0


# --- the router ---------------------------------------------------------------------------------


class ReplicaRouter:
    """Reads inside `replica_read` / `replica_view` go to the replica, everything else to the
    primary (installed only when a replica is configured)."""

    def db_for_read(self, model: Any, **hints: Any) -> str:
        # A transaction a service opened inside (to write, or to read under a lock) reads the
        # primary: what it reads must be what it writes against.
        if _reading.get() and not connections[DEFAULT_DB_ALIAS].in_atomic_block:
            return REPLICA
        return DEFAULT_DB_ALIAS

    def db_for_write(self, model: Any, **hints: Any) -> str:
        return DEFAULT_DB_ALIAS

    def allow_relation(self, obj1: Any, obj2: Any, **hints: Any) -> bool:
        return True  # the same rows: a replica's copy of a row may be named by a primary's one

    def allow_migrate(self, db: str, app_label: str, **hints: Any) -> bool | None:
        return False if db == REPLICA else None


# --- the replica's state in this process --------------------------------------------------------


@dataclass
class _State:
    checked_at: float = float("-inf")  # time.monotonic() of the last measure
    lag: float | None = None  # seconds behind the primary at that measure; None: not known
    down_until: float = float("-inf")  # no measure nor read before this (it failed)
    error: str = ""
    in_recovery: bool = True


_state = _State()
_measuring = threading.Lock()

# The replica has replayed everything the primary had written when its position was read, or the
# seconds since the last transaction it replayed was committed. (A replica of an idle primary has
# replayed everything: its last replayed transaction's age is then no lag.)
_LAG_SQL = (
    "SELECT pg_is_in_recovery(), pg_last_wal_replay_lsn() >= %s::pg_lsn, "
    "EXTRACT(EPOCH FROM clock_timestamp() - pg_last_xact_replay_timestamp())"
)


def _mark_down(error: BaseException | str) -> None:
    _state.down_until = time.monotonic() + retry_after()
    _state.lag = None
    _state.error = error if isinstance(error, str) else f"{type(error).__name__}: {error}".strip()[:200]
    # A broken connection goes back to nobody (closing what is already broken may raise: ignored).
    with suppress(Exception):
        connections[REPLICA].close()


def measure() -> None:
    """Measure the replica's lag now (two statements: the primary's WAL position, then the
    replica's replay position and the age of the last transaction it replayed)."""
    now = time.monotonic()
    _state.checked_at = now
    try:
        with connections[DEFAULT_DB_ALIAS].cursor() as primary:
            primary.execute("SELECT pg_current_wal_lsn()::text")
            (position,) = primary.fetchone()
        with connections[REPLICA].cursor() as replica:
            replica.execute(_LAG_SQL, [position])
            in_recovery, caught_up, age = replica.fetchone()
    except (OperationalError, InterfaceError) as e:
        _mark_down(e)
        return
    _state.in_recovery = bool(in_recovery)
    _state.error = ""
    if not in_recovery or caught_up:
        _state.lag = 0.0  # (not in recovery: the replica is a primary of its own, never behind)
    else:
        _state.lag = float(age) if age is not None else None
        if _state.lag is None:
            _state.error = "the replica has replayed no transaction yet"


def replica_usable() -> bool:
    """Whether reads that tolerate lag may go to the replica now: it answered its last measure
    and was within `REPLICA_MAX_LAG_SECONDS`. Measures when the last measure is older than
    `REPLICA_CHECK_SECONDS` (one thread at a time: the others take the last figure)."""
    if not configured():
        return False
    now = time.monotonic()
    if now < _state.down_until:
        return False
    if now - _state.checked_at >= check_every() and _measuring.acquire(blocking=False):
        try:
            measure()
        finally:
            _measuring.release()
    return _state.lag is not None and _state.lag <= max_lag() and time.monotonic() >= _state.down_until


def replica_report() -> dict[str, Any]:
    """The replica as `/readyz` reports it (measured now): state `off` (none configured), `ok`,
    `lagging` (past the limit: reads go to the primary) or `down` (the same, until it answers)."""
    if not configured():
        return {"state": "off"}
    with _measuring:
        if time.monotonic() >= _state.down_until:
            measure()
    lag = _state.lag
    if time.monotonic() < _state.down_until:
        state = "down"
    else:
        state = "ok" if lag is not None and lag <= max_lag() else "lagging"
    report: dict[str, Any] = {
        "state": state,
        "lag_seconds": None if lag is None else round(lag, 3),
        "max_lag_seconds": max_lag(),
    }
    if _state.error:
        report["error"] = _state.error
    if not _state.in_recovery:
        report["in_recovery"] = False
    return report


# --- reading from it ----------------------------------------------------------------------------


def wrote_recently(request: HttpRequest) -> bool:
    return request.get_signed_cookie(COOKIE, default=None, salt=_SALT, max_age=stick_seconds()) is not None


@contextmanager
def reads_from_replica(request: HttpRequest | None = None) -> Iterator[bool]:
    """Reads inside go to the replica when it may serve them (yields whether it does): configured,
    usable, not inside a transaction on the primary, and the person (`request`) wrote nothing
    lately. The person's session and user are read on the primary first."""
    use = configured()
    if use and request is not None:
        user = getattr(request, "user", None)
        if user is not None:
            bool(user.is_authenticated)  # a lazy user: loaded now, from the primary
        use = not wrote_recently(request)
    use = use and not connections[DEFAULT_DB_ALIAS].in_atomic_block and replica_usable()
    token = _reading.set(use)
    try:
        yield use
    finally:
        _reading.reset(token)


def _request_of(args: tuple[Any, ...]) -> HttpRequest | None:
    """The request among a view's arguments (Django's, or the one a DRF Request wraps)."""
    for arg in args:
        arg = getattr(arg, "_request", arg)
        if isinstance(arg, HttpRequest):
            return arg
    return None


def replica_read(read: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
    """`read(...)` on the replica when it may serve it, else (or when it raises PrimaryNeeded, or
    the replica's connection fails) on the primary. `read` must only read: it may run twice."""
    with reads_from_replica(_request_of(args)) as on_replica:
        if on_replica:
            try:
                return read(*args, **kwargs)
            except PrimaryNeeded:
                pass
            except (OperationalError, InterfaceError) as e:
                # Whatever failed on the replica (it went away, a query cancelled by a conflict
                # with its recovery) is read again on the primary; a primary that failed fails again.
                _mark_down(e)
    return read(*args, **kwargs)


def replica_view(view: Callable[P, R]) -> Callable[P, R]:
    """A view (function, or an API view's method through `method_decorator`) whose reads may be
    a few seconds old: run by `replica_read`. Attributes set on `view` (throttle_classes) stay."""

    @wraps(view)
    def wrapped(*args: P.args, **kwargs: P.kwargs) -> R:
        return replica_read(view, *args, **kwargs)

    return wrapped


class ReadYourWritesMiddleware:
    """After a request that may write, the person reads from the primary for `stick_seconds()`
    (a signed cookie; installed only when a replica is configured)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if request.method not in SAFE_METHODS:
            response.set_signed_cookie(
                COOKIE,
                "1",
                salt=_SALT,
                max_age=int(stick_seconds()) + 1,
                httponly=True,
                samesite="Lax",
                secure=settings.SESSION_COOKIE_SECURE,
            )
        return response
