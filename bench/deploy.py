"""A deploy under load: the browser mix through nginx in front of scripts/prod's processes, a steady
window, then every process restarted with SIGTERM and with kill -9; per phase the moves made, lost
and duplicated (the pages' ledger held against the log), errors shown, pages' time back and the
bots' lateness. `DeployResult.failures` lists every must that failed (docs/BENCHMARKS.md)."""

from __future__ import annotations

import asyncio
import itertools
import math
import os
import random
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import uvloop

from bench.browser import BrowserConfig, BrowserGame, BrowserRun, BrowserStats, Ledger
from bench.kit import client
from bench.kit.client import SEATS, LobbyPage, SocketPage, pages_open
from bench.kit.stack import (
    GameSpec,
    ProdStack,
    end_bench_games,
    prepare_games,
    raise_file_limit,
)
from bench.kit.stats import Scrape, cpu_snapshot, ms, percentile, reported

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/harehra_bench_deploy"
# The restarts a run may make after its steady window: NAME (every server, then the worker and
# beat) or NAME:K (only the Kth server).
PHASES = {"term": "SIGTERM restart", "kill": "kill -9 restart"}


def parse_phase(phase: str, servers: int) -> tuple[bool, int | None]:
    """ "term", "kill", "term:K" or "kill:K" as (kill, the server's index from 1 or None)."""
    name, _, k = phase.partition(":")
    if name not in PHASES or (k and not (k.isdigit() and 1 <= int(k) <= servers)):
        raise ValueError(
            f"a phase is term or kill, or term:K or kill:K with K from 1 to {servers}: {phase!r}"
        )
    return name == "kill", int(k) if k else None


BACK_BOUND_S = 5.0  # must: every page back within this (p99) after a SIGTERM restart
# After a kill -9 the pages reconnect slower, and still nothing may be lost:
# every page of the killed server at once, with nothing paced. Reported, not a must.
BOT_DELAY_S = 0.8  # the servers' BOT_DELAY_SECONDS (set here, so the bench knows it)
BOT_OVERDUE_S = 4.0  # BOT_OVERDUE_SECONDS: the sweep moves a bot this late
SWEEP_EVERY_S = 5.0  # beat's sweep (settings.CELERY_BEAT_SCHEDULE)
# A bot moves BOT_DELAY_S after its turn; a lost wake-up is caught by the sweep once the bot is
# BOT_OVERDUE_S late, at its next run, which then takes its own time to run and to write the
# move (SWEEP_WORK_S: 0.04-0.2 s a sweep in the kill -9 windows; a bot just missed by one sweep
# moved 9.01 s late). Past that a bot is late beyond its bound.
SWEEP_WORK_S = 1.0
BOT_BOUND_S = BOT_OVERDUE_S + SWEEP_EVERY_S + SWEEP_WORK_S


@dataclass(frozen=True)
class DeployConfig(BrowserConfig):
    games: int = 20
    servers: int = 2
    steady: float = 20.0  # the steady window
    settle: float = 5.0  # a restart window goes on this long after every page is back
    phases: tuple[str, ...] = ("term", "kill")
    bot_every: int = 4  # a bot in the last seat of every Kth game (0: none)
    drain: float = 15.0  # at the end: how long moves in flight may take to be answered and shown
    back_wait: float = 60.0  # a restart window ends at most this long after the restart, pages back or not
    database_url: str = DEFAULT_DATABASE_URL
    port: int = 8190  # nginx; the servers take the next `servers` ports
    run_dir: Path = field(default_factory=lambda: Path(tempfile.gettempdir()) / "harehra-bench-deploy")
    app_role: str = "harehra_bench_app"
    drain_seconds: float = 30.0  # the servers' DRAIN_SECONDS
    close_rate: float = 60.0  # the servers' DRAIN_CLOSE_RATE (sockets closed a second while draining)
    restart_spread: float = client.RESTART_SPREAD_S  # the pages' wait after a 1012: 0.25 s + up to this
    jitter_seconds: float = 1.0
    connect_concurrency: int = 8  # handshakes in flight at once through nginx
    http_db: Literal["close", "persistent"] = "persistent"


