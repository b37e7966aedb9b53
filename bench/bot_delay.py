"""How punctually bots move against BOT_DELAY_SECONDS, as a page sees it: tables of one person and
three bots on real servers (embedded, or on Redis as deployed), each bot move timed from the push
that made it due to the push that carried it, less the delay, beside the servers' own figures;
optionally with analyses kept pending in alternate phases (docs/BENCHMARKS.md)."""

from __future__ import annotations

import asyncio
import concurrent.futures
import math
import os
import random
import re
import secrets
import shutil
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

from django.db import connections

from bench.kit.client import PageCounts, Run, SeatPage, SocketPage, api
from bench.kit.stack import (
    DEFAULT_REDIS_URL,
    ROOT,
    SERVER_SETTINGS,
    check_loopback,
    end_bench_games,
    ensure_database,
    flush_redis,
    live_stack,
    migrate,
    old_and_new,
    use_database,
    vacuum,
)
from bench.kit.stats import counts, ms, percentile, reported, scrape_metrics, write_report

Mode = Literal["embedded", "redis"]
DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/harehra_bench_botdelay"
METRICS_TOKEN = "bench-bot-delay"
SEATS, BOTS = 4, 3
PASSWORD = "correct-horse-battery-staple"
GOAL_P95_MS = 50.0
HELD = re.compile(r"event loop was held for (\d+) ms(?: \(the process used (\d+) ms of CPU\))?")


@dataclass(frozen=True)
class BotDelayConfig:
    mode: Mode = "embedded"
    games: int = 2  # tables played at once, each one person and three bots
    moves: int = 200  # bot moves to measure, all tables together (0: --duration alone decides)
    duration: float = 0.0  # seconds to measure at most (0: --moves alone decides)
    delay: float = 0.8  # BOT_DELAY_SECONDS of the servers
    bot_level: str = "normal"
    warmup_moves: int = 3  # each table's first bot moves are not measured (the worker warms up)
    database_url: str = DEFAULT_DATABASE_URL  # PostgreSQL (redis mode; embedded with sqlite=False)
    sqlite: bool = True  # embedded mode: a scratch SQLite file instead of database_url
    redis_url: str = DEFAULT_REDIS_URL  # redis mode: flushed at start
    server_env: tuple[tuple[str, str], ...] = ()
    code_root: Path = ROOT  # the checkout the servers run (an older commit's worktree for "old")
    code_label: str = "this checkout"
    log_dir: Path = field(default_factory=lambda: Path(tempfile.gettempdir()) / "harehra-bench-bot-delay")
    timeout: float = 900.0  # the whole drive, at most
    seed: int = 1
    analyses: int = 0  # analyses kept pending on the analysis queue in the "with" phases
    phase: float = 60.0  # seconds of each phase, with and without analyses, alternating
    analysis_games: int = 6  # finished games made for them, analysed again and again


@dataclass
class Sample:
    table: int
    game: int
    due_seq: int  # the last seq of the push that made the bot's decision due
    move_seq: int  # the first seq of the push that carried the bot's move
    late_ms: float  # at the client: (move push - due push) - delay
    analyses: str = "-"  # "with" or "without" analyses pending (due and move), "mixed", "-" (none asked)


@dataclass
class Histogram:
    """One label's histogram from a Prometheus scrape: cumulative counts by upper bound."""

    buckets: dict[float, float] = field(default_factory=dict)
    count: float = 0.0
    sum: float = 0.0

    def minus(self, other: Histogram) -> Histogram:
        return Histogram(
            {le: n - other.buckets.get(le, 0.0) for le, n in self.buckets.items()},
            self.count - other.count,
            self.sum - other.sum,
        )

    def quantile(self, q: float) -> float:
        """Prometheus' histogram_quantile: linear within the bucket that holds the rank."""
        if not self.count:
            return math.nan
        rank, lower, below = q * self.count, 0.0, 0.0
        for le in sorted(self.buckets):
            n = self.buckets[le]
            if n >= rank:
                if math.isinf(le):
                    return lower
                return lower + (le - lower) * ((rank - below) / (n - below) if n > below else 0.0)
            lower, below = le, n
        return math.nan


