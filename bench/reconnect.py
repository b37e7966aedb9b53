"""What opening a socket costs, and a reconnect storm: every page of a server coming back at once.

After a server restarts, its pages reconnect to the others, each naming the last seq it saw, and
get what they missed and the view it leads to (docs/PROTOCOL.md). This opens every page's socket,
closes them all, and opens them all again at once (or spread over `jitter` seconds, as the pages'
backoff spreads them), and measures each page's time until it is back (its view arrived), the
server's CPU and the shared parts' work per open.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.live import (
    DEFAULT_DATABASE_URL,
    DEFAULT_REDIS_URL,
    GameSpec,
    prepared_stack,
    raise_file_limit,
    shared_snapshot,
    stack_processes,
)
from bench.service import percentile, process_cpu_seconds


@dataclass(frozen=True)
class ReconnectConfig:
    games: int = 250  # four pages each
    servers: int = 1
    jitter: float = 0.0  # the reconnects spread uniformly over this many seconds
    database_url: str = DEFAULT_DATABASE_URL
    redis_url: str = DEFAULT_REDIS_URL
    migrate: bool = True
    timeout: float = 120.0
    seed: int = 1
    log_dir: Path = Path("/tmp/harehra-bench-reconnect")
    root: Path | None = None  # the checkout whose servers run (an older commit's, to compare)


@dataclass
class Page:
    game_id: int
    token: str
    url: str
    seq: int = 0
    ws: Any = None
    back_s: float | None = None  # from the storm's start until its view arrived
    failures: list[str] = field(default_factory=list)

    async def open(self, started: float, delay: float = 0.0) -> None:
        """Connect (naming the last seq seen, once it has one) and read until the view arrives."""
        from websockets.asyncio.client import connect

        await asyncio.sleep(delay)
        after = f"&after={self.seq}" if self.seq else ""
        for _ in range(5):
            try:
                self.ws = await connect(
                    f"{self.url}/ws/games/{self.game_id}/?batch=1&token={self.token}{after}",
                    compression=None,
                    ping_interval=None,
                    open_timeout=60,
                    max_queue=None,
                    proxy=None,
                )
                break
            except (OSError, TimeoutError) as e:
                self.failures.append(type(e).__name__)
                await asyncio.sleep(0.2)
        else:
            return
        async for raw in self.ws:
            data = json.loads(raw)
            messages = data if isinstance(data, list) else [data]
            for m in messages:
                if m["type"] == "event":
                    self.seq = max(self.seq, m["seq"])
                if m["type"] in ("state", "view"):
                    self.seq = max(self.seq, m["seq"])
                    self.back_s = time.monotonic() - started
                    return

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
            self.ws = None


@dataclass
class Phase:
    name: str
    pages: int
    wall_s: float
    back_s: list[float]
    failed: int
    server_cpu_s: float
    shared: dict[str, float]


async def _phase(
    name: str, pages: Sequence[Page], cfg: ReconnectConfig, servers: list[int], limit: int | None
) -> Phase:
    rng = random.Random(cfg.seed)
    cpu0 = sum(process_cpu_seconds(p) for p in servers)
    shared0 = await asyncio.to_thread(shared_snapshot, cfg.database_url, cfg.redis_url)
    started = time.monotonic()
    sem = asyncio.Semaphore(limit) if limit else None

    async def one(page: Page) -> None:
        page.back_s = None
        delay = rng.uniform(0, cfg.jitter) if name == "reconnect" else 0.0
        if sem is None:
            await page.open(started, delay)
            return
        async with sem:
            await page.open(started, delay)

    await asyncio.wait_for(asyncio.gather(*(one(p) for p in pages)), cfg.timeout)
    wall = time.monotonic() - started
    cpu = sum(process_cpu_seconds(p) for p in servers) - cpu0
    shared1 = await asyncio.to_thread(shared_snapshot, cfg.database_url, cfg.redis_url)
    back = [p.back_s for p in pages if p.back_s is not None]
    per = {k: (shared1.get(k, 0.0) - shared0.get(k, 0.0)) for k in shared1}
    return Phase(name, len(pages), wall, back, len(pages) - len(back), cpu, per)


def run_reconnect_bench(cfg: ReconnectConfig, write: Callable[[str], None] = print) -> list[Phase]:
    import uvloop

    raise_file_limit(cfg.games * 4 * 2)
    with prepared_stack(
        database_url=cfg.database_url,
        redis_url=cfg.redis_url,
        games=cfg.games,
        migrate_first=cfg.migrate,
        jitter_seconds=1.0,
        servers=cfg.servers,
        worker=False,
        log_dir=cfg.log_dir,
        write=write,
        **({"root": cfg.root} if cfg.root else {}),
    ) as (prepared, stack):
        urls = [stack.ws_url(i) for i in range(len(stack.servers))]
        servers = [
            pid
            for label, pids in stack_processes(stack).items()
            if label.startswith("server")
            for pid in pids
        ]
        pages = [
            Page(spec.game_id, token, urls[(g + s) % len(urls)])
            for g, spec in enumerate(prepared.specs)
            for s, token in enumerate(_tokens(spec))
        ]

        async def drive() -> list[Phase]:
            # The first opens as the live bench makes them, a few at a time per server.
            first = await _phase("open", pages, cfg, servers, limit=4 * len(urls))
            for p in pages:
                await p.close()
            await asyncio.sleep(1.0)
            storm = await _phase("reconnect", pages, cfg, servers, limit=None)
            for p in pages:
                await p.close()
            return [first, storm]

        phases = uvloop.run(drive())
    for line in format_phases(phases, cfg):
        write(line)
    return phases


def _tokens(spec: GameSpec) -> tuple[str, ...]:
    return spec.tokens


def format_phases(phases: Sequence[Phase], cfg: ReconnectConfig) -> list[str]:
    lines = [
        f"bench_reconnect: {cfg.games} games, {cfg.games * 4} pages, {cfg.servers} server(s) "
        f"running {cfg.root or 'this checkout'}; "
        f"the reconnects spread over {cfg.jitter:g} s"
    ]
    for ph in phases:
        opens = ph.pages - ph.failed
        per = {k: v / opens for k, v in ph.shared.items()} if opens else {}
        lines.append(
            f"{ph.name}: {opens} of {ph.pages} pages back in {ph.wall_s:.2f} s "
            f"({opens / ph.wall_s:.0f} opens/s); each page back after p50 {percentile(ph.back_s, 50):.2f} s, "
            f"p99 {percentile(ph.back_s, 99):.2f} s, max {max(ph.back_s, default=float('nan')):.2f} s; "
            f"server CPU {1000 * ph.server_cpu_s / max(opens, 1):.2f} ms per open"
        )
        if per:
            redis = sum(v for k, v in per.items() if k.startswith("redis ") and "bytes" not in k)
            lines.append(
                f"  per open: PostgreSQL {per['pg transactions']:.2f} transactions, "
                f"{per['pg rows read']:.1f} rows read; Redis {redis:.1f} commands"
            )
    storm = phases[-1]
    ok = not storm.failed and storm.back_s and percentile(storm.back_s, 100) <= 5.0
    lines.append(
        f"must (1,000 reconnecting pages back within 5 s on one server): {'met' if ok else 'not met'}"
    )
    return lines
