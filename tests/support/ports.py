"""Free loopback ports for tests that start whole stacks (nginx, servers, Redis, PostgreSQL).

Each pytest-xdist worker scans its own stretch of ports: two workers probing the same range at
the same moment would both find it free, and one's nginx would then send pages to the other's
servers (another test database: sockets refused, moves lost)."""

from __future__ import annotations

import os
import socket
from collections.abc import Sequence

WORKER_STRETCH = 2000


def worker_index() -> int:
    """0 for gw0 or a run without workers, 1 for gw1, and so on."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    return int(worker.removeprefix("gw") or 0)


def free_port_block(offsets: Sequence[int], base: int, step: int = 10) -> int:
    """A port P such that P + offset is free on loopback for every offset, scanning this
    worker's stretch of ports from `base`."""
    first = base + worker_index() * WORKER_STRETCH
    for candidate in range(first, first + WORKER_STRETCH, step):
        probes: list[socket.socket] = []
        try:
            for offset in offsets:
                probes.append(socket.socket())
                probes[-1].bind(("127.0.0.1", candidate + offset))
        except OSError:
            continue
        finally:
            for probe in probes:
                probe.close()
        return candidate
    raise RuntimeError(f"no free ports from {first}")