@dataclass
class BotDelayResult:
    config: BotDelayConfig
    samples: list[Sample] = field(default_factory=list)
    server_late_ms: list[float] = field(default_factory=list)  # log gap - delay, per sample
    lateness: Histogram = field(default_factory=Histogram)  # bot task start - due (seconds)
    work: Histogram = field(default_factory=Histogram)  # bot task start -> push (seconds)
    loop_held_ms: list[float] = field(default_factory=list)
    loop_held_cpu_ms: list[float] = field(default_factory=list)  # the process's CPU meanwhile (newer servers)
    games_played: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    pages: PageCounts = field(default_factory=PageCounts)  # the pages' seq gaps, lost sockets, ...
    window_s: float = 0.0
    load: tuple[float, float] = (math.nan, math.nan)  # 1-minute load average at start and end
    wake_late_ms: list[float] = field(default_factory=list)  # the bench's own 0.1 s sleeps, overslept
    lines: list[str] = field(default_factory=list)
    analysis_seconds: list[float] = field(default_factory=list)  # each completed: asked -> seen done
    analyses_failed: int = 0
    phase_server_late_ms: dict[str, list[float]] = field(default_factory=dict)

    @property
    def client_ms(self) -> list[float]:
        return [s.late_ms for s in self.samples]

    def phase_ms(self, phase: str) -> list[float]:
        return [s.late_ms for s in self.samples if s.analyses == phase]


def _database(cfg: BotDelayConfig, scratch: Path, write: Callable[[str], None]) -> str:
    """The database the servers use, migrated: a new SQLite file in `scratch`, or PostgreSQL."""
    sqlite = cfg.mode == "embedded" and cfg.sqlite
    url = f"sqlite:///{scratch / 'bench.sqlite3'}" if sqlite else cfg.database_url
    if not sqlite:
        check_loopback(url)
        ensure_database(url)
    write(f"migrating {url} ...")
    migrate(url)
    if not sqlite:
        vacuum(url)
    return url


def _start(cfg: BotDelayConfig, url: str, scratch: Path) -> Any:
    """The stack's context manager, with its servers (and worker) started."""
    env = {
        "DJANGO_SETTINGS_MODULE": SERVER_SETTINGS,  # fast password hashes for the registrations
        "BOT_DELAY_SECONDS": repr(cfg.delay),
        "METRICS_TOKEN": METRICS_TOKEN,
        "PROMETHEUS_MULTIPROC_DIR": str(scratch / "metrics"),
        "THROTTLE_REGISTER": "10000/hour",
        "THROTTLE_ANALYSIS": "10000/hour",
        **dict(cfg.server_env),
    }
    embedded = cfg.mode == "embedded"
    if not embedded:
        check_loopback(cfg.redis_url)
        flush_redis(cfg.redis_url)
    return live_stack(
        database_url=url,
        redis_url="" if embedded else cfg.redis_url,  # no REDIS_URL: the memory broker, in-process
        servers=0 if embedded else 1,
        worker=not embedded,
        analyst=not embedded and cfg.analyses > 0,  # the embedded server runs its own
        log_dir=cfg.log_dir,
        root=cfg.code_root,
        **env,
    )


def scrape(base: str) -> dict[str, Histogram]:
    """The servers' histograms of bots: their tasks' lateness ("lateness") and their moves' time
    from the task's start to the push ("work")."""
    wanted = {
        "harehra_task_lateness_seconds": ("task", "lateness"),
        "harehra_move_push_seconds": ("source", "work"),
    }
    out: dict[str, Histogram] = {}
    for (name, labels), value in scrape_metrics([base + "/metrics"], METRICS_TOKEN, timeout=30).items():
        family, _, part = name.rpartition("_")
        by = dict(labels)
        if (
            family not in wanted
            or part not in ("bucket", "count", "sum")
            or by.get(wanted[family][0]) != "bot"
        ):
            continue
        h = out.setdefault(wanted[family][1], Histogram())
        if part == "bucket":
            h.buckets[float(by["le"])] = value
        elif part == "count":
            h.count = value
        else:
            h.sum = value
    return out


