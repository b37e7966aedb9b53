"""bench_live's browser mix (`--mix browser`): every client is one open page of the kit's (game
pages, a watch page on every fourth game, a lobby page per ten players), each game driven open
loop with exponential gaps between decisions; a move's latency runs from its send until every page
of its table holds a view at least as new as its first event (docs/BENCHMARKS.md)."""

from __future__ import annotations

import asyncio
import gc
import math
import os
import random
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal
from urllib.parse import urlparse

from bench.kit.client import (
    LATE_ANSWER_S,
    SEATS,
    LobbyPage,
    Run,
    SeatPage,
    SocketPage,
    WatchPage,
    pages_open,
)
from bench.kit.stack import (
    ROOT,
    GameSpec,
    old_and_new,
    stack_processes,
)
from bench.kit.stats import (
    counts,
    cpu_line,
    cpu_reading,
    cpu_window,
    median,
    ms,
    num,
    percentile,
    reported,
    shared_lines,
    shared_snapshot,
    write_report,
)
from bench.live import LiveConfig, LiveResult, Stats, run_on_stack

# What the site must do, and what it aims for: 600 games at one command per
# 4 s each with spectators and lobby watchers, on one or two server processes.
MUST_GAMES, MUST_SERVERS, MUST_P50_MS, MUST_P99_MS = 600, 2, 20.0, 150.0
GOAL_GAMES, GOAL_P99_MS, GOAL_SERVER_CPU_MS = 1200, 100.0, 4.0
MUST_SENT_SHARE = 0.98  # of the scheduled decisions; a few queued at the window's end are not lost


@dataclass(frozen=True)
class BrowserConfig(LiveConfig):
    mean_gap: float = 4.0  # seconds between a game's decisions, on average (exponential gaps)
    duration: float = 20.0  # measured seconds
    spectator_every: int = 4  # a watch page on games 0, 4, 8, ...
    players_per_lobby_watcher: int = 10
    # "close": the servers' HTTP requests close their database connection when they end (a settings
    # shim, see HTTP_DB_SHIM); "persistent": the servers exactly as configured (CONN_MAX_AGE=60).
    http_db: Literal["close", "persistent"] = "close"

    def watched(self, g: int) -> bool:
        """Whether game `g` has a watch page."""
        return self.spectator_every > 0 and g % self.spectator_every == 0

    @property
    def spectators(self) -> int:
        return len(range(0, self.games, self.spectator_every)) if self.spectator_every > 0 else 0

    @property
    def lobby_watchers(self) -> int:
        players = self.games * SEATS
        return players // self.players_per_lobby_watcher if self.players_per_lobby_watcher > 0 else 0


@dataclass
class BrowserStats(Stats):
    wait_ms: list[float] = field(default_factory=list)  # scheduled -> sent (the mover's view came late)
    scheduled: int = 0  # decisions due in the window (games still running)
    left_queued: int = 0  # due in the window, still waiting for their mover when it ended
    late_answers: int = 0  # commands answered more than LATE_ANSWER_S after they were first sent
    bot_wait_s: list[float] = field(default_factory=list)  # a bot's turn shown -> its move shown


class BrowserResult(LiveResult):
    def cpu_ms_per_move(self, *labels: str) -> float:
        """CPU ms per move sent in the window, summed over the labels that start with any of `labels`."""
        if not self.stats.sent:
            return math.nan
        total = sum(v for k, v in self.cpu_s.items() if k.startswith(labels))
        return 1000 * total / self.stats.sent

    def redis_per_move(self, key: str) -> float:
        """A Redis counter's growth in the window (shared_snapshot) per move sent."""
        start, end = self.stats.shared
        if not self.stats.sent or key not in end:
            return math.nan
        return (end[key] - start.get(key, 0.0)) / self.stats.sent

    @property
    def http_per_move(self) -> float:
        return sum(self.stats.http.values()) / self.stats.sent if self.stats.sent else math.nan

    @property
    def clean(self) -> bool:
        s = self.stats
        return not (s.errors or s.http_errors or s.seq_gaps or s.unfinished or s.late_answers or s.reconnects)


