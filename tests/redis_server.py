"""Where the tests find Redis: 127.0.0.1:6379 unless TEST_REDIS_HOST names another server.

Two test runs on one machine (two working copies) would share channel groups and brokers on
the same Redis databases; each run can point at its own server instead.
"""

from __future__ import annotations

import os

TEST_REDIS_HOST = os.environ.get("TEST_REDIS_HOST", "127.0.0.1:6379")


def redis_url(db: int) -> str:
    return f"redis://{TEST_REDIS_HOST}/{db}"