@dataclass
class Phase:
    name: str
    stats: BrowserStats
    started: float  # time.monotonic()
    wall_started: float  # time.time(): the log's clock
    ended: float = math.nan
    wall_ended: float = math.nan
    restart_lines: list[str] = field(default_factory=list)
    metrics: dict[str, float] = field(default_factory=dict)  # deltas of the scrape over the phase
    # Busy CPU seconds over the phase by part (`ProdStack.cpu`), when its processes lived through
    # it (a restart window's servers change under it: none then).
    cpu: dict[str, float] = field(default_factory=dict)
    not_back: int = 0  # pages whose socket was lost in the phase and not back at its end
    # Filled from the log at the end:
    moves: int = 0  # commands applied (acknowledged as new)
    duplicate_acks: int = 0  # resends answered `duplicate` (the first one was applied)
    lost_acked: int = 0  # answered, not in the log
    lost_unanswered: int = 0  # never answered, not in the log
    unanswered_applied: int = 0  # never answered, but in the log
    duplicated: int = 0  # a cmd_id acknowledged as new twice
    unrecorded: int = 0  # a person's move in the log that no command record accounts for
    # A bot's move: from the write before it (which made it the bot's turn) to its own, in the log.
    bot_gaps_s: list[float] = field(default_factory=list)

    @property
    def title(self) -> str:
        if self.name == "steady":
            return "steady"
        name, _, k = self.name.partition(":")
        return PHASES[name] + (f" of server {k}" if k else "")

    @property
    def seconds(self) -> float:
        return self.ended - self.started

    @property
    def lost(self) -> int:
        return self.lost_acked + self.lost_unanswered + self.stats.unfinished

    @property
    def errors_shown(self) -> int:
        """Refused commands (the game page shows each), sockets the pages stopped retrying (they
        say so), and pages that did not load. A failed heartbeat, frames or history request is
        not shown (watch.js and game/log.js go on without it): `http_unshown` counts those."""
        s = self.stats
        return sum(s.errors.values()) + sum(s.refused.values()) + sum(_shown_http(s).values())

    @property
    def http_unshown(self) -> int:
        return sum(self.stats.http_errors.values()) - sum(_shown_http(self.stats).values())

    @property
    def bots_late(self) -> int:
        return sum(1 for gap in self.bot_gaps_s if gap - BOT_DELAY_S > BOT_BOUND_S)


@dataclass
class DeployResult:
    config: DeployConfig
    phases: list[Phase]
    setup_s: float
    connect_s: float
    lines: list[str] = field(default_factory=list)
    anomalies: list[str] = field(default_factory=list)  # log and pages disagree in another way

    @property
    def failures(self) -> list[str]:
        out = list(self.anomalies)
        for p in self.phases:
            back = p.stats.back_s
            for what, bad in (
                ("lost moves", p.lost),
                ("duplicated moves", p.duplicated + p.unrecorded),
                ("errors shown to a page", p.errors_shown),
                ("pages not back at the window's end", p.not_back),
                (f"bots late beyond {BOT_BOUND_S:g} s", p.bots_late),
            ):
                if bad:
                    out.append(f"{p.title}: {what} {bad}")
            if back and p.name.startswith("term") and percentile(back, 99) > BACK_BOUND_S:
                out.append(f"{p.title}: pages back p99 {percentile(back, 99):.2f} s > {BACK_BOUND_S:g} s")
            if p.name != "steady" and not back:
                out.append(f"{p.title}: no page lost its socket: nothing was restarted under it")
        return out


def _scrape(stack: ProdStack) -> Scrape:
    try:
        return stack.metrics()
    except OSError:
        return {}