# Django under ASGI runs each HTTP request's view on a thread of its own, so with persistent
# connections (CONN_MAX_AGE > 0, as docs/OPERATIONS.md runs production and live_stack runs its servers)
# every request opens a PostgreSQL connection that outlives it: a few dozen GETs a second take
# PostgreSQL to max_connections within seconds and every request fails. The sockets' database
# threads are long-lived and keep theirs. Until the server deals with it, the browser mix runs the
# servers with these settings: the site's own, and an HTTP request's connection closed at its end
# (what Django advises for ASGI without a pool: each request pays a connection's set-up).
HTTP_DB_SHIM = '''"""bench_live --mix browser: the site's settings; HTTP requests close their connection."""

from harehra_site.settings import *  # noqa: F403

from django.core.signals import request_finished as _finished
from django.db import connections as _connections


def _close(**kwargs):
    for conn in _connections.all(initialized_only=True):
        conn.close()


_finished.connect(_close, dispatch_uid="harehra-bench-close-http")
'''


def http_db_env(cfg: BrowserConfig) -> dict[str, str]:
    """Extra environment for the servers: the settings shim above, unless `persistent`."""
    if cfg.http_db == "persistent":
        return {}
    folder = cfg.log_dir / "settings-shim"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "harehra_bench_settings.py").write_text(HTTP_DB_SHIM)
    path = os.pathsep.join(p for p in (str(folder), os.environ.get("PYTHONPATH", "")) if p)
    return {"DJANGO_SETTINGS_MODULE": "harehra_bench_settings", "PYTHONPATH": path}


@dataclass
class Ledger:
    """The commands of a run and their answers: what the pages were told, to hold against the log."""

    sent: dict[str, tuple[int, int]] = field(default_factory=dict)  # cmd_id -> (game, seat)
    acks: dict[str, list[tuple[int | None, bool]]] = field(
        default_factory=dict
    )  # cmd_id -> [(seq, duplicate)]
    errors: dict[str, list[str]] = field(default_factory=dict)  # cmd_id -> codes
    # Where each command was sent, by the phase (the stats) it was sent in.
    phase_of: dict[str, BrowserStats] = field(default_factory=dict)


class BrowserRun(Run):
    """The run's pages' shared state, and the bench's configuration."""

    def __init__(self, cfg: BrowserConfig, stats: BrowserStats) -> None:
        super().__init__(stats)
        self.cfg: BrowserConfig = cfg
        self.stats: BrowserStats = stats
        self.ledger: Ledger | None = None


@dataclass
class BrowserMove:
    cmd_id: str
    seat: int
    sent_at: float
    first_seq: int
    need: int  # a bit per page of the table
    stats: BrowserStats | None  # of the window it was sent in (None: sent outside every window)
    arrived: int = 0
    error: str | None = None

    @property
    def in_window(self) -> bool:
        return self.stats is not None


