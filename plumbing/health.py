"""Is this server process alive, and should a load balancer send it players?

- `/healthz` (liveness): the process answers. Nothing else is asked (no database), so a
  restart is never ordered because PostgreSQL or Redis is down.
- `/readyz` (readiness): PostgreSQL, Redis and the channel layer answer, no migration is left
  unapplied, and the process is not draining. With a replica configured it also reports the
  replica's state and lag (`"replica": {"state": "ok", "lag_seconds": 0.0, ...}`), which never
  makes the process unready (plumbing/replica.py). Each check is bounded (CHECK_SECONDS, and the
  library adds a second for the check's own client to report first), all run at once, so an
  answer comes within 1.5 s however the services hang. A failed check answers 503.

Both answer JSON, naming each check: `{"status": "unready", "checks": {"redis": "Unable to
connect to Redis: Connection was refused.", ...}, "failed": ["redis"]}`.

The checks are django-health-check's (its PostgreSQL and Redis ones, and its bounded runner),
with three of the site's own: the draining flag, the channel layer and the migrations. Its view
is not used: it answers 500 on a failure and chooses HTML or JSON by the Accept header, and a
probe must get past neither ALLOWED_HOSTS (a prober names the server's address, not the site's
name) nor the HTTPS redirect. So the two paths are answered at the ASGI edge (`health_edge`),
in front of Django, which is also where a draining process turns new sockets away.

Draining: on SIGTERM `manage.py serve` calls `drain_start()` before anything else. From then on
`/readyz` fails and a new websocket handshake is refused with HTTP 503 (a load balancer passes a
GET refused so to another server; a browser reconnects), while open sockets finish the message
in hand (harehra_site/management/commands/serve.py).
"""

from __future__ import annotations

import asyncio
import dataclasses
import datetime
import json
from collections.abc import Awaitable, Callable, MutableMapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from health_check.base import HealthCheck, HealthCheckResult
from health_check.checks import Database
from health_check.contrib.redis import Redis
from health_check.exceptions import ServiceUnavailable

CHECK_SECONDS = 0.5
LIVENESS_PATH = "/healthz"
READINESS_PATH = "/readyz"

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]

_draining = False


def drain_start() -> None:
    """From now on this process is not ready and takes no new socket (it is stopping)."""
    global _draining
    _draining = True


def is_draining() -> bool:
    return _draining


# --- the checks ---------------------------------------------------------------------------------

_BOUND = datetime.timedelta(seconds=CHECK_SECONDS)


@dataclasses.dataclass
class NotDraining(HealthCheck):
    timeout = _BOUND

    async def run(self) -> None:
        if _draining:
            raise ServiceUnavailable("draining: the process is stopping")


@dataclasses.dataclass
class BoundedDatabase(Database):
    timeout = _BOUND


@dataclasses.dataclass
class BoundedRedis(Redis):
    timeout = _BOUND


@dataclasses.dataclass
class ChannelLayer(HealthCheck):
    """A group send through this process's own channel layer (on its event loop, as the sockets'
    pushes go): one PUBLISH on Redis, to a group nobody is in."""

    timeout = _BOUND

    async def run(self) -> None:
        from channels.layers import get_channel_layer

        layer = get_channel_layer()
        if layer is None:
            raise ServiceUnavailable("no channel layer configured")
        try:
            await layer.group_send("health", {"type": "health.probe"})
        except Exception as e:  # whatever the layer's client raises: a refused or dropped connection
            raise ServiceUnavailable(f"channel layer: {type(e).__name__}") from e


_migrations_applied = False


@dataclasses.dataclass
class MigrationsApplied(HealthCheck):
    """Every migration this code has is applied. Once it was, it stays so for the process's life
    (its code does not change), so the graph is read from disk until the first success only."""

    timeout = _BOUND

    def run(self) -> None:
        global _migrations_applied
        if _migrations_applied:
            return
        from django.db import connection
        from django.db.migrations.executor import MigrationExecutor

        try:
            executor = MigrationExecutor(connection)
            plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
        except Exception as e:
            raise ServiceUnavailable(f"cannot read the migrations: {type(e).__name__}") from e
        finally:
            connection.close()
        if plan:
            names = ", ".join(f"{m.app_label}.{m.name}" for m, _ in plan[:3])
            raise ServiceUnavailable(f"{len(plan)} migration(s) not applied: {names}")
        _migrations_applied = True