class Table:
    """One table: its person's token, and the game page that plays the person's seat (a new page
    for each game of the table)."""

    def __init__(self, drive: Drive, index: int, token: str, table_id: int, game_id: int) -> None:
        self.drive, self.run, self.index, self.token = drive, drive.pages, index, token
        self.table_id, self.game_id = table_id, game_id
        self.ended = False
        self.game_over = asyncio.Event()
        self.events_at = math.nan  # when the latest frame with new events arrived
        self.pending: tuple[float, int, bool] | None = None  # the due push: arrival, seq, analyses pending
        self.bot_moves = 0  # seen at this table, warm-up included
        self.rng = random.Random(drive.cfg.seed * 1000 + index)

    async def play(self) -> None:
        drive = self.drive
        while not drive.done.is_set():
            self.pending, self.ended = None, False
            self.game_over.clear()
            drive.games_played += 1
            page = SeatPage(self, 0, self.token, drive.ws_base, drive.base)
            opened = asyncio.create_task(page.run_page(drive.opening))
            ends = [asyncio.ensure_future(e.wait()) for e in (self.game_over, drive.done)]
            await asyncio.wait([opened, *ends], return_when=asyncio.FIRST_COMPLETED)
            for end in ends:
                end.cancel()
            await page.close()
            await opened  # a page that stopped on its own (refused) fails the drive here
            if drive.done.is_set():
                return
            if not self.game_over.is_set():
                raise RuntimeError(
                    f"the page of game {self.game_id} stopped (refused: {dict(self.run.stats.refused)})"
                )
            path = f"/api/tables/{self.table_id}/next-game/"
            self.game_id = (await asyncio.to_thread(api, drive.base, path, {}, self.token))["current_game"]

    def saw_event(self, seq: int, now: float) -> None:
        """An event in order: the first after a due push is the bot's move (only the awaited seat
        may move)."""
        self.events_at = now
        if self.pending is None:
            return
        due_at, due_seq, busy_then = self.pending
        self.pending = None
        self.bot_moves += 1
        drive = self.drive
        if self.bot_moves > drive.cfg.warmup_moves or drive.measuring:
            late_ms = (now - due_at - drive.cfg.delay) * 1000
            phase = drive.phase_of(busy_then, drive.analyses_pending())
            drive.record(Sample(self.index, self.game_id, due_seq, seq, late_ms, phase))

    def held(self, page: SocketPage, seq: int, now: float) -> None:
        """The view after a push (or the state on connecting): the person moves when it is their
        turn; a push with events that leaves a bot to decide makes its move due."""
        assert isinstance(page, SeatPage)
        if page.over:
            self.ended = True
            self.game_over.set()
            return
        awaiting = page.view["awaiting"]
        if awaiting is None:
            return
        if awaiting["seat"] == page.view["seat"]:
            if page.legal:
                command = {k: v for k, v in self.rng.choice(page.legal).items() if k != "seat"}
                page.command({"type": "command", "cmd_id": secrets.token_hex(6), **command})
        elif self.events_at == now:
            self.pending = (now, seq, self.drive.analyses_pending())

    def on_ack(self, msg: dict[str, Any], now: float) -> None:
        pass

    def on_error(self, page: SeatPage, msg: dict[str, Any]) -> None:
        self.drive.result.errors[str(msg.get("code"))] += 1


class Asker:
    """One person asking for analyses through the replay's API, one pending at a time, while the
    drive's phase says so: each finished game in turn, its stored analysis and request deleted
    first, so the same few games are analysed again and again."""

    def __init__(self, run: Drive, index: int, token: str, games: list[int]) -> None:
        self.run, self.index, self.token, self.games = run, index, token, games
        self.pending = False
        self.turn = index

    async def ask(self) -> None:
        run = self.run
        while not run.done.is_set():
            if run.phase != "with":  # analyses are asked for in the measured window's "with" phases
                await asyncio.sleep(0.2)
                continue
            game = self.games[self.turn % len(self.games)]
            self.turn += run.cfg.analyses
            await run.in_db(_forget_analysis, game)
            path = f"/api/replays/{game}/analysis/"
            self.pending = True
            asked = time.monotonic()
            try:
                answer = await asyncio.to_thread(api, run.base, path, {}, self.token)
                while answer["status"] in ("queued", "running") and not run.done.is_set():
                    await asyncio.sleep(1.0)
                    answer = await asyncio.to_thread(api, run.base, path, None, self.token)
            finally:
                self.pending = False
            if answer["status"] == "done" and not run.done.is_set():
                run.result.analysis_seconds.append(time.monotonic() - asked)
            elif answer["status"] in ("failed", "none"):  # still under way at the end: neither
                run.result.analyses_failed += 1