class BrowserGame:
    def __init__(
        self,
        ctx: BrowserRun,
        spec: GameSpec,
        seat_servers: Sequence[tuple[str, str]],
        watch_server: tuple[str, str] | None,
        rng: random.Random,
    ) -> None:
        self.run, self.game_id = ctx, spec.game_id
        # Two streams: the schedule is then the same for every run with one seed, whatever the
        # games' choices (whatever the order the pages see `legal` in).
        self.gaps, self.choices = random.Random(rng.random()), random.Random(rng.random())
        self.bot_seats = spec.bot_seats  # played by the worker's bots: no page
        self.seats = [
            SeatPage(self, s, spec.tokens[s], *seat_servers[s])
            for s in range(SEATS)
            if s not in spec.bot_seats
        ]
        self.watch = WatchPage(self, *watch_server) if watch_server else None
        self.pages: list[SocketPage] = [*self.seats, *([self.watch] if self.watch else [])]
        self.need = sum(p.bit for p in self.pages)
        self.head_seq = 0  # the newest seq the game is known to have (events pushed, acks)
        self.moves: list[BrowserMove] = []  # sent, not yet held by every page
        self.by_cmd: dict[str, BrowserMove] = {}  # sent, not yet answered (ack or error)
        self.unacked: BrowserMove | None = None  # the move that holds the controls until its answer
        # A bot's decision awaited: (the seq of the view that showed it, when, the stats then).
        self.bot_turn: tuple[int, float, BrowserStats] | None = None
        self.queue: deque[float] = deque()  # scheduled times of decisions not yet sent
        self.n = 0
        self.ended = False

    # -- what the pages report --

    def saw_event(self, seq: int, now: float) -> None:
        self.head_seq = max(self.head_seq, seq)
        self.bot_moved(seq, now)

    def bot_moved(self, seq: int, now: float) -> None:
        turn = self.bot_turn
        if turn is not None and seq > turn[0]:
            turn[2].bot_wait_s.append(now - turn[1])
            self.bot_turn = None

    def held(self, page: SocketPage, seq: int, now: float) -> None:
        """`page` now holds the game's view as of `seq`."""
        for m in list(self.moves):
            if seq >= m.first_seq and not m.arrived & page.bit:
                m.arrived |= page.bit
                if m.arrived == m.need:
                    self.moves.remove(m)
                    if m.stats is not None and m.error is None:
                        m.stats.completed += 1
                        m.stats.latencies_ms.append((now - m.sent_at) * 1000)
        if isinstance(page, SeatPage):
            if page.over and not self.ended:
                self.ended = True
                self.queue.clear()
            self.bot_moved(seq, now)
            awaiting = page.view.get("awaiting") if not page.over else None
            if awaiting and awaiting.get("seat") in self.bot_seats and self.bot_turn is None:
                self.bot_turn = (seq, now, self.run.stats)
        self.try_send(now)

    def on_ack(self, msg: dict[str, Any], now: float) -> None:
        cmd_id = str(msg.get("cmd_id"))
        m = self.by_cmd.pop(cmd_id, None)
        ledger = self.run.ledger
        if ledger is not None and cmd_id in ledger.sent:
            seq = msg.get("seq") if isinstance(msg.get("seq"), int) else None
            ledger.acks.setdefault(cmd_id, []).append((seq, bool(msg.get("duplicate"))))
        if m is None:
            self.run.stats.other_messages["stray_ack"] += 1
            return
        if self.unacked is m:
            self.unacked = None
        if now - m.sent_at > LATE_ANSWER_S and m.stats is not None:
            m.stats.late_answers += 1
        if isinstance(msg.get("seq"), int):
            self.head_seq = max(self.head_seq, msg["seq"])
        if m.stats is not None:
            m.stats.acked += 1
            m.stats.ack_ms.append((now - m.sent_at) * 1000)
        self.try_send(now)

    def on_error(self, page: SeatPage, msg: dict[str, Any]) -> None:
        code = str(msg.get("code"))
        self.run.stats.errors[code] += 1
        cmd_id = str(msg.get("cmd_id"))
        ledger = self.run.ledger
        if ledger is not None and cmd_id in ledger.sent:
            ledger.errors.setdefault(cmd_id, []).append(code)
        m = self.by_cmd.pop(cmd_id, None) if "cmd_id" in msg else None
        if m is not None:
            m.error = code
            if self.unacked is m:
                self.unacked = None
            if m in self.moves:
                self.moves.remove(m)
        # Every command comes from the page's own `legal`: a refusal means its view was stale.
        page.send({"type": "sync"})  # the protocol's way to a current `view`

    # -- the schedule --

    def mover(self) -> SeatPage | None:
        for p in self.seats:
            if p.legal and p.seq >= self.head_seq and p.connected.is_set() and not p.over:
                return p
        return None

    def try_send(self, now: float) -> None:
        if not self.queue or self.ended:
            return
        if self.unacked is not None:
            return  # game/controller.js: the controls are held until the command's answer
        page = self.mover()
        if page is None:
            return
        self.n += 1
        command = {k: v for k, v in self.choices.choice(page.legal).items() if k != "seat"}
        cmd_id = f"b{self.game_id}-{self.n}"
        if not page.command({"type": "command", "cmd_id": cmd_id, **command}):
            return
        scheduled = self.queue.popleft()
        in_window = self.run.in_window(now)
        m = BrowserMove(
            cmd_id, page.seat, now, page.seq + 1, self.need, self.run.stats if in_window else None
        )
        for p in self.pages:
            if p.seq >= m.first_seq:
                m.arrived |= p.bit
        self.moves.append(m)
        self.by_cmd[cmd_id] = m
        self.unacked = m
        stats = self.run.stats
        if self.run.ledger is not None:
            self.run.ledger.sent[cmd_id] = (self.game_id, page.seat)
            self.run.ledger.phase_of[cmd_id] = stats
        stats.sent_total += 1
        if in_window:
            stats.sent += 1
            stats.wait_ms.append((now - scheduled) * 1000)

    async def drive(self, start: float, end: float) -> None:
        """Schedule decisions from `start` until `end` (or the run's `stop_at`, if sooner)."""
        rate = 1.0 / self.run.cfg.mean_gap
        due = start + self.gaps.expovariate(rate)
        while due < min(end, self.run.stop_at):
            delay = due - time.monotonic()
            if delay > 0:
                await asyncio.sleep(delay)
            if due >= self.run.stop_at:
                break
            if not self.ended:
                if self.run.in_window(due):
                    self.run.stats.scheduled += 1
                self.queue.append(due)
                self.try_send(time.monotonic())
            due += self.gaps.expovariate(rate)
        window = self.run.window
        self.run.stats.left_queued += sum(1 for t in self.queue if window[0] <= t < window[1])
        self.queue.clear()  # the window is over: nothing more is sent


