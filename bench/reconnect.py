"""What opening a socket costs, and a reconnect storm: every page's socket opened, all closed, then
all reopened at once naming their last seq; each page's time back, the servers' CPU and the shared
parts' work per open. With `root`, an older checkout's servers take turns with this one's, phase
by phase (docs/BENCHMARKS.md)."""

from __future__ import annotations

import asyncio
import os
import random
import time
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from bench.kit.client import Game, Http, PageCounts, Run, SocketPage
from bench.kit.stack import (
    DEFAULT_DATABASE_URL,
    DEFAULT_REDIS_URL,
    ROOT,
    end_bench_games,
    live_stack,
    prepare_games,
    raise_file_limit,
)
from bench.kit.stats import mean, percentile, process_cpu_seconds, shared_snapshot

PROBE = Path(__file__).resolve().parent / "probe"  # the servers' statement counter


@dataclass(frozen=True)
class ReconnectConfig:
    games: int = 250  # per side; four pages each
    servers: int = 1  # per side
    jitter: float = 0.0  # the reconnects spread uniformly over this many seconds
    database_url: str = DEFAULT_DATABASE_URL
    redis_url: str = DEFAULT_REDIS_URL
    migrate: bool = True
    jitter_seconds: float = 1.0  # how long the machine's wake-up jitter is timed first
    timeout: float = 120.0
    seed: int = 1
    log_dir: Path = Path("/tmp/harehra-bench-reconnect")
    root: Path | None = None  # an older checkout, run beside this one to compare
    rounds: int = 1
    # Seconds to wait after a phase (and after closing its pages) before reading the counters: an
    # idle PostgreSQL backend reports its statistics up to 10 s late.
    settle: float = 11.0
    # How the pages sign in: an API token in the address, or a session cookie as browsers do
    # (the session's row and its user are read at every open).
    auth: Literal["token", "session"] = "token"
    # Also reconnect every page to a server just started (as after a deploy: no game of theirs
    # in its memory), after the reconnect to the server that served them.
    fresh: bool = False


class Page(SocketPage):
    """A game page's socket (the kit's), signed in by API token or, as a browser, by its session
    cookie; it opens naming the last seq it saw, and is back when its view (or state) arrives."""

    pings = False

    def __init__(self, game: Game, token: str, server: int, url: str, session: str | None) -> None:
        super().__init__(game, url, Http(game.run, "http" + url.removeprefix("ws"), {}))
        self.token, self.server, self.session = token, server, session
        self.seq = 0
        self.started = self.delay = 0.0  # the phase's start, and this page's wait after it
        self.back_s: float | None = None  # from the phase's start until its view arrived

    def socket_path(self) -> str:
        auth = f"&token={self.token}" if self.session is None else ""
        after = f"&after={self.seq}" if self.seq else ""
        return f"/ws/games/{self.game.game_id}/?batch=1{auth}{after}"

    def connect_options(self) -> dict[str, Any]:
        cookie = {} if self.session is None else {"Cookie": f"sessionid={self.session}"}
        return {"origin": "http" + self.ws_base.removeprefix("ws"), "additional_headers": cookie}

    async def start(self) -> None:
        await asyncio.sleep(self.delay)

    def on_message(self, msg: dict[str, Any], now: float) -> None:
        if msg["type"] in ("event", "state", "view"):
            self.seq = max(self.seq, msg["seq"])
        if msg["type"] in ("state", "view") and self.back_s is None:
            self.back_s = now - self.started
            self.connected.set()


@dataclass
class Side:
    name: str
    root: Path
    pages: list[Page]
    stack: Any  # bench.kit.stack.Stack

    @property
    def pids(self) -> list[int]:
        return [p.pid for p, _ in self.stack.servers]

    def restart(self) -> None:
        """Every server of the side stopped and a new one started, the pages sent to the new ones."""
        for i in range(len(self.stack.servers)):
            self.stack.restart_server(i)
        for page in self.pages:
            page.ws_base = self.stack.ws_url(page.server)