def _metric_deltas(before: Scrape, after: Scrape) -> dict[str, float]:
    """The figures a phase reports from the servers' metrics: bot and timer tasks (all, and those
    that started more than 5 s and 10 s late), push gaps and failures."""
    if not before or not after:
        return {}

    def delta(name: str, **labels: str) -> float:
        total = 0.0
        for (n, lab), v in after.items():
            d = dict(lab)
            if n == name and all(d.get(k) == w for k, w in labels.items()):
                total += v - before.get((n, lab), 0.0)
        return total

    out: dict[str, float] = {}
    for task in ("bot", "timer"):
        count = delta("harehra_task_lateness_seconds_count", task=task)
        out[f"{task} tasks"] = count
        for le in ("5.0", "10.0"):
            within = delta("harehra_task_lateness_seconds_bucket", task=task, le=le)
            out[f"{task} later than {float(le):g} s"] = count - within
    for name in ("push gaps", "push failures", "channel send failures"):
        out[name] = delta(f"harehra_{name.replace(' ', '_')}_total")
    return out


def _out_pages(pages: Sequence[SocketPage]) -> int:
    return sum(1 for p in pages if p.lost is not None)


@dataclass(repr=False)
class _Driven:
    """What the run found. Its repr is kept short on purpose: as the run ends, Python 3.11's
    asyncio runner may format the main task's repr, its result included (signal.getsignal with a
    partial handler), and at 600 games the repr of the pages' records took longer than the run."""

    phases: list[Phase]
    connect_s: float
    ledger: Ledger


async def _drive(
    cfg: DeployConfig, specs: list[GameSpec], stack: ProdStack, write: Callable[[str], None]
) -> _Driven:
    ctx = BrowserRun(cfg, BrowserStats())
    ctx.ledger = Ledger()
    nginx = (stack.ws_url, stack.http_url)
    master = random.Random(cfg.seed)
    rngs = [random.Random(master.random()) for _ in specs]
    games = [
        BrowserGame(ctx, spec, [nginx] * SEATS, nginx if cfg.watched(g) else None, rngs[g])
        for g, spec in enumerate(specs)
    ]
    lobbies = [LobbyPage(ctx, *nginx) for _ in range(cfg.lobby_watchers)]
    pages: list[SocketPage] = [p for g in games for p in g.pages]
    everyone: list[SocketPage] = [*pages, *lobbies]
    sem = asyncio.Semaphore(cfg.connect_concurrency)
    phases: list[Phase] = []
    opened = pages_open(ctx, pages, lobbies, lambda p: sem, cfg.connect_timeout, "game pages were open")
    async with opened as connect_s:
        ctx.playing = True
        write(
            f"opened {len(pages)} game and watch pages and {len(lobbies)} lobby pages through nginx in "
            f"{connect_s:.1f} s; warming up {cfg.warmup:g} s ..."
        )
        start = time.monotonic() + 0.2
        drivers = [asyncio.create_task(g.drive(start, math.inf)) for g in games]
        await asyncio.sleep(max(0.0, start + cfg.warmup - time.monotonic()))

        scraped: dict[str, Scrape] = {}
        cpu_at: dict[str, tuple[dict[str, list[int]], dict[str, float]]] = {}

        async def begin(name: str) -> Phase:
            scraped[name] = await asyncio.to_thread(_scrape, stack)
            pids = stack.pids()
            cpu_at[name] = (pids, cpu_snapshot(pids))
            phase = Phase(name, BrowserStats(), time.monotonic(), time.time())
            ctx.stats, ctx.window = phase.stats, (phase.started, math.inf)
            phases.append(phase)
            return phase

        async def finish(phase: Phase) -> None:
            phase.ended, phase.wall_ended = time.monotonic(), time.time()
            ctx.window = (phase.started, phase.ended)
            phase.not_back = _out_pages(everyone)
            pids, cpu_before = cpu_at[phase.name]
            if pids == stack.pids():  # the same processes throughout: their CPU is the phase's
                cpu_after = cpu_snapshot(pids)
                phase.cpu = {k: cpu_after[k] - cpu_before[k] for k in cpu_after}
            phase.metrics = _metric_deltas(scraped[phase.name], await asyncio.to_thread(_scrape, stack))

        phase = await begin("steady")
        write(f"steady window: {cfg.steady:g} s ...")
        await asyncio.sleep(cfg.steady)
        for name in cfg.phases:
            await finish(phase)
            phase = await begin(name)
            kill, server = parse_phase(name, cfg.servers)
            only = ["--only", str(cfg.port + server)] if server else []
            args = ["--restart", *(["--kill"] if kill else []), *only]
            write(f"{phase.title}: scripts/prod {' '.join(args)} ...")
            await stack.restart(args, phase.started, phase.restart_lines)
            for line in phase.restart_lines:
                write(f"  {line}")
            # Every page back (or the bound), then a few seconds of play on the new processes.
            until = time.monotonic() + cfg.back_wait
            while _out_pages(everyone) and time.monotonic() < until:
                await asyncio.sleep(0.1)
            await asyncio.sleep(cfg.settle)
        await finish(phase)
        # The end: no more decisions; the moves in flight are answered and shown, or not.
        ctx.stop_at = time.monotonic()
        await asyncio.gather(*drivers)
        drain_end = time.monotonic() + cfg.drain
        while time.monotonic() < drain_end and any(g.moves or g.by_cmd for g in games):
            await asyncio.sleep(0.05)
        # A move not shown on every page by now is lost to its table, counted in the window it
        # was sent in (a move sent between two windows, while the metrics were read, in the first).
        for g in games:
            for m in g.moves:
                stats = ctx.ledger.phase_of.get(m.cmd_id)
                if stats is not None:
                    stats.unfinished += 1
        return _Driven(phases, connect_s, ctx.ledger)


