"""How soon a notification reaches an open page (`manage.py bench_notify`).

Real servers on a database and Redis of the bench's own (bench/kit/stack.py). `people` accounts
each keep the socket every signed-in page opens (`/ws/me/`, by API token, spread over the
servers); `follows` other accounts each follow one of them (POST /api/relations/follows/<name>/,
as the profile page does) at `rate` a second, each from a keep-alive connection of its own. A
follow's latency runs from its request's send to the `notification` naming the follower
arriving on the followed person's socket. The servers' CPU, PostgreSQL's and Redis's over the
follows' window, divided by the notifications, is the cost of one. The goal: 200 ms p95.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.kit.client import Game, Http, PageCounts, Run, SocketPage, pages_open
from bench.kit.stats import cpu_reading, cpu_window, ms, percentile, table_lines

GOAL_P95_MS = 200.0


@dataclass
class NotifyConfig:
    database_url: str
    redis_url: str
    people: int = 50
    follows: int = 200
    rate: float = 20.0
    servers: int = 1
    worker: bool = True
    log_dir: Path = Path("test-output/bench-notify")


class MePage(SocketPage):
    """The socket every signed-in page opens (`/ws/me/`, by API token): it hands each message on."""

    pings = False

    def __init__(
        self, run: Run, ws_base: str, token: str, seen: Callable[[dict[str, Any], float], None]
    ) -> None:
        super().__init__(Game(run), ws_base, Http(run, "http" + ws_base.removeprefix("ws"), {}))
        self.token, self.seen = token, seen

    def socket_path(self) -> str:
        return f"/ws/me/?token={self.token}"

    def on_message(self, msg: dict[str, Any], now: float) -> None:
        self.connected.set()  # its first count came
        self.seen(msg, now)


def _accounts(prefix: str, n: int) -> list[tuple[str, str]]:
    """`n` accounts (name, API token), made in bulk on the servers' database."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password
    from rest_framework.authtoken.models import Token

    User = get_user_model()
    unusable = make_password(None)
    users = User.objects.bulk_create([User(username=f"{prefix}-{i}", password=unusable) for i in range(n)])
    tokens = Token.objects.bulk_create([Token(user=u, key=Token.generate_key()) for u in users])
    return [(u.username, t.key) for u, t in zip(users, tokens, strict=True)]


async def _drive(
    cfg: NotifyConfig, stack: Any, people: list[tuple[str, str]], fans: list[tuple[str, str]]
) -> dict[str, Any]:
    sent: dict[str, float] = {}  # follower's name -> when the follow was sent
    latency_s: list[float] = []
    answered_s: list[float] = []  # the follow request's own answer, for comparison
    arrived = asyncio.Event()
    errors: list[str] = []
    run = Run(PageCounts())
    n = len(stack.servers)

    def seen(msg: dict[str, Any], now: float) -> None:
        if msg.get("type") == "notification" and msg.get("kind") == "follower":
            name = (msg.get("url") or "").removeprefix("/players/").rstrip("/")
            if name in sent:
                latency_s.append(now - sent.pop(name))
                if len(latency_s) == len(fans):
                    arrived.set()

    async def follow(k: int, name: str, token: str) -> None:
        target = people[k % len(people)][0]
        http = Http(run, stack.url(k % n), {"Authorization": f"Token {token}"})
        http.idle.append(await http._open())  # the page's connection is open before it follows
        sent[name] = started = time.monotonic()
        status, body = await http.request("POST", f"/api/relations/follows/{target}/", "follow", b"{}")
        answered_s.append(time.monotonic() - started)
        http.close()
        if status != 200:
            sent.pop(name, None)
            errors.append(f"{status} {body[:120]!r}")

    from bench.kit.stack import stack_processes

    dbname = cfg.database_url.rsplit("/", 1)[1]
    named = stack_processes(stack)
    pages = [MePage(run, stack.ws_url(i % n), token, seen) for i, (_, token) in enumerate(people)]
    anytime = asyncio.Semaphore(len(pages))  # all open at once
    # Each page open and its first count come before the follows start.
    async with pages_open(run, pages, [], lambda _: anytime, 60, "pages had their first count"):
        cpu0, t0 = cpu_reading(named, dbname), time.monotonic()
        follows = []
        for k, (name, token) in enumerate(fans):
            follows.append(asyncio.ensure_future(follow(k, name, token)))
            await asyncio.sleep(max(0.0, t0 + (k + 1) / cfg.rate - time.monotonic()))
        await asyncio.gather(*follows)
        with contextlib.suppress(TimeoutError):  # a notification that never came is counted as missing
            await asyncio.wait_for(arrived.wait(), 10)
        window_s = time.monotonic() - t0
        cpu = cpu_window(cpu0, cpu_reading(named, dbname))
    got = {"latency_s": latency_s, "answered_s": answered_s, "errors": errors}
    return {**got, "cpu": cpu, "window_s": window_s}


def run_bench(cfg: NotifyConfig, write: Any) -> list[str]:
    from django.db import connection

    from bench.kit.stack import flush_redis, live_stack, migrate

    write(f"migrating {cfg.database_url} ...")
    migrate(cfg.database_url)
    flush_redis(cfg.redis_url)
    prefix = f"bn{secrets.token_hex(3)}"
    people, fans = _accounts(prefix + "p", cfg.people), _accounts(prefix + "f", cfg.follows)
    connection.close()
    write(f"{cfg.people} open pages, {cfg.follows} follows at {cfg.rate:g}/s on {cfg.servers} server(s) ...")
    env = {"THROTTLE_FOLLOW": "1000000/day"}  # each follower follows once; no throttle is near
    with live_stack(
        database_url=cfg.database_url,
        redis_url=cfg.redis_url,
        servers=cfg.servers,
        worker=cfg.worker,
        log_dir=cfg.log_dir,
        **env,
    ) as stack:
        got = asyncio.run(_drive(cfg, stack, people, fans))
    lat = [s * 1000 for s in got["latency_s"]]
    p95 = percentile(lat, 95)
    verdict = "met" if p95 <= GOAL_P95_MS and len(lat) == cfg.follows else "NOT met"
    cpu, count = got["cpu"], max(len(lat), 1)
    rows = [[part, f"{s * 1000 / count:.2f}"] for part, s in cpu.items() if part != "machine"]
    rows.append(["machine (all of it)", f"{cpu['machine'] * 1000 / count:.2f}"])
    return [
        f"follows sent: {cfg.follows}, notifications arrived: {len(lat)}, errors: {len(got['errors'])}"
        + (f" (first: {got['errors'][0]})" if got["errors"] else ""),
        f"follow sent -> notification on the followed person's page: p50 {ms(lat, 50)} ms,"
        f" p95 {ms(lat, 95)} ms, p99 {ms(lat, 99)} ms, max {ms(lat, 100)} ms"
        f"  [goal p95 <= {GOAL_P95_MS:g} ms: {verdict}]",
        "the follow request's own answer (sent -> 200):"
        + "".join(f" p{p} {ms([s * 1000 for s in got['answered_s']], p)} ms" for p in (50, 95, 99)),
        f"CPU per notification over the {got['window_s']:.1f} s window (ms; 1 ms = 1 ms of one core):",
        *table_lines(["part", "ms a notification"], rows),
    ]