@dataclass
class Phase:
    side: str
    # "open" (a page loads), "reconnect" (every page at once, naming its last seq), "fresh" (the
    # same to a server just started)
    name: str
    round: int
    pages: int
    wall_s: float
    back_s: list[float]
    failed: int
    server_cpu_s: float
    client_cpu_s: float
    shared: dict[str, float]  # shared_snapshot's counters and the servers' own, over the phase

    @property
    def opens(self) -> int:
        return self.pages - self.failed

    def per_open(self, key: str) -> float:
        return self.shared.get(key, 0.0) / self.opens if self.opens else float("nan")

    @property
    def redis_commands(self) -> dict[str, float]:
        return {
            k.removeprefix("redis "): v / max(self.opens, 1)
            for k, v in self.shared.items()
            if k.startswith("redis ") and "bytes" not in k and v
        }


def _sent_counts(directory: Path, pids: Sequence[int]) -> dict[str, float]:
    """Statements and transactions the processes `pids` have sent so far (bench/probe)."""
    statements = transactions = 0
    for pid in pids:
        try:
            s, t = (directory / str(pid)).read_text().split()
        except (OSError, ValueError):
            continue
        statements, transactions = statements + int(s), transactions + int(t)
    return {"sent statements": float(statements), "sent transactions": float(transactions)}


async def _phase(
    cfg: ReconnectConfig, side: Side, name: str, round_: int, counts: Path, limit: int | None
) -> Phase:
    pages = side.pages
    rng = random.Random(cfg.seed + round_)

    def snapshot() -> dict[str, float]:
        snap = shared_snapshot(cfg.database_url, cfg.redis_url)
        snap.update(_sent_counts(counts, side.pids))
        return snap

    sem = asyncio.Semaphore(limit or len(pages))
    for page in pages:
        page.back_s, page.closing = None, False
        page.connected.clear()
        page.delay = rng.uniform(0, cfg.jitter) if name != "open" else 0.0

    shared0 = await asyncio.to_thread(snapshot)
    cpu0 = sum(process_cpu_seconds(p) for p in side.pids)
    client0 = process_cpu_seconds(os.getpid())
    started = time.monotonic()
    for page in pages:
        page.started = started
    opened = [asyncio.create_task(p.run_page(sem)) for p in pages]
    # A page that fails to open tries again, as core/socket.js does; those not back by the
    # timeout are counted as such.
    backs = [asyncio.create_task(p.connected.wait()) for p in pages]
    await asyncio.wait(backs, timeout=cfg.timeout)
    wall = time.monotonic() - started
    for back in backs:
        back.cancel()
    cpu = sum(process_cpu_seconds(p) for p in side.pids) - cpu0
    client = process_cpu_seconds(os.getpid()) - client0
    # Redis counts at once (it answers for itself); PostgreSQL's once its backends have reported.
    redis1 = await asyncio.to_thread(snapshot)
    await asyncio.sleep(cfg.settle)
    shared1 = await asyncio.to_thread(snapshot)
    shared1.update({k: v for k, v in redis1.items() if k.startswith("redis ")})
    back = [p.back_s for p in pages if p.back_s is not None]
    per = {k: (shared1.get(k, 0.0) - shared0.get(k, 0.0)) for k in shared1}
    await asyncio.gather(*(p.close() for p in pages))
    await asyncio.gather(*opened)
    # The closes' own work (each seat's count back to 0) is done before the next phase counts: a
    # seat still counted would reconnect without telling the game's sockets, which costs less.
    await asyncio.to_thread(
        _seats_let_go, cfg.database_url, sorted({p.game.game_id for p in pages}), cfg.timeout
    )
    await asyncio.sleep(cfg.settle)
    return Phase(side.name, name, round_, len(pages), wall, back, len(pages) - len(back), cpu, client, per)


def _seats_let_go(database_url: str, game_ids: list[int], timeout: float) -> None:
    """Wait until no seat of these games counts a socket."""
    import psycopg

    end = time.monotonic() + timeout
    with psycopg.connect(database_url, autocommit=True) as conn:
        while time.monotonic() < end:
            row = conn.execute(
                "SELECT count(*) FROM games_gameseat WHERE game_id = ANY(%s) AND connections > 0", [game_ids]
            ).fetchone()
            if row is None or not row[0]:
                return
            time.sleep(0.2)
    raise TimeoutError(f"seats still counted {timeout:g} s after their sockets closed")