def bot_gaps(phases: list[Phase], bot_game_ids: Sequence[int]) -> None:
    """How long each bot took, from the log: in a game with a bot and long timers every write
    after the first that no person made is the bot's, due BOT_DELAY_S after the write before it
    (one write's events share their time). Counted in the phase the bot's write fell in."""
    from games.models import GameEvent

    writes: dict[int, list[tuple[float, bool]]] = {}  # game -> [(time, by a person)] in seq order
    rows = GameEvent.objects.filter(game_id__in=bot_game_ids).order_by("game_id", "seq")
    last: tuple[int, Any] | None = None
    for game_id, created, actor, kind in rows.values_list("game_id", "created_at", "actor_id", "type"):
        if (game_id, created) == last or kind == "GameAborted":
            continue
        last = (game_id, created)
        writes.setdefault(game_id, []).append((created.timestamp(), actor is not None))
    for game_writes in writes.values():
        for (before, _), (at, by_person) in itertools.pairwise(game_writes):
            if by_person:
                continue
            for p in phases:
                if p.wall_started <= at < p.wall_ended:
                    p.bot_gaps_s.append(at - before)


def check_against_log(phases: list[Phase], ledger: Ledger, game_ids: Sequence[int]) -> list[str]:
    """Hold what the pages were told against the log and its command records; count per phase.

    Every command the bench sent has a cmd_id of its own (`b<game>-<n>`), so in a game's records
    (unique by game, user and cmd_id) a cmd_id names one command."""
    from games.models import CommandRecord, GameEvent

    by_stats = {id(p.stats): p for p in phases}
    records = {
        (g, c): (first, last)
        for g, c, first, last in CommandRecord.objects.filter(game_id__in=game_ids).values_list(
            "game_id", "client_cmd_id", "first_seq", "last_seq"
        )
    }
    person_events: dict[int, list[tuple[int, str]]] = {}
    for g, seq, kind in GameEvent.objects.filter(game_id__in=game_ids, actor__isnull=False).values_list(
        "game_id", "seq", "type"
    ):
        person_events.setdefault(g, []).append((seq, kind))
    anomalies: list[str] = []

    def phase_of(cmd_id: str) -> Phase | None:
        stats = ledger.phase_of.get(cmd_id)
        return by_stats.get(id(stats)) if stats is not None else None

    for cmd_id, (game_id, _seat) in ledger.sent.items():
        phase = phase_of(cmd_id)
        record = records.get((game_id, cmd_id))
        acks = ledger.acks.get(cmd_id, [])
        errors = ledger.errors.get(cmd_id, [])
        new = [seq for seq, duplicate in acks if not duplicate]
        if phase is not None:
            phase.moves += min(1, len(new))
            phase.duplicate_acks += len(acks) - len(new)
            if len(new) > 1:
                phase.duplicated += len(new) - 1
            if acks and (record is None or any(seq != record[1] for seq, _ in acks)):
                phase.lost_acked += 1
            elif not acks and not errors:
                if record is None:
                    phase.lost_unanswered += 1
                else:
                    phase.unanswered_applied += 1
        if errors and record is not None:
            anomalies.append(f"{cmd_id}: refused ({', '.join(errors)}) yet in the log at {record}")
    sent = {(game_id, cmd_id) for cmd_id, (game_id, _) in ledger.sent.items()}
    for key, seqs in records.items():
        if key not in sent:
            anomalies.append(f"game {key[0]}: a command record {key[1]!r} {seqs} no page sent")
    for game_id, events in person_events.items():
        spans = [seqs for (g, _), seqs in records.items() if g == game_id]
        for seq, kind in events:
            if kind in ("SeatReclaimed", "GameAborted"):
                continue
            if not any(first <= seq <= last for first, last in spans):
                # A person's move no record accounts for: a command applied without its record
                # (a second time). Counted in the last phase: the log does not say when.
                phases[-1].unrecorded += 1
                anomalies.append(f"game {game_id}: seq {seq} ({kind}) by a person, in no command record")
    return anomalies