def readiness_checks() -> dict[str, HealthCheck]:
    from django.conf import settings

    checks: dict[str, HealthCheck] = {
        "draining": NotDraining(),
        "database": BoundedDatabase(),
        "channel_layer": ChannelLayer(),
        "migrations": MigrationsApplied(),
    }
    if settings.REDIS_URL:  # the cache, the Celery broker and the channel layer's server
        from redis.asyncio import Redis as RedisClient

        url = settings.REDIS_URL
        checks["redis"] = BoundedRedis(
            client_factory=lambda: RedisClient.from_url(
                url, socket_connect_timeout=CHECK_SECONDS, socket_timeout=CHECK_SECONDS
            )
        )
    return checks


# The synchronous checks (PostgreSQL, the migrations) run on threads of their own: a database that
# hangs holds these, never the threads the sockets' queries run on.
_executor = ThreadPoolExecutor(max_workers=4, thread_name_prefix="readyz")


async def readiness() -> tuple[int, dict[str, Any]]:
    checks = readiness_checks()
    replica_task = asyncio.ensure_future(_replica())  # beside the checks, in the same bound
    results: list[HealthCheckResult] = await asyncio.gather(
        *(check.get_result(_executor) for check in checks.values())
    )
    answers = {name: str(r.error) if r.error else "OK" for name, r in zip(checks, results, strict=True)}
    failed = [name for name, answer in answers.items() if answer != "OK"]
    body = {"status": "unready" if failed else "ready", "checks": answers, "failed": failed}
    replica = await replica_task
    if replica is not None:
        body["replica"] = replica
    return (503 if failed else 200), body


def _replica_report() -> dict[str, Any]:
    from django.db import connections

    from .replica import replica_report

    try:
        return replica_report()
    finally:
        connections.close_all()  # this thread's borrowed connections go back to their pools


async def _replica() -> dict[str, Any] | None:
    """The replica's state and lag, reported beside the checks, never one of them: a lagging or
    lost replica sends reads to the primary, so the server stays ready (plumbing/replica.py)."""
    from .replica import configured

    if not configured():
        return None
    loop = asyncio.get_running_loop()
    try:
        return await asyncio.wait_for(loop.run_in_executor(_executor, _replica_report), CHECK_SECONDS + 0.5)
    except TimeoutError:
        return {"state": "unknown", "error": f"no answer within {CHECK_SECONDS + 0.5} s"}


# --- the ASGI edge ------------------------------------------------------------------------------


async def _answer(send: Send, status: int, body: dict[str, Any]) -> None:
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [(b"content-type", b"application/json"), (b"cache-control", b"no-store")],
        }
    )
    await send({"type": "http.response.body", "body": json.dumps(body).encode()})


async def _refuse_socket(receive: Receive, send: Send) -> None:
    """A draining process's answer to a websocket handshake: HTTP 503 where the server can send
    one (Uvicorn can), else a close before accepting (the client sees the handshake fail)."""
    message = await receive()
    if message["type"] != "websocket.connect":
        return
    await send(
        {
            "type": "websocket.http.response.start",
            "status": 503,
            "headers": [(b"content-type", b"application/json"), (b"retry-after", b"1")],
        }
    )
    body = {"code": "draining", "detail": "this server is restarting: connect again"}
    await send({"type": "websocket.http.response.body", "body": json.dumps(body).encode()})


def health_edge(app: Any) -> Any:
    """`app` behind the health endpoints and the draining gate."""

    async def edge(scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind == "http" and scope["path"] == LIVENESS_PATH:
            await _answer(send, 200, {"status": "alive", "draining": _draining})
            return
        if kind == "http" and scope["path"] == READINESS_PATH:
            await _answer(send, *await readiness())
            return
        if kind == "websocket" and _draining:
            if "websocket.http.response" in scope.get("extensions", {}):
                await _refuse_socket(receive, send)
            else:
                await receive()
                await send({"type": "websocket.close", "code": 1012})
            return
        await app(scope, receive, send)

    return edge