def run_reconnect_bench(cfg: ReconnectConfig, write: Callable[[str], None] = print) -> list[Phase]:
    import uvloop
    from django.conf import settings
    from django.db import connection

    roots = [("old", cfg.root), ("new", ROOT)] if cfg.root else [("this checkout", ROOT)]
    raise_file_limit(cfg.games * 4 * len(roots) * 2)
    prepared = prepare_games(cfg, write, cfg.games * len(roots))
    counts = cfg.log_dir / "counts"
    counts.mkdir(parents=True, exist_ok=True)
    for old in counts.iterdir():
        old.unlink()
    probe = {
        "PYTHONPATH": os.pathsep.join(filter(None, [str(PROBE), os.environ.get("PYTHONPATH")])),
        "HAREHRA_BENCH_COUNTS": str(counts),
        # The presence heartbeat renews every seat of the server once per period: not a cost of
        # an open, and it would fall into one phase or another.
        "PRESENCE_HEARTBEAT_SECONDS": "3600",
    }
    sessions = (
        _sessions_of([t for spec in prepared.specs for t in spec.tokens]) if cfg.auth == "session" else {}
    )
    # One key for every server: the sessions made here verify there (each checkout has its own).
    probe["SECRET_KEY"] = settings.SECRET_KEY
    write(f"set up in {prepared.setup_s:.1f} s; starting {cfg.servers} server(s) a side ...")
    sides: list[Side] = []
    run = Run(PageCounts())  # the pages' counters, read by no figure here
    try:
        with ExitStack() as running:
            for i, (name, root) in enumerate(roots):
                stack = running.enter_context(
                    live_stack(
                        database_url=cfg.database_url,
                        redis_url=cfg.redis_url,
                        servers=cfg.servers,
                        worker=False,
                        log_dir=cfg.log_dir / name.replace(" ", "-"),
                        root=root,
                        **probe,
                    )
                )
                specs = prepared.specs[i * cfg.games : (i + 1) * cfg.games]
                pages = [
                    Page(Game(run, spec.game_id), token, j, stack.ws_url(j), sessions.get(token))
                    for g, spec in enumerate(specs)
                    for s, token in enumerate(spec.tokens)
                    for j in [(g + s) % cfg.servers]
                ]
                sides.append(Side(name, root, pages, stack))

            async def drive() -> list[Phase]:
                phases = []
                for r in range(1, cfg.rounds + 1):
                    # Old, new; then new, old: neither side always meets the machine first.
                    for side in sides if r % 2 else sides[::-1]:
                        # The first opens as the live bench makes them, a few at a time per server.
                        done = len(phases)
                        phases.append(await _phase(cfg, side, "open", r, counts, 4 * cfg.servers))
                        phases.append(await _phase(cfg, side, "reconnect", r, counts, None))
                        if cfg.fresh:
                            await asyncio.to_thread(side.restart)
                            phases.append(await _phase(cfg, side, "fresh", r, counts, None))
                        for ph in phases[done:]:
                            for line in format_phase(ph):
                                write(line)
                return phases

            phases = uvloop.run(drive())
    finally:
        end_bench_games([spec.game_id for spec in prepared.specs])
        connection.close()
    for line in format_report(phases, sides, cfg):
        write(line)
    return phases


def _sessions_of(tokens: Sequence[str]) -> dict[str, str]:
    """A signed-in session for each token's user, as the sign-in page makes: {token: session key}."""
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.db import transaction
    from rest_framework.authtoken.models import Token

    from accounts.sessions import SessionStore

    out = {}
    with transaction.atomic():
        for token in Token.objects.filter(key__in=tokens).select_related("user"):
            store = SessionStore()
            store[SESSION_KEY] = str(token.user.pk)
            store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
            store[HASH_SESSION_KEY] = token.user.get_session_auth_hash()
            store.create()
            out[token.key] = str(store.session_key)
    return out