def _forget_analysis(game_id: int) -> None:
    from django.db import OperationalError

    from analysis.models import AnalysisRequest, GameAnalysis

    for attempt in range(10):
        try:
            GameAnalysis.objects.filter(game_id=game_id).delete()
            AnalysisRequest.objects.filter(game_id=game_id).delete()
            return
        except OperationalError:  # SQLite: the server is writing
            if attempt == 9:
                raise
            time.sleep(0.2)


class Drive:
    def __init__(self, cfg: BotDelayConfig, base: str, ws_base: str, result: BotDelayResult) -> None:
        self.cfg, self.base, self.ws_base, self.result = cfg, base, ws_base, result
        self.done = asyncio.Event()
        # The pages' counters (the kit's): lost sockets and reconnects count from the start.
        self.pages = Run(PageCounts())
        self.pages.playing = True
        self.opening = asyncio.Semaphore(4)  # pages opening their first socket at once
        self.measuring = False  # every table is past its warm-up
        self.window: list[float] = []
        self.games_played = 0
        self.tables: list[Table] = []
        self.askers: list[Asker] = []
        self.phase = "-"  # of the analyses: "with", "drain", "without" (once measuring)
        self.phase_at = 0.0
        # The bench's own database writes, on one thread (its connection stays one).
        self.db = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="bench-db")

    async def in_db(self, fn: Callable[..., Any], *args: Any) -> Any:
        return await asyncio.get_running_loop().run_in_executor(self.db, fn, *args)

    def advance_phase(self) -> None:
        """with (`phase` s, asking) -> drain (until the last is done) -> without (`phase` s) -> with."""
        now = time.monotonic()
        if self.phase == "with" and now - self.phase_at >= self.cfg.phase:
            self.phase = "drain"
        elif self.phase == "drain" and not self.analyses_pending():
            self.phase, self.phase_at = "without", now
        elif self.phase == "without" and now - self.phase_at >= self.cfg.phase:
            self.phase, self.phase_at = "with", now

    def analyses_pending(self) -> bool:
        return any(a.pending for a in self.askers)

    def phase_of(self, busy_then: bool, busy_now: bool) -> str:
        """A bot move's analyses: pending at its due push and at its move, at neither, or mixed."""
        if not self.cfg.analyses:
            return "-"
        if busy_then and busy_now:
            return "with"
        return "mixed" if busy_then or busy_now else "without"

    def record(self, sample: Sample) -> None:
        if not self.measuring:
            if any(t.bot_moves <= self.cfg.warmup_moves for t in self.tables):
                return
            self.measuring = True
            self.window = [time.monotonic()]
            if self.cfg.analyses:
                self.phase, self.phase_at = "with", self.window[0]
            self.baseline = scrape(self.base)  # blocking, once
        self.result.samples.append(sample)
        if self.cfg.moves and len(self.result.samples) >= self.cfg.moves:
            self.done.set()

    async def run(
        self, tables: list[tuple[str, int, int]], askers: Sequence[str] = (), games: Sequence[int] = ()
    ) -> None:
        self.tables = [Table(self, i, tok, tid, gid) for i, (tok, tid, gid) in enumerate(tables)]
        self.askers = [Asker(self, i, tok, list(games)) for i, tok in enumerate(askers)]
        plays = [asyncio.create_task(t.play()) for t in self.tables]
        plays += [asyncio.create_task(a.ask()) for a in self.askers]
        deadline = time.monotonic() + self.cfg.timeout
        try:
            while not self.done.is_set():
                measured = time.monotonic() - self.window[0] if self.measuring else 0.0
                if self.cfg.duration and measured >= self.cfg.duration:
                    self.done.set()
                    break
                if time.monotonic() > deadline:
                    raise RuntimeError(
                        f"{len(self.result.samples)} of {self.cfg.moves} bot moves measured "
                        f"after {self.cfg.timeout:g} s"
                    )
                failed = [p for p in plays if p.done() and p.exception() is not None]
                if failed:
                    raise RuntimeError(f"a table's client failed: {failed[0].exception()!r}")
                if self.phase != "-":
                    self.advance_phase()
                slept = time.monotonic()
                await asyncio.sleep(0.1)
                if self.measuring:
                    # How late this process wakes: the machine's noise, in the same window.
                    self.result.wake_late_ms.append((time.monotonic() - slept - 0.1) * 1000)
        finally:
            self.done.set()
            self.window.append(time.monotonic())
            await asyncio.gather(*plays, return_exceptions=True)
            for task in list(self.pages.tasks):
                task.cancel()
            await asyncio.gather(*self.pages.tasks, return_exceptions=True)
            await self.in_db(connections.close_all)
            self.db.shutdown()


