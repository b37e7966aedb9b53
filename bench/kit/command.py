"""What the bench commands share: their options declared as rows, their configuration read from
the options, and a run guarded as every bench that starts processes runs (SIGTERM unwinds through
the stack, which stops them; loopback only; a bench's mistakes as command errors)."""

from __future__ import annotations

import dataclasses
import signal
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from django.core.management.base import BaseCommand, CommandError, CommandParser

from bench.kit.stack import (
    DEFAULT_DATABASE_URL,
    DEFAULT_REDIS_URL,
    check_loopback,
    ensure_database,
    use_database,
)

C = TypeVar("C")
Option = tuple[Any, ...]

# The options of the benches that start servers on a database and Redis of their own.
DATABASE = (
    "--database-url",
    DEFAULT_DATABASE_URL,
    "PostgreSQL on 127.0.0.1; created if missing and migrated",
)
REDIS = ("--redis-url", DEFAULT_REDIS_URL, "flushed at start")
SERVER_ENV = (
    "--server-env",
    [],
    "extra environment for the servers and worker; repeatable",
    {"action": "append", "metavar": "KEY=VALUE"},
)
LOG_DIR = ("--log-dir", None, "server and worker logs", {"type": Path})
COMPARE_REF = ("--compare-ref", None, "run REF's code, then this checkout's", {"metavar": "REF"})


def add_options(parser: CommandParser, options: tuple[Option, ...]) -> None:
    """Each row `(flag, default, help[, more of add_argument's keywords])`: the option takes its
    default's type; a False default makes a switch, a tuple a choice of its items (the first the
    default)."""
    for flag, default, text, *more in options:
        kwargs: dict[str, Any] = {"default": default, "help": text}
        if default is False:
            kwargs["action"] = "store_true"
        elif isinstance(default, tuple):
            kwargs.update(choices=default, default=default[0])
        elif default is not None and not isinstance(default, list):
            kwargs["type"] = type(default)
        parser.add_argument(flag, **{**kwargs, **(more[0] if more else {})})


class BenchCommand(BaseCommand):
    """A bench command: its `options` rows."""

    options: tuple[Option, ...] = ()

    def add_arguments(self, parser: CommandParser) -> None:
        add_options(parser, self.options)

    def lines(self, lines: Any) -> None:
        for line in lines:
            self.stdout.write(line)


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
