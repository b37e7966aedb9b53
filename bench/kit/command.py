"""What the bench commands share: their configuration read from the options, the servers'
extra environment, and a run guarded as every bench that starts processes runs (SIGTERM unwinds
through the stack, which stops them; loopback only; a bench's mistakes as command errors)."""

from __future__ import annotations

import dataclasses
import signal
from collections.abc import Callable
from typing import Any, TypeVar

from django.core.management.base import CommandError

from bench.kit.stack import check_loopback, ensure_database, use_database

C = TypeVar("C")


def server_env(items: list[str]) -> tuple[tuple[str, str], ...]:
    """`--server-env KEY=VALUE` options, as (key, value) pairs."""
    pairs = [item.partition("=") for item in items]
    if any(not key or not eq for key, eq, _ in pairs):
        raise CommandError("--server-env takes KEY=VALUE")
    return tuple((key, value) for key, _, value in pairs)


def config(cls: type[C], options: dict[str, Any], **given: Any) -> C:
    """A bench's configuration: each field from the option of its name, when given (an option left
    at None keeps the field's default), and `given` over them."""
    names = {f.name for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
    values = {k: v for k, v in options.items() if k in names and v is not None}
    if "server_env" in values:
        values["server_env"] = server_env(values["server_env"])
    return cls(**{**values, **given})


def guarded(run: Callable[[], Any], database_url: str | None = None, redis_url: str | None = None) -> Any:
    """`run()`, with SIGTERM raising KeyboardInterrupt (the stack stops its processes on the way
    out) and ValueError or RuntimeError reported as a command error. Given a PostgreSQL
    `database_url` (created if missing) and `redis_url`, both on loopback, Django's connection is
    pointed at the database first (the bench sets up its games on it)."""

    def stop(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
    try:
        if database_url is not None:
            if not database_url.startswith(("postgres://", "postgresql://")):
                raise CommandError("the bench needs PostgreSQL: --database-url postgres://...@127.0.0.1/...")
            check_loopback(database_url)
            if redis_url is not None:
                check_loopback(redis_url)
            ensure_database(database_url)
            use_database(database_url)
        return run()
    except (ValueError, RuntimeError) as e:
        raise CommandError(str(e)) from e