def _register(base: str, name: str) -> str:
    """A person registered through the API: their token."""
    return str(api(base, "/api/accounts/register/", {"username": name, "password": PASSWORD})["token"])


def _set_up_tables(cfg: BotDelayConfig, base: str) -> list[tuple[str, int, int]]:
    """Each table: a person registered through the API, a 4-seat table with three bots, started."""
    tag = secrets.token_hex(3)
    out = []
    for i in range(cfg.games):
        token = _register(base, f"bench-botdelay-{tag}-{i}")
        table = api(base, "/api/tables/", {"seats": SEATS}, token)
        for _ in range(BOTS):
            api(base, f"/api/tables/{table['id']}/add-bot/", {"level": cfg.bot_level}, token)
        started = api(base, f"/api/tables/{table['id']}/start/", {}, token)
        out.append((token, table["id"], started["current_game"]))
    return out


def _finished_games(cfg: BotDelayConfig) -> list[int]:
    """The finished games analysed: 4-seat games of one person and three bots played to their end
    by random legal commands (bench/stored_games.py), in this process before the servers start (so
    their sweeps never play a bot of them meanwhile), replays public."""
    from django.contrib.auth import get_user_model

    from bench.stored_games import finished_game

    tag = secrets.token_hex(3)
    games = []
    for i in range(cfg.analysis_games):
        host = get_user_model().objects.create_user(f"bench-played-{tag}-{i}", password=None)
        game = finished_game([host], bots=BOTS, seed=cfg.seed * 100 + i, rated=False, replay_access="public")
        games.append(game.pk)
    return games


def _server_gaps(samples: Sequence[Sample], delay: float) -> list[float]:
    """Per sample: the time between the due push's last event and the bot's first event in the
    log (each stamped as it was written), less the delay (ms)."""
    from games.models import GameEvent

    wanted = {(s.game, s.due_seq) for s in samples} | {(s.game, s.move_seq) for s in samples}
    stamps: dict[tuple[int, int], Any] = {}
    for game in {g for g, _ in wanted}:
        seqs = [q for g, q in wanted if g == game]
        for seq, at in GameEvent.objects.filter(game_id=game, seq__in=seqs).values_list("seq", "created_at"):
            stamps[(game, seq)] = at
    out = []
    for s in samples:
        a, b = stamps.get((s.game, s.due_seq)), stamps.get((s.game, s.move_seq))
        if a is not None and b is not None:
            out.append(((b - a).total_seconds() - delay) * 1000)
    return out


def _held(log_dir: Path) -> tuple[list[float], list[float]]:
    """The servers' "event loop was held" lines: how long, and the CPU the process used meanwhile
    (where the server says)."""
    held: list[float] = []
    cpu: list[float] = []
    for path in sorted(log_dir.glob("server-*.log")):
        for took, used in HELD.findall(path.read_text(errors="replace")):
            held.append(float(took))
            if used:
                cpu.append(float(used))
    return held, cpu