def run_deploy_bench(cfg: DeployConfig, write: Callable[[str], None] = print) -> DeployResult:
    """Set up, start the production shape, drive the phases, check the log, stop, report."""
    from django.db import connection

    if cfg.games < 1 or cfg.servers < 1:
        raise ValueError("at least one game and one server")
    for phase in cfg.phases:
        parse_phase(phase, cfg.servers)
    raise_file_limit(6 * (cfg.games * (SEATS + 1) + cfg.lobby_watchers))
    client.RESTART_SPREAD_S = cfg.restart_spread  # the pages' own wait after a 1012
    prepared = prepare_games(cfg, write, bot_every=cfg.bot_every)
    game_ids = [s.game_id for s in prepared.specs]
    stack = ProdStack(
        cfg, write, BOT_DELAY_SECONDS=f"{BOT_DELAY_S:g}", BOT_OVERDUE_SECONDS=f"{BOT_OVERDUE_S:g}"
    )
    write(f"set up in {prepared.setup_s:.1f} s; starting scripts/prod's processes in {stack.run_dir} ...")
    try:
        stack.start()
        driven = uvloop.run(_drive(cfg, prepared.specs, stack, write))
        phases, connect_s, ledger = driven.phases, driven.connect_s, driven.ledger
    finally:
        stack.stop()
    anomalies = check_against_log(phases, ledger, game_ids)
    bot_gaps(phases, [s.game_id for s in prepared.specs if s.bot_seats])
    end_bench_games(game_ids)
    connection.close()
    result = DeployResult(cfg, phases, prepared.setup_s, connect_s, anomalies=anomalies)
    return reported(result, format_report(result), write)


def _dist(values: Sequence[float], scale: float = 1.0, digits: int = 1) -> str:
    if not values:
        return "n/a"
    p50, p99, top = (percentile(values, q) * scale for q in (50, 99, 100))
    return f"{p50:.{digits}f} / {p99:.{digits}f} / {top:.{digits}f} (n={len(values)})"