async def _drive_all(
    cfg: BrowserConfig, specs: list[GameSpec], stack: Any, write: Callable[[str], None]
) -> tuple[BrowserStats, float, float, dict[str, float]]:
    stats = BrowserStats()
    ctx = BrowserRun(cfg, stats)
    master = random.Random(cfg.seed)
    servers = [(stack.ws_url(i), stack.url(i)) for i in range(len(stack.servers))]
    named = stack_processes(stack)
    dbname = urlparse(cfg.database_url).path.lstrip("/")
    games = []
    for g, spec in enumerate(specs):
        watch = servers[g % len(servers)] if cfg.watched(g) else None
        rng = random.Random(master.random())
        games.append(BrowserGame(ctx, spec, cfg.seat_servers(g, servers), watch, rng))
    lobbies = [LobbyPage(ctx, *servers[i % len(servers)]) for i in range(cfg.lobby_watchers)]
    pages = [p for g in games for p in g.pages]
    sems = {ws: asyncio.Semaphore(cfg.connect_concurrency) for ws, _ in servers}
    opened = pages_open(
        ctx, pages, lobbies, lambda p: sems[p.ws_base], cfg.connect_timeout, "game sockets were open"
    )
    async with opened as connect_s:
        gc.collect()
        gc.freeze()
        ctx.playing = True
        write(
            f"opened {len(pages)} game pages and {len(lobbies)} lobby pages in {connect_s:.1f} s; "
            f"warming up {cfg.warmup:g} s ..."
        )
        start = time.monotonic() + 0.2
        ctx.window = (start + cfg.warmup, start + cfg.warmup + cfg.duration)
        drivers = [asyncio.create_task(g.drive(start, ctx.window[1])) for g in games]
        await asyncio.sleep(max(0.0, ctx.window[0] - time.monotonic()))
        cpu_start = cpu_reading(named, dbname)
        shared_start = await asyncio.to_thread(shared_snapshot, cfg.database_url, cfg.redis_url)
        await asyncio.sleep(max(0.0, ctx.window[1] - time.monotonic()))
        cpu = cpu_window(cpu_start, cpu_reading(named, dbname))
        shared_end = await asyncio.to_thread(shared_snapshot, cfg.database_url, cfg.redis_url)
        stats.shared = (shared_start, shared_end)  # Redis's bytes: the push's size (docs/SCALING.md)
        await asyncio.gather(*drivers)
        drain_end = time.monotonic() + cfg.drain
        while time.monotonic() < drain_end and any(g.moves for g in games):
            await asyncio.sleep(0.05)
        stats.unfinished = sum(1 for g in games for m in g.moves if m.in_window)
        stats.unfinished_total = sum(len(g.moves) for g in games)
        stats.games_ended = sum(1 for g in games if g.ended)
        return stats, connect_s, ctx.window[1] - ctx.window[0], cpu