def run_bot_delay(cfg: BotDelayConfig, write: Callable[[str], None] = print) -> BotDelayResult:
    """Start the servers, play, measure, stop; report (`format_report`)."""
    if cfg.games < 1 or cfg.delay < 0 or (cfg.moves <= 0 and cfg.duration <= 0):
        raise ValueError("games is at least 1, delay not negative, and --moves or --duration is set")
    scratch = Path(tempfile.mkdtemp(prefix="harehra-bench-bot-delay-"))
    if cfg.log_dir.exists():
        for old in cfg.log_dir.glob("*.log"):
            old.unlink()
    result = BotDelayResult(cfg)
    try:
        url = _database(cfg, scratch, write)
        use_database(url)
        analysed = _finished_games(cfg) if cfg.analyses else []
        connections.close_all()
        write(f"starting the {cfg.mode} stack ({cfg.code_label}), BOT_DELAY_SECONDS={cfg.delay:g} ...")
        with _start(cfg, url, scratch) as stack:
            if cfg.mode == "embedded":
                stack.start_server("embedded")
            base = stack.url(0)
            tables = _set_up_tables(cfg, base)
            tag = secrets.token_hex(3)
            askers = [_register(base, f"bench-asker-{tag}-{i}") for i in range(cfg.analyses)]
            connections.close_all()
            write(f"playing {cfg.games} table(s) of one person and {BOTS} {cfg.bot_level} bots ...")
            drive = Drive(cfg, base, stack.ws_url(0), result)
            load_start = os.getloadavg()[0]
            asyncio.run(drive.run(tables, askers, analysed))
            result.load = (load_start, os.getloadavg()[0])
            if drive.measuring:
                for attr, h in scrape(base).items():
                    setattr(result, attr, h.minus(drive.baseline.get(attr, Histogram())))
            result.window_s = drive.window[-1] - drive.window[0] if len(drive.window) > 1 else 0.0
            result.games_played = drive.games_played
            result.pages = drive.pages.stats
            game_ids = {t.game_id for t in drive.tables}
        result.server_late_ms = _server_gaps(result.samples, cfg.delay)
        for phase in ("with", "without"):
            result.phase_server_late_ms[phase] = _server_gaps(
                [s for s in result.samples if s.analyses == phase], cfg.delay
            )
        if not (cfg.mode == "embedded" and cfg.sqlite):
            end_bench_games(sorted(game_ids))
        connections.close_all()
        result.loop_held_ms, result.loop_held_cpu_ms = _held(cfg.log_dir)
    finally:
        connections.close_all()
        shutil.rmtree(scratch, ignore_errors=True)
    return reported(result, format_report(result), write)


def run_compare(
    cfg: BotDelayConfig,
    ref: str,
    modes: Sequence[Mode],
    write: Callable[[str], None] = print,
    rounds: int = 1,
) -> list[BotDelayResult]:
    """Old against new (`old_and_new`), each mode in turn; then each run's summary and, per mode
    and code, all of their bot moves together (the machine's load drifts from one run to the next)."""
    results = []
    for r, role, root, label in old_and_new(ref, rounds, write):
        for mode in modes:
            write("")
            write(f"=== round {r} of {rounds}, {mode}: {label} ===")
            log_dir = cfg.log_dir / f"round{r}-{mode}-{role}"
            results.append(
                run_bot_delay(
                    replace(cfg, mode=mode, code_root=root, code_label=label, log_dir=log_dir), write
                )
            )
    write_report(format_comparison(results), write)
    return results


def format_comparison(results: Sequence[BotDelayResult]) -> list[str]:
    lines = ["summary (late = the bot's move at the page after its due push, less the delay):"]
    lines += ["  " + summary_line(r) for r in results]
    lines.append("all runs together, by mode and code:")
    groups: dict[tuple[str, str], list[BotDelayResult]] = {}
    for r in results:
        groups.setdefault((r.config.mode, r.config.code_label), []).append(r)
    for (mode, label), runs in groups.items():
        c = [v for r in runs for v in r.client_ms]
        s = [v for r in runs for v in r.server_late_ms]
        held = [v for r in runs for v in r.loop_held_ms]
        lines.append(
            f"  {mode:8} {label:32} page p50 {ms(c, 50, 0)} p95 {ms(c, 95, 0)} p99 {ms(c, 99, 0)} max "
            f"{ms(c, 100, 0)} ms (n={len(c)}); log p50 {ms(s, 50, 0)} p95 {ms(s, 95, 0)} ms; loop held "
            f"{len(held)} times"
        )
    return lines


def summary_line(r: BotDelayResult) -> str:
    c, s = r.client_ms, r.server_late_ms
    ok = bool(c) and percentile(c, 95) <= GOAL_P95_MS
    return (
        f"{r.config.mode:8} {r.config.code_label:32} late at the page p50 {ms(c, 50, 0)} p95 {ms(c, 95, 0)} "
        f"max {ms(c, 100, 0)} ms (n={len(c)}); in the log p50 {ms(s, 50, 0)} p95 {ms(s, 95, 0)} ms; "
        f"goal p95 <= {GOAL_P95_MS:g} ms {'met' if ok else 'not met'}"
    )


def _hist_line(name: str, h: Histogram) -> str:
    if not h.count:
        return f"{name}: no samples"
    shares = "  ".join(
        f"<= {le * 1000:g} ms {100 * h.buckets[le] / h.count:.0f}%"
        for le in sorted(h.buckets)
        if not math.isinf(le) and le <= 1.0
    )
    return (
        f"{name} (n={h.count:.0f}): mean {1000 * h.sum / h.count:.0f} ms, p50 ~{1000 * h.quantile(0.5):.0f} "
        f"p95 ~{1000 * h.quantile(0.95):.0f} ms (from buckets); {shares}"
    )


