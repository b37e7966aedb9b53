"""Where the tests find Redis: 127.0.0.1:6379 unless TEST_REDIS_HOST names another server.

Two test runs on one machine (two working copies) would share channel groups and brokers on
the same Redis databases; each run can point at its own server instead. So would two workers of
one parallel run (pytest -n): every worker but the first starts a private server of its own
(`private_server`, tests/conftest.py) and names it in TEST_REDIS_HOST before any test reads it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import redis


def redis_url(db: int) -> str:
    return f"redis://{os.environ.get('TEST_REDIS_HOST', '127.0.0.1:6379')}/{db}"


@contextmanager
def private_server() -> Iterator[str]:
    """A Redis server of its own on a free loopback port, with nothing saved to disk, for as
    long as the context lasts; yields its host:port."""

    from tests.support.stack import free_port

    binary = shutil.which("redis-server")
    if binary is None:
        raise RuntimeError("a parallel run needs redis-server (Debian's redis-server) for its workers")
    with tempfile.TemporaryDirectory(prefix="harehra-redis-") as where:
        port = free_port()
        proc = subprocess.Popen(
            [binary, "--bind", "127.0.0.1", "--port", str(port), "--save", "", "--appendonly", "no",
             "--databases", "16", "--dir", where],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )  # fmt: skip
        try:
            client = redis.Redis(host="127.0.0.1", port=port)
            deadline = time.monotonic() + 10
            while True:
                try:
                    client.ping()
                    break
                except redis.ConnectionError:
                    if proc.poll() is not None or time.monotonic() > deadline:
                        raise RuntimeError(f"private redis-server on {port} did not start") from None
                    time.sleep(0.05)
            yield f"127.0.0.1:{port}"
        finally:
            proc.terminate()
            proc.wait(10)


class KillableRedis:
    """A redis-server of the test's own on a fixed port, which it can kill -9 and start again."""

    def __init__(self, where: Path) -> None:
        from tests.support.stack import free_port

        self.port = free_port()
        self.where = where
        self.proc: subprocess.Popen[bytes] | None = None
        self.start()

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.proc = subprocess.Popen(
            ["redis-server", "--bind", "127.0.0.1", "--port", str(self.port), "--save", "",
             "--appendonly", "no", "--dir", str(self.where)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )  # fmt: skip
        client = redis.Redis(port=self.port)
        deadline = time.monotonic() + 10
        while True:
            try:
                client.ping()
                return
            except redis.ConnectionError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.02)

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.kill()
        self.proc.wait(10)

    def subscribers(self, group: str) -> int:
        return int(redis.Redis(port=self.port).pubsub_numsub(f"asgi__group__{group}")[0][1])


@contextmanager
def killable_servers(n: int) -> Iterator[list[KillableRedis]]:
    """`n` Redis servers of the test's own (a sharded channel layer's), stopped at the end."""
    with tempfile.TemporaryDirectory(prefix="harehra-shards-") as where:
        made: list[KillableRedis] = []
        try:
            for _ in range(n):
                made.append(KillableRedis(Path(where)))
            yield made
        finally:
            for server in made:
                if server.proc is not None and server.proc.poll() is None:
                    server.kill()
