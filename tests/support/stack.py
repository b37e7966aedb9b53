"""Start real server processes on loopback: ASGI servers and a Celery worker (tests and benchmarks)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.support.waits import wait_until

ROOT = Path(__file__).resolve().parents[2]
OUTPUT = ROOT / "test-output"
SERVER_SETTINGS = "tests.support.server_settings"  # the site's, with the test process's fast hasher
# The Procfile's `analyst`: the "analysis" queue alone, one analysis at a time, one reserved.
ANALYST_ARGS = ("--queues", "analysis", "--pool", "solo", "--concurrency", "1", "--prefetch-multiplier", "1")


def database_url(settings_dict: dict[str, Any]) -> str:
    """The URL of the PostgreSQL database a Django connection uses (e.g. the test database), for
    server processes started on it."""
    s = settings_dict
    return f"postgres://{s['USER'] or 'postgres'}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Stack:
    env: dict[str, str]
    log_dir: Path
    root: Path = ROOT  # the checkout whose manage.py the processes run (e.g. an older commit's)
    servers: list[tuple[subprocess.Popen[bytes], int]] = field(default_factory=list)
    workers: list[subprocess.Popen[bytes]] = field(default_factory=list)

    def url(self, i: int = 0) -> str:
        return f"http://127.0.0.1:{self.servers[i][1]}"

    def ws_url(self, i: int = 0) -> str:
        return f"ws://127.0.0.1:{self.servers[i][1]}"

    def start_server(self, worker: str = "none") -> int:
        self.servers.append(self._server(worker))
        return len(self.servers) - 1

    def _server(self, worker: str) -> tuple[subprocess.Popen[bytes], int]:
        port = free_port()
        log = open(self.log_dir / f"server-{port}.log", "wb")  # noqa: SIM115
        proc = subprocess.Popen(
            [sys.executable, "manage.py", "serve", "--port", str(port), "--worker", worker],
            cwd=self.root,
            env=self.env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        _wait_http(f"http://127.0.0.1:{port}/api/tables/", proc)
        return proc, port

    def as_new(self) -> None:
        """Make a running stack fit for the next test, as if just started (its database aside):
        start a new server in place of each one a test killed, and empty what the processes keep
        in Redis (`forget_site_state`)."""
        for i, (proc, _) in enumerate(self.servers):
            if proc.poll() is not None:
                self.servers[i] = self._server("none")
        forget_site_state(self.env["REDIS_URL"])

    def start_worker(self) -> None:
        self._celery("worker", [
            "-B", "--scheduler", "harehra_site.beat:DueAtStartScheduler",
            "--pool", "threads", "--concurrency", "4",
        ])  # fmt: skip

    def start_analyst(self) -> None:
        """A worker on the "analysis" queue alone, as the Procfile's `analyst` runs it."""
        self._celery("analyst", [*ANALYST_ARGS, "--hostname", f"analyst-{len(self.workers)}@%h"])

    def _celery(self, name: str, args: list[str]) -> None:
        """A Celery worker process with `args`, logging to `<name>-<k>.log`."""
        log = open(self.log_dir / f"{name}-{len(self.workers)}.log", "wb")  # noqa: SIM115
        proc = subprocess.Popen(
            [
                sys.executable, "-m", "celery", "-A", "harehra_site", "worker", *args,
                "--loglevel", "WARNING", "--without-mingle", "--without-gossip",
            ],
            cwd=self.root,
            env=self.env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )  # fmt: skip
        self.workers.append(proc)

    def dump_tasks(self) -> None:
        """Have every live server log its tasks' and threads' stacks (for a test that timed out)."""
        for proc, _ in self.servers:
            if proc.poll() is None:
                proc.send_signal(signal.SIGUSR1)

    def restart_server(self, i: int) -> None:
        """Stop server `i` (SIGTERM: it drains) and start a new one in its place (on a new port)."""
        proc, _ = self.servers[i]
        proc.terminate()
        proc.wait(30)
        self.servers[i] = self._server("none")

    def kill_server(self, i: int) -> None:
        proc, _ = self.servers[i]
        proc.kill()
        proc.wait(10)

    def stop(self) -> None:
        for proc in [p for p, _ in self.servers] + self.workers:
            if proc.poll() is None:
                proc.terminate()
        for proc in [p for p, _ in self.servers] + self.workers:
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