def run_browser_bench(cfg: BrowserConfig, write: Callable[[str], None] = print) -> BrowserResult:
    """Set up fresh games, start the servers from `cfg.code_root`, open every page, drive, report."""
    if cfg.mean_gap <= 0:
        raise ValueError("the mean gap is positive")
    result = run_on_stack(
        cfg,
        write,
        lambda specs, stack: _drive_all(cfg, specs, stack, write),
        # Sockets and keep-alive connections: about three per page, at both ends of loopback.
        6 * (cfg.games * (SEATS + 1) + cfg.lobby_watchers),
        BrowserResult,
        code=f" from {cfg.code_label}",
        server_env=http_db_env(cfg),
    )
    return reported(result, format_browser_report(result), write)


def run_browser_compare(
    cfg: BrowserConfig, ref: str, rounds: int, write: Callable[[str], None] = print
) -> list[BrowserResult]:
    """Old against new (`old_and_new`) under the same pages, each run on fresh games; the database
    is migrated once, with this checkout's migrations (which include REF's)."""
    results: list[BrowserResult] = []
    for r, role, root, label in old_and_new(ref, rounds, write):
        log_dir = cfg.log_dir / f"round{r}-{role}"
        run_cfg = replace(
            cfg, migrate=cfg.migrate and not results, code_root=root, code_label=label, log_dir=log_dir
        )
        write("")
        write(f"=== round {r} of {rounds}: {role} code ===")
        results.append(run_browser_bench(run_cfg, write))
    write_report(format_comparison(results), write)
    return results


def must_lines() -> list[str]:
    return [
        f"must: {MUST_GAMES} concurrent 4-seat games, one command per 4 s each ({MUST_GAMES // 4} moves/s), "
        f"spectators and lobby watchers, on 1-{MUST_SERVERS} server processes: p50 <= {MUST_P50_MS:g} ms, "
        f"p99 <= {MUST_P99_MS:g} ms, no errors, gaps or lost moves",
        f"goal: {GOAL_GAMES} games at p99 <= {GOAL_P99_MS:g} ms, "
        f"server CPU per move < {GOAL_SERVER_CPU_MS:g} ms",
    ]