def format_report(r: BotDelayResult) -> list[str]:
    cfg = r.config
    c, s = r.client_ms, r.server_late_ms
    where = "SQLite" if cfg.mode == "embedded" and cfg.sqlite else "PostgreSQL"
    held = r.loop_held_ms
    if cfg.mode == "embedded":
        stack = "serve with its in-process worker on the memory broker"
    else:
        stack = "serve and a celery worker on Redis"
    return [
        f"bench_bot_delay: {cfg.mode} ({stack}, {where}); code: {cfg.code_label}; "
        f"BOT_DELAY_SECONDS={cfg.delay:g}; {cfg.games} table(s) of "
        f"1 person + {BOTS} {cfg.bot_level} bots; {r.games_played} games; {r.window_s:.0f} s measured; "
        f"{os.cpu_count()} CPUs; server env {dict(cfg.server_env) or '-'}",
        f"bot move late at the page (ms): p50 {ms(c, 50, 0)}  p95 {ms(c, 95, 0)}  p99 {ms(c, 99, 0)}  "
        f"max {ms(c, 100, 0)}  min {ms(c, 0, 0)}  (n={len(c)})",
        f"bot move late in the log (ms):  p50 {ms(s, 50, 0)}  p95 {ms(s, 95, 0)}  p99 {ms(s, 99, 0)}  "
        f"max {ms(s, 100, 0)}  (n={len(s)})",
        _hist_line("bot task start - due", r.lateness),
        _hist_line("bot task start -> push", r.work),
        "event loop held (server log): "
        + (f"{len(held)} times, max {max(held):.0f} ms" if held else "never (>= 100 ms)")
        + (
            f"; the process used under half as much CPU meanwhile (it did not get to run) in "
            f"{sum(u < h / 2 for h, u in zip(held, r.loop_held_cpu_ms, strict=True))} of them"
            if held and len(r.loop_held_cpu_ms) == len(held)
            else ""
        ),
        f"machine: load average {r.load[0]:.1f} at the start, {r.load[1]:.1f} at the end; this process's "
        f"0.1 s sleeps overslept p50 {ms(r.wake_late_ms, 50, 0)} p95 {ms(r.wake_late_ms, 95, 0)} max "
        f"{ms(r.wake_late_ms, 100, 0)} ms",
        f"errors: {dict(r.errors) or 'none'}; seq gaps: {r.pages.seq_gaps}; sockets lost: "
        f"{counts(r.pages.closes)}, reconnects {r.pages.reconnects}",
        f"goal (p95 at the page <= {GOAL_P95_MS:g} ms): "
        + ("met" if c and percentile(c, 95) <= GOAL_P95_MS else "not met"),
        *(analysis_lines(r) if cfg.analyses else []),
    ]


def analysis_lines(r: BotDelayResult) -> list[str]:
    """Bot moves with analyses pending against those without, in the same run (alternate phases)."""
    cfg = r.config
    where = "the embedded analyst" if cfg.mode == "embedded" else "an analyst process (Procfile)"
    lines = [
        f"analyses: {cfg.analyses} kept pending on the analysis queue, served by {where}, in alternate "
        f"phases ({cfg.phase:g} s of asking, until the last is done, {cfg.phase:g} s of none); "
        f"{len(r.samples)} bot moves, "
        f"{sum(s.analyses == 'mixed' for s in r.samples)} of them across a phase's edge (counted in neither)",
    ]
    for phase in ("with", "without"):
        c, s = r.phase_ms(phase), r.phase_server_late_ms.get(phase, [])
        lines.append(
            f"  {phase + ' analyses':17} late at the page p50 {ms(c, 50, 0)} p95 {ms(c, 95, 0)} "
            f"max {ms(c, 100, 0)} ms "
            f"(n={len(c)}); in the log p50 {ms(s, 50, 0)} p95 {ms(s, 95, 0)} max {ms(s, 100, 0)} ms"
        )
    took = r.analysis_seconds
    lines.append(
        f"  analyses completed in the window: {len(took)}; "
        f"asked -> done p50 {percentile(took, 50):.0f} s max {max(took, default=math.nan):.0f} s; "
        f"failed or lost: {r.analyses_failed}"
    )
    return lines
