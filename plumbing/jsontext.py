"""JSON text for the live sockets and the pushes, through orjson.

Encoding a move's frames with the standard library took 0.5 ms of a server's CPU per move, about a
tenth of all it spends on a move at a 4-seat table; orjson takes a fifth of that
(docs/benchmarks/2026-12-live-play-browser.md).
"""

from __future__ import annotations

import json
from typing import Any

import orjson

# A client's malformed message raises this (a ValueError, as the standard library's error is).
JSONDecodeError = orjson.JSONDecodeError


def dumps(value: Any) -> str:
    """Compact JSON text. What orjson refuses (a lone surrogate in a string a client sent, a key
    that is not a string) is written by the standard library, which escapes or converts it."""
    try:
        return orjson.dumps(value).decode()
    except TypeError:  # orjson.JSONEncodeError is a TypeError
        return json.dumps(value, separators=(",", ":"))


def loads(text: str | bytes) -> Any:
    """The value of JSON text; JSONDecodeError if it is not JSON (or nests deeper than 1,024)."""
    return orjson.loads(text)