def format_browser_report(r: BrowserResult) -> list[str]:
    cfg, s = r.config, r.stats
    lat = s.latencies_ms
    http_total = sum(s.http.values())
    lines = [
        f"bench_live --mix browser: {cfg.games} games x {SEATS} seats, "
        f"{cfg.spectators} watch pages, {cfg.lobby_watchers} lobby pages; {cfg.servers} server(s) "
        f"(sockets routed by {cfg.route}) from {cfg.code_label}; a decision per game every "
        f"{cfg.mean_gap:g} s on average (exponential); {r.window_s:.0f} s measured after "
        f"{cfg.warmup:g} s warm-up; {os.cpu_count()} CPUs",
        "servers' HTTP requests: "
        + (
            "close their database connection at their end (bench settings shim; see HTTP_DB_SHIM)"
            if cfg.http_db == "close"
            else "persistent database connections, as configured (Django's ASGI makes one per request)"
        ),
        *must_lines(),
        *r.machine_lines(),
        f"moves scheduled: {s.scheduled} ({r.per_second(s.scheduled):.1f}/s; "
        f"{cfg.games / cfg.mean_gap:.1f}/s expected)",
        f"moves sent:      {s.sent} ({r.per_second(s.sent):.1f}/s); still queued at the end: {s.left_queued}",
        f"moves acked:     {s.acked}; complete: {s.completed} (held by every page of the table)",
        f"latency send -> last page holds the view (ms): p50 {ms(lat, 50)}  p99 {ms(lat, 99)}  "
        f"p99.9 {ms(lat, 99.9)}  max {ms(lat, 100)}  (n={len(lat)})",
        f"latency send -> ack (ms):                      p50 {ms(s.ack_ms, 50)}  p99 {ms(s.ack_ms, 99)}  "
        f"max {ms(s.ack_ms, 100)}",
        f"wait scheduled -> sent (mover's view not there yet; ms): p50 {ms(s.wait_ms, 50)}  "
        f"p99 {ms(s.wait_ms, 99)}  max {ms(s.wait_ms, 100)}",
        f"lost (sent, not held by every page after {cfg.drain:g} s drain): {s.unfinished} "
        f"({s.unfinished_total} counting warm-up moves; {s.sent_total} sent in all)",
        "errors: " + (", ".join(error_items(s)) or "none"),
        f"reconnects: {s.reconnects}; seq gaps: {s.seq_gaps}; games ended: {s.games_ended}",
        f"HTTP requests per move: {num(r.http_per_move)} ({http_total} in the window: "
        + counts(s.http)
        + f"; {s.http_connections} new connections); socket frames received per move: "
        + num(s.socket_frames / s.sent if s.sent else math.nan, 1),
    ]
    if cfg.lobby_watchers:
        if s.lobby_socket_unavailable:
            lines.append(
                f"lobby socket unavailable: {s.lobby_socket_unavailable} of {cfg.lobby_watchers} lobby pages "
                "found no /ws/lobby/"
            )
        else:
            lines.append(f"lobby socket messages in the window: {counts(s.lobby_messages)}")
    if r.cpu_s:
        lines.append(cpu_line(r.cpu_s, r.window_s))
        lines.append(
            f"CPU per move (ms): servers {num(r.cpu_ms_per_move('server'))}, "
            f"PostgreSQL {num(r.cpu_ms_per_move('postgres'))} (of which ended connections "
            f"{num(r.cpu_ms_per_move('postgres (ended'))}), "
            f"bench clients {num(r.cpu_ms_per_move('bench'))}, worker {num(r.cpu_ms_per_move('celery'))}, "
            f"machine {num(r.cpu_ms_per_move('machine'))}"
        )
    if s.shared[1]:
        lines.extend(shared_lines(*s.shared, s.sent))
    if s.other_messages:
        lines.append("other messages: " + counts(s.other_messages))
    lines.append("verdict: " + verdict(r))
    return lines


def error_items(s: BrowserStats) -> list[str]:
    """Refused commands by code, failed HTTP requests by kind, and commands never answered."""
    items = [f"{k} {v}" for k, v in sorted(s.errors.items())]
    items += [f"HTTP {k} {v}" for k, v in sorted(s.http_errors.items())]
    if s.late_answers:
        items.append(f"answered after more than {LATE_ANSWER_S:g} s {s.late_answers}")
    return items


def verdict(r: BrowserResult) -> str:
    cfg, s = r.config, r.stats
    p50, p99 = percentile(s.latencies_ms, 50), percentile(s.latencies_ms, 99)
    kept = s.scheduled and s.sent >= MUST_SENT_SHARE * s.scheduled
    must_ok = bool(kept) and r.clean and not math.isnan(p99) and p50 <= MUST_P50_MS and p99 <= MUST_P99_MS
    scale = cfg.games >= MUST_GAMES and cfg.servers <= MUST_SERVERS and cfg.spectators and cfg.lobby_watchers
    must = ("met" if must_ok else "not met") if scale else f"n/a ({cfg.games} games)"
    if not must_ok and scale:
        must += f" (p50 {num(p50, 1)}, p99 {num(p99, 1)} ms, sent {s.sent} of {s.scheduled}, clean {r.clean})"
    goal_ok = must_ok and p99 <= GOAL_P99_MS and r.cpu_ms_per_move("server") < GOAL_SERVER_CPU_MS
    goal = ("met" if goal_ok else "not met") if cfg.games >= GOAL_GAMES else "n/a"
    return f"must {must}; goal {goal}"


