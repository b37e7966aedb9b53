"""A rolling restart starts the new server on the old one's port before the old one stops
(`serve --reuse-port`, scripts/prod --restart): the new one says it is ready by its ready file,
and once the old one is told to stop, every new connection on the port reaches the new one."""

from __future__ import annotations

import asyncio
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
import websockets

from tests.support.stack import free_port
from tests.support.waits import wait_until

pytestmark = [
    pytest.mark.server,
    pytest.mark.django_db(transaction=True),
    pytest.mark.stack(redis_db=14, servers=0, worker=False, DRAIN_SECONDS="6"),
]


def _serve(stack, port: int, ready: Path, log: str) -> subprocess.Popen[bytes]:
    out = open(stack.log_dir / log, "wb")  # noqa: SIM115
    return subprocess.Popen(
        [
            *(sys.executable, "manage.py", "serve", "--port", str(port), "--worker", "none"),
            *("--reuse-port", "--ready-file", str(ready)),
        ],
        cwd=stack.root,
        env=stack.env,
        stdout=out,
        stderr=subprocess.STDOUT,
    )


def _ready_file_of(proc: subprocess.Popen[bytes], ready: Path) -> bool:
    if proc.poll() is not None:
        raise AssertionError(f"the server exited with {proc.returncode} before it was ready")
    return ready.exists()


def _readyz(port: int) -> int:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/readyz", timeout=5) as r:
            return r.status
    except urllib.error.HTTPError as e:
        return e.code


async def _lobby_socket(port: int) -> str:
    """Whether a new socket is taken: "open", or what refused it (a draining server answers its
    handshake with 503; a connection caught in a closing listener's queue is reset)."""
    try:
        async with websockets.connect(
            f"ws://127.0.0.1:{port}/ws/lobby/", origin="http://localhost", open_timeout=10
        ):
            return "open"
    except websockets.InvalidStatus as e:
        return str(e.response.status_code)
    except OSError as e:
        return type(e).__name__


def test_a_new_server_starts_beside_the_old_one_and_takes_the_port_when_the_old_one_stops(stack, tmp_path):
    port = free_port()
    old_ready, new_ready = tmp_path / "old.ready", tmp_path / "new.ready"
    old = _serve(stack, port, old_ready, "reuse-old.log")
    new = None
    try:
        wait_until(lambda: _ready_file_of(old, old_ready), "the first server is not ready", timeout=60)
        assert old_ready.read_text().strip() == str(old.pid)

        # Without SO_REUSEPORT on both, the second one could not listen on the port at all.
        new = _serve(stack, port, new_ready, "reuse-new.log")
        wait_until(lambda: _ready_file_of(new, new_ready), "the new server is not ready", timeout=60)
        assert new_ready.read_text().strip() == str(new.pid)
        assert old.poll() is None

        assert _readyz(port) == 200
        old.send_signal(signal.SIGTERM)
        # The old one stops listening at once (a socket that reached it in that instant is refused
        # with 503, which nginx passes to another server): from then on, while it drains, exits
        # and after, the port's new sockets are all taken, by the new one.
        answers: list[str] = []
        deadline = time.monotonic() + 15
        while old.poll() is None and time.monotonic() < deadline:
            answers.append(asyncio.run(_lobby_socket(port)))
        assert old.wait(10) == 0
        answers += [asyncio.run(_lobby_socket(port)) for _ in range(5)]
        taken = answers.index("open")
        assert set(answers[taken:]) == {"open"}, answers
        # Stopping listening is the first thing the old one does: only the sockets sent in the
        # instant it takes the signal may be refused (it drains for a second or more meanwhile).
        assert taken <= 3 < len(answers), answers
        assert new.poll() is None
    finally:
        for proc in (old, new):
            if proc is not None and proc.poll() is None:
                proc.terminate()
                proc.wait(10)