def format_report(r: DeployResult) -> list[str]:
    cfg = r.config
    lobby = cfg.lobby_watchers
    bots = len(range(0, cfg.games, cfg.bot_every)) if cfg.bot_every > 0 else 0
    lines = [
        f"bench_deploy: {cfg.games} games ({bots} with a bot in seat {SEATS - 1}), "
        f"{cfg.spectators} watch pages, {lobby} lobby pages, through nginx on :{cfg.port} to "
        f"{cfg.servers} servers, a worker and beat (scripts/prod); a decision per game every "
        f"{cfg.mean_gap:g} s on average; DRAIN_SECONDS {cfg.drain_seconds:g}, DRAIN_CLOSE_RATE "
        f"{cfg.close_rate:g}; pages wait 0.25-{0.25 + cfg.restart_spread:g} s after a 1012; "
        f"{os.cpu_count()} CPUs",
        f"setup {r.setup_s:.1f} s, pages open in {r.connect_s:.1f} s",
        "",
        "| | " + " | ".join(p.title for p in r.phases) + " |",
        "|---|" + "---|" * len(r.phases),
    ]

    def row(label: str, get: Callable[[Phase], Any]) -> None:
        lines.append(f"| {label} | " + " | ".join(str(get(p)) for p in r.phases) + " |")

    def closes(p: Phase) -> str:
        c: Counter[int] = p.stats.closes
        return ", ".join(f"{code}: {n}" for code, n in sorted(c.items())) or "none"

    row("window (s)", lambda p: f"{p.seconds:.1f}")
    row("moves made (commands applied)", lambda p: p.moves)
    row("bot moves (in the log)", lambda p: len(p.bot_gaps_s))
    row(
        "**lost** (answered not in the log / unanswered not in the log / not shown on every page)",
        lambda p: f"**{p.lost}** ({p.lost_acked} / {p.lost_unanswered} / {p.stats.unfinished})",
    )
    row(
        "**duplicated** (a cmd_id applied twice / a person's move with no record)",
        lambda p: f"**{p.duplicated + p.unrecorded}** ({p.duplicated} / {p.unrecorded})",
    )
    row("**errors shown to a page**", lambda p: f"**{p.errors_shown}** " + _errors(p.stats))
    row(
        "HTTP requests that failed unseen (heartbeats, frames, history: the pages go on without them)",
        lambda p: f"{p.http_unshown} " + _unshown(p.stats),
    )
    row("sockets lost (by close code)", closes)
    row(
        f"**pages back** p50 / p99 / max s (must after SIGTERM: p99 <= {BACK_BOUND_S:g}; kill -9: reported)",
        lambda p: _dist(p.stats.back_s, digits=2),
    )
    row("pages not back at the window's end", lambda p: p.not_back)
    row("reconnections: handshake p50 / p99 / max s", lambda p: _dist(p.stats.handshake_s, digits=2))
    row("reconnections: open -> resumed p50 / p99 / max s", lambda p: _dist(p.stats.resume_s, digits=2))
    row(
        "reconnections that failed",
        lambda p: ", ".join(f"{k} {v}" for k, v in sorted(p.stats.reconnect_failures.items())) or "none",
    )
    row(
        "commands resent on a new socket / answered `duplicate`",
        lambda p: f"{p.stats.resent} / {p.duplicate_acks}",
    )
    row(
        "commands answered more than 5 s after they were sent (the page held its controls)",
        lambda p: p.stats.late_answers,
    )
    row("unanswered at the end, but applied", lambda p: p.unanswered_applied)
    row("move latency send -> every page holds it, p50 / p99 / max ms", lambda p: _dist(p.stats.latencies_ms))
    row("command send -> ack p50 / p99 / max ms", lambda p: _dist(p.stats.ack_ms))
    row("server CPU per move, ms (all servers)", lambda p: _per_move(p, "servers"))
    row("worker CPU per move, ms", lambda p: _per_move(p, "worker"))
    row("nginx CPU per move, ms", lambda p: _per_move(p, "nginx"))
    row(
        "machine CPU per move less the bench's clients, ms (PostgreSQL, Redis and all)",
        lambda p: _per_move(p, "machine", "bench clients (this)"),
    )
    row(
        "machine busy (100% = one core)",
        lambda p: f"{100 * p.cpu['machine'] / p.seconds:.0f}%" if p.cpu else "n/a",
    )
    row(
        f"a bot's move, from the write before it, in the log: p50 / p99 / max s (due after {BOT_DELAY_S:g})",
        lambda p: _dist(p.bot_gaps_s, digits=2),
    )
    row(
        f"**bots late beyond their bound** (over {BOT_BOUND_S:g} s late: overdue {BOT_OVERDUE_S:g} s, "
        f"then the next {SWEEP_EVERY_S:g} s sweep and {SWEEP_WORK_S:g} s for its run)",
        lambda p: p.bots_late,
    )
    row(
        "a bot's turn shown -> its move shown on a page, p50 / p99 / max s",
        lambda p: _dist(p.stats.bot_wait_s, digits=2),
    )
    row("metric: bot tasks (later than 5 s / 10 s)", lambda p: _tasks(p, "bot"))
    row("metric: timer tasks (later than 5 s / 10 s)", lambda p: _tasks(p, "timer"))
    pushes = ("push gaps", "push failures", "channel send failures")
    row(
        "metric: push gaps, push failures, channel send failures",
        lambda p: ", ".join(f"{p.metrics[k]:g}" for k in pushes) if p.metrics else "n/a",
    )
    steady = next((p for p in r.phases if p.name == "steady"), None)
    for p in r.phases:
        if p.restart_lines:
            lines += ["", f"{p.title}, scripts/prod's lines (time since the window began):"]
            lines += [f"  {line}" for line in p.restart_lines]
    if steady is not None:
        lines.append("")
        for p in r.phases:
            if p is not steady:
                lines.append(
                    f"move p99 in the {p.title} window: {ms(p.stats.latencies_ms, 99)} ms "
                    f"(steady: {ms(steady.stats.latencies_ms, 99)} ms)"
                )
    if r.anomalies:
        lines += ["", "the log and the pages disagree:"] + [f"  {a}" for a in r.anomalies[:20]]
    failures = r.failures
    lines += ["", "verdict: " + ("every must met" if not failures else "FAILED: " + "; ".join(failures))]
    return lines


