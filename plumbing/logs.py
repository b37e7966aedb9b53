"""Log lines: JSON (python-json-logger), one object a line, or text for a person at a terminal
(LOG_FORMAT, settings.LOGGING). The service's own records (`harehra.requests`, `harehra.sockets`,
`harehra.commands`) carry their fields as `extra`; both formats print them.

Nothing secret is ever a field: no hand, card of a hand or draw pile, password, token, cookie or
session id. Paths are logged as their URL pattern, never with their query (a socket's token may
ride there)."""

from __future__ import annotations

import logging
import time
from typing import Any

from pythonjsonlogger.core import RESERVED_ATTRS
from pythonjsonlogger.json import JsonFormatter

from plumbing import metrics

_STANDARD = frozenset(RESERVED_ATTRS) | {"taskName", "color_message"}

commands_log = logging.getLogger("harehra.commands")
sockets_log = logging.getLogger("harehra.sockets")


class JsonLines(JsonFormatter):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("timestamp", True)
        super().__init__("%(levelname)s %(name)s %(message)s", *args, **kwargs)


class TextLines(logging.Formatter):
    """`time LEVEL logger: message key=value ...`: the record's extra fields after its message."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s: %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        line = super().format(record)
        extra = [
            f"{k}={v}" for k, v in record.__dict__.items() if k not in _STANDARD and not k.startswith("_")
        ]
        if not extra:
            return line
        head, sep, tail = line.partition("\n")  # a traceback stays below the fields
        return f"{head} {' '.join(extra)}{sep}{tail}"


def command_observed(
    game_id: int, user: Any, cmd_id: Any, seq: int | None, outcome: str, started: float, via: str
) -> None:
    """A person's command is done (`via` the socket or the API), `started` at that perf_counter:
    counted by outcome (ok, duplicate or the refusal's code) and logged, one line with the game,
    the user, the client's id for the command, the seq it reached and how long it took."""
    metrics.command_done(outcome)
    commands_log.info(
        "command",
        extra={
            "game": game_id,
            "user": user.pk if user.is_authenticated else None,
            "cmd_id": cmd_id,
            "seq": seq,
            "outcome": outcome,
            "duration_ms": round((time.perf_counter() - started) * 1000, 2),
            "via": via,
        },
    )


def log_socket(
    *, kind: str, fields: dict[str, Any], duration_s: float, messages_in: int, messages_out: int, code: Any
) -> None:
    """One websocket session, when it closes."""
    sockets_log.info(
        "socket",
        extra={
            "kind": kind,
            **fields,
            "duration_s": round(duration_s, 3),
            "messages_in": messages_in,
            "messages_out": messages_out,
            "close_code": code,
        },
    )