def format_comparison(
    results: Sequence[BrowserResult],
    new: Callable[[BrowserResult], bool] | None = None,
    sides: tuple[str, str] = ("old", "new"),
) -> list[str]:
    """Every run as a row, then the median of each side and new/old (`new`: which runs are new;
    by default this checkout's)."""
    is_new = new or (lambda r: r.config.code_root == ROOT)
    head = (
        "| run | code | ref. loop | moves/s (sched.) | p50 | p99 | p99.9 | max | "
        "server CPU/move | PG CPU/move | bench CPU/move | HTTP/move | errors, gaps, lost, reconnects |"
    )
    lines = [*must_lines(), head, "|" + "---|" * 13]

    def row(i: int, r: BrowserResult) -> str:
        s, lat = r.stats, r.stats.latencies_ms
        bad = sum(s.errors.values()) + sum(s.http_errors.values()) + s.late_answers
        return (
            f"| {i} | {r.config.code_label} | {r.reference_ms:.1f} ms | "
            f"{r.per_second(s.sent):.1f} ({r.per_second(s.scheduled):.1f}) | "
            f"{ms(lat, 50)} | {ms(lat, 99)} | "
            f"{ms(lat, 99.9)} | {ms(lat, 100)} | {num(r.cpu_ms_per_move('server'))} ms | "
            f"{num(r.cpu_ms_per_move('postgres'))} ms | {num(r.cpu_ms_per_move('bench'))} ms | "
            f"{num(r.http_per_move)} | {bad}, {s.seq_gaps}, {s.unfinished}, {s.reconnects} |"
        )

    lines += [row(i + 1, r) for i, r in enumerate(results)]
    figures: dict[str, Callable[[BrowserResult], float]] = {
        "server CPU per move (ms)": lambda r: r.cpu_ms_per_move("server"),
        "PostgreSQL CPU per move (ms)": lambda r: r.cpu_ms_per_move("postgres"),
        "bench CPU per move (ms)": lambda r: r.cpu_ms_per_move("bench"),
        "machine CPU per move (ms)": lambda r: r.cpu_ms_per_move("machine"),
        "HTTP requests per move": lambda r: r.http_per_move,
        "Redis bytes in per move": lambda r: r.redis_per_move("redis bytes in"),
        "Redis bytes out per move": lambda r: r.redis_per_move("redis bytes out"),
        "Redis PUBLISH per move": lambda r: r.redis_per_move("redis PUBLISH"),
        "latency p50 (ms)": lambda r: percentile(r.stats.latencies_ms, 50),
        "latency p99 (ms)": lambda r: percentile(r.stats.latencies_ms, 99),
        "latency p99.9 (ms)": lambda r: percentile(r.stats.latencies_ms, 99.9),
        "latency max (ms)": lambda r: percentile(r.stats.latencies_ms, 100),
        "moves/s sent": lambda r: r.per_second(r.stats.sent),
    }
    a, b = sides
    lines += ["", f"| figure (median of the runs) | {a} | {b} | {b}/{a} |", "|---|---|---|---|"]
    for name, get in figures.items():
        old = median([get(r) for r in results if not is_new(r)])
        this = median([get(r) for r in results if is_new(r)])
        ratio = this / old if old and not math.isnan(old) and not math.isnan(this) else math.nan
        lines.append(f"| {name} | {num(old)} | {num(this)} | {num(ratio)} |")
    return lines