# The requests a page shows the failure of: loading the page itself (bench.browser's kind "page").
SHOWN_HTTP = ("page",)


def _shown_http(s: BrowserStats) -> Counter[str]:
    return Counter({k: v for k, v in s.http_errors.items() if k.split()[0] in SHOWN_HTTP})


def _errors(s: BrowserStats) -> str:
    items = [f"{k} {v}" for k, v in sorted(s.errors.items())]
    items += [f"HTTP {k} {v}" for k, v in sorted(_shown_http(s).items())]
    items += [f"socket refused {k} {v}" for k, v in sorted(s.refused.items())]
    return f"({', '.join(items)})" if items else ""


def _unshown(s: BrowserStats) -> str:
    shown = _shown_http(s)
    items = [f"{k} {v}" for k, v in sorted(s.http_errors.items()) if k not in shown]
    return f"({', '.join(items)})" if items else ""


def _per_move(p: Phase, part: str, less: str = "") -> str:
    """CPU ms per move of one part (less another). A move is a person's command applied or a bot's."""
    moves = p.moves + len(p.bot_gaps_s)
    if not p.cpu or not moves:
        return "n/a"
    return f"{1000 * (p.cpu[part] - p.cpu.get(less, 0.0)) / moves:.2f}"


def _tasks(p: Phase, task: str) -> str:
    if not p.metrics:
        return "n/a"
    m = p.metrics
    return f"{m[f'{task} tasks']:g} ({m[f'{task} later than 5 s']:g} / {m[f'{task} later than 10 s']:g})"