def _wait_http(url: str, proc: subprocess.Popen[bytes], timeout: float = 30) -> None:
    # Any answer of Django's will do: with HTTPS=1 it is a redirect to https://, not followed.
    opener = urllib.request.build_opener(_NoRedirect)

    def answers() -> bool:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited with {proc.returncode}")
        try:
            opener.open(url, timeout=1)
        except urllib.error.HTTPError as e:
            return e.code < 500
        except OSError:
            return False
        return True

    wait_until(answers, f"server at {url} did not answer", timeout=timeout, every=0.1)


# Every client a bench or a test simulates comes from one address (127.0.0.1): the bounds per
# address (and per signed-out client) on whole replays and logs (docs/OPERATIONS.md, "What a
# request costs") would count a bench's 150 spectators as one client. Tests of those throttles
# run in the test process (tests/replays/test_replay_throttles.py).
ONE_ADDRESS_THROTTLES = dict.fromkeys(
    (
        "THROTTLE_REPLAY_FRAMES",
        "THROTTLE_REPLAY_FRAMES_ADDRESS",
        "THROTTLE_GAME_LOG",
        "THROTTLE_GAME_LOG_ADDRESS",
    ),
    "1000000/min",
)


@contextmanager
def live_stack(
    *,
    database_url: str,
    redis_url: str,
    servers: int,
    worker: bool,
    log_dir: Path,
    analyst: bool = False,
    root: Path | str = ROOT,  # str too: callers pass their extra environment as **dict[str, str]
    **extra_env: str,
) -> Iterator[Stack]:
    """`servers` ASGI processes sharing PostgreSQL and Redis, and optionally one Celery worker with
    beat, and an analyst (a worker on the "analysis" queue alone, as the Procfile's).

    `root` is the checkout they run (this one by default): an A/B bench runs an older commit's code
    from a worktree on the same database, Redis and virtualenv."""
    log_dir.mkdir(parents=True, exist_ok=True)
    # Persistent database connections, as in production: these processes end before the database does.
    env = {**os.environ, "DATABASE_URL": database_url, "REDIS_URL": redis_url, "CONN_MAX_AGE": "60"}
    # No rated game's end starts an analysis unless the caller asks (the site's default with Redis).
    env.setdefault("ANALYSIS_AUTOMATIC", "0")
    for name, rate in ONE_ADDRESS_THROTTLES.items():
        env.setdefault(name, rate)
    env.pop("DJANGO_SETTINGS_MODULE", None)  # the caller's (e.g. pytest's) is not the servers'
    env.update(extra_env)  # which may name a settings module of its own
    stack = Stack(env=env, log_dir=log_dir, root=Path(root))
    try:
        for _ in range(servers):
            stack.start_server()
        if worker:
            stack.start_worker()
        if analyst:
            stack.start_analyst()
        yield stack
    finally:
        stack.stop()


def forget_site_state(redis_url: str) -> None:
    """Empty what running servers and a worker keep in Redis (the cache's throttle counters,
    lockouts and presence, and the tasks not yet run) but keep Celery's queue bindings, which
    the worker declares once at its start: without them the broker drops every new task."""
    import redis

    r = redis.Redis.from_url(redis_url)
    doomed = [key for key in r.scan_iter(count=1000) if not key.startswith(b"_kombu.binding.")]
    if doomed:
        r.delete(*doomed)


@contextmanager
def stack_for_test(
    name: str, *, redis_db: int, servers: int = 2, worker: bool = True, **extra_env: str
) -> Iterator[Stack]:
    """`live_stack` for a test: on the test database (Django's connection), on Redis database
    `redis_db` of the test Redis (emptied first), logging to test-output/servers/`name`, with the
    settings of tests/support/server_settings.py unless `extra_env` names others.

    The `stack` fixture (tests/conftest.py) starts it once per module, with the module's
    `stack_options`."""
    import redis
    from django.db import connection

    from tests.redis_server import redis_url

    url = redis_url(redis_db)
    redis.Redis.from_url(url).flushdb()
    with live_stack(
        database_url=database_url(connection.settings_dict),
        redis_url=url,
        servers=servers,
        worker=worker,
        log_dir=OUTPUT / "servers" / name,
        **{"DJANGO_SETTINGS_MODULE": SERVER_SETTINGS, **extra_env},
    ) as stack:
        yield stack