def format_phase(ph: Phase) -> list[str]:
    redis = ph.redis_commands
    return [
        f"round {ph.round}, {ph.side}, {ph.name}: {ph.opens} of {ph.pages} pages back in {ph.wall_s:.2f} s "
        f"({ph.opens / ph.wall_s:.0f} opens/s); each page back after p50 {percentile(ph.back_s, 50):.2f} s, "
        f"p99 {percentile(ph.back_s, 99):.2f} s; "
        f"server CPU {1000 * ph.server_cpu_s / max(ph.opens, 1):.2f} ms per open "
        f"(bench clients {1000 * ph.client_cpu_s / max(ph.opens, 1):.2f} ms)",
        f"  per open: {ph.per_open('sent statements'):.2f} statements in "
        f"{ph.per_open('sent transactions'):.2f} transactions sent (PostgreSQL counted "
        f"{ph.per_open('pg transactions'):.2f} transactions, {ph.per_open('pg rows read'):.1f} rows read); "
        f"Redis {sum(redis.values()):.2f} commands ("
        + ", ".join(f"{k} {v:.2f}" for k, v in sorted(redis.items(), key=lambda kv: -kv[1]) if v >= 0.01)
        + ")",
    ]


def format_report(phases: Sequence[Phase], sides: Sequence[Side], cfg: ReconnectConfig) -> list[str]:
    names = [s.name for s in sides]
    lines = [
        "",
        f"bench_reconnect: {cfg.games} games ({cfg.games * 4} pages) a side, {cfg.servers} server(s) a side, "
        f"{cfg.rounds} round(s); "
        + "; ".join(f"{s.name}: {s.root}" for s in sides)
        + f"; reconnects spread over {cfg.jitter:g} s; signed in by {cfg.auth}",
        "",
        "| per open (mean over rounds) | " + " | ".join(names) + " |",
        "|---|" + "---|" * len(names),
    ]

    def row(label: str, kind: str, value: Callable[[Phase], float], fmt: str = "{:.2f}") -> None:
        cells = []
        for n in names:
            values = [value(p) for p in phases if p.side == n and p.name == kind]
            cells.append(fmt.format(mean(values)) if values else "")
        lines.append(f"| {label} | " + " | ".join(cells) + " |")

    kinds = [("open", "first open"), ("reconnect", "reconnecting")]
    if cfg.fresh:
        kinds.append(("fresh", "reconnecting to a fresh server"))
    for kind, label in kinds:
        row(f"{label}: server CPU (ms)", kind, lambda p: 1000 * p.server_cpu_s / max(p.opens, 1))
        row(f"{label}: statements sent", kind, lambda p: p.per_open("sent statements"))
        row(f"{label}: transactions sent", kind, lambda p: p.per_open("sent transactions"))
        row(f"{label}: PostgreSQL transactions", kind, lambda p: p.per_open("pg transactions"))
        row(f"{label}: Redis commands", kind, lambda p: sum(p.redis_commands.values()))
        row(f"{label}: opens/s", kind, lambda p: p.opens / p.wall_s, "{:.0f}")
    row(f"all {cfg.games * 4} pages back after a reconnect (s)", "reconnect", lambda p: p.wall_s)
    if cfg.fresh:
        row(f"all {cfg.games * 4} pages back on a fresh server (s)", "fresh", lambda p: p.wall_s)
    storms = [p for p in phases if p.name != "open"]
    for n in names:
        walls = ", ".join(f"{p.wall_s:.2f} ({p.name})" for p in storms if p.side == n)
        failed = sum(p.failed for p in storms if p.side == n)
        lines.append(f"{n}: every page back after {walls} s, in order; {failed} not back")
    new = [p for p in storms if p.side == names[-1]]
    ok = bool(new) and not any(p.failed for p in new) and max(p.wall_s for p in new) <= 5.0
    shown = cfg.games * 4 >= 1000 and cfg.servers == 1
    verdict = "not met" if not ok else "met" if shown else "not shown"
    lines.append(f"must (1,000 reconnecting pages back within 5 s on one server), {names[-1]}: {verdict}")
    return lines
