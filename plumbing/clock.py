"""The time the slow path reads: `now()`, which tests may move forward.

Slow tables' deadlines lie hours or days ahead; a test cannot wait for them, so the code that
stamps and fires them (games/services/moves.py, autoplay.py, turns.py) reads this clock instead
of `timezone.now()`. In production nothing moves it and it is `timezone.now()`.

`shift(delta)` moves the clock of this process. Processes that must share a moved clock (a test's
stack: a server, a worker and a beat) name a file in the setting CLOCK_SHIFT_FILE: each process
adds the seconds written there, re-read when the file changes (one stat per read of the clock);
`shift` then writes the file too. The setting is unset in production, and then no file is read.
"""

from __future__ import annotations

import os
from datetime import datetime, timedelta

from django.conf import settings
from django.utils import timezone

_shift = timedelta(0)
_file_seen: tuple[float, timedelta] | None = None  # (mtime, shift) of CLOCK_SHIFT_FILE last read


def _file_shift() -> timedelta:
    global _file_seen
    path = getattr(settings, "CLOCK_SHIFT_FILE", "")
    if not path:
        return timedelta(0)
    try:
        mtime = os.stat(path).st_mtime
    except FileNotFoundError:
        return timedelta(0)
    if _file_seen is None or _file_seen[0] != mtime:
        with open(path, encoding="ascii") as f:
            text = f.read().strip()
        _file_seen = (mtime, timedelta(seconds=float(text or 0)))
    return _file_seen[1]


def now() -> datetime:
    """The current time, moved by whatever a test shifted it."""
    return timezone.now() + _shift + _file_shift()


def shift(delta: timedelta) -> None:
    """Move the clock forward (or back) by `delta`: tests only."""
    global _shift
    path = getattr(settings, "CLOCK_SHIFT_FILE", "")
    if path:
        total = _file_shift() + delta
        with open(path, "w", encoding="ascii") as f:
            f.write(str(total.total_seconds()))
        return
    _shift += delta


def reset() -> None:
    """Back to the real time: tests only."""
    global _shift, _file_seen
    _shift = timedelta(0)
    _file_seen = None
    path = getattr(settings, "CLOCK_SHIFT_FILE", "")
    if path and os.path.exists(path):
        os.remove(path)
