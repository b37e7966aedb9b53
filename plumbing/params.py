"""Whole numbers from URLs, query strings and socket parameters, parsed in one place.

`str.isdigit()` is true for "²" and "٣", which `int()` then refuses (or reads as another number):
only ASCII digits are accepted here, and a refusal is a 400 with the stable code `bad_integer`.
"""

from __future__ import annotations

import re

from .errors import ServiceError

MAX_COUNT = 999_999_999
_DIGITS = re.compile(r"[0-9]{1,9}")


def is_count(raw: str | None) -> bool:
    """`raw` is a whole number from 0 to MAX_COUNT written in ASCII digits."""
    return raw is not None and _DIGITS.fullmatch(raw) is not None


def parse_count(raw: str | None, name: str, default: int | None = None) -> int | None:
    """`raw` read as a whole number from 0 to MAX_COUNT; `default` when it is missing or empty."""
    if raw is None or raw == "":
        return default
    if not is_count(raw):
        raise ServiceError("bad_integer", f"{name} is a whole number from 0 to {MAX_COUNT}")
    return int(raw)
