"""How fast the service layer accepts commands and loads games, through the real services on the
configured database; its users and tables (under a fresh prefix) are left behind."""

from __future__ import annotations

import os
import random
import secrets
import statistics
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.db import connection, transaction

from bench.kit.stats import (
    percentile,
    process_cpu_seconds,
    read_process_cpu_seconds,
    reference_loop_ms,
    table_lines,
    write_report,
)
from games.eventlog import forget_states, load_state
from games.models import Game, GameSeat, Table, TableStatus
from games.services.moves import game_append, game_command_submit
from games.services.tables import TableSettings, table_create, table_join, table_next_game, table_start
from harehra import GameState, apply, legal_commands, make_ruleset, replay, start_game, step

GOAL_P99_MS = 15.0
GOAL_LOAD_MS = 5.0


@dataclass(frozen=True)
class BenchConfig:
    commands: int = 1000  # commands for (a), and in all for (b)
    games: int = 50
    threads: int = 8
    players: int = 4
    load_events: int = 1000
    load_runs: int = 20
    seed: int = 1


@dataclass
class RunFigures:
    commands: int = 0
    wall_s: float = 0.0
    latencies_ms: list[float] = field(default_factory=list)
    games_started: int = 0
    # CPU per command, where it can be read (PostgreSQL on this machine): this process (the
    # service code, plus an event loop made for each publish, as no server runs here) and the
    # PostgreSQL backend serving it.
    python_cpu_ms: float | None = None
    database_cpu_ms: float | None = None
    # What each command costs the shared database: statements sent (reads, writes, locks and
    # transaction control) and write-ahead log bytes (the whole cluster's: run it on a quiet one).
    statements: float | None = None
    wal_bytes: float | None = None

    @property
    def per_second(self) -> float:
        return self.commands / self.wall_s if self.wall_s else 0.0


@dataclass
class LoadFigures:
    events: int
    snapshot_ms: float
    replay_ms: float


@dataclass
class BenchResult:
    prefix: str
    one: RunFigures
    many: RunFigures
    load: LoadFigures


def _make_users(prefix: str, tag: str, n: int) -> list[Any]:
    """Users without a real password hash: PBKDF2 would cost a second per table, for nothing."""
    User = get_user_model()
    users = [User(username=f"{prefix}-{tag}-{i}", password=make_password(None)) for i in range(n)]
    return User.objects.bulk_create(users)


def _seated_table(prefix: str, tag: str, players: int) -> tuple[Table, dict[int, Any]]:
    """A table with `players` people seated (the first hosts), not started; users by seat."""
    users = _make_users(prefix, tag, players)
    table = table_create(host=users[0], settings=TableSettings(seats=players))
    by_seat = {0: users[0]}
    for user in users[1:]:
        by_seat[table_join(table=table, user=user).number] = user
    return table, by_seat


class _Driver:
    """Plays one table's games by sequential submits, each the awaited seat's first or last command."""

    def __init__(self, table: Table, by_seat: dict[int, Any], game: Game, rng: random.Random) -> None:
        self.table, self.by_seat, self.game, self.rng = table, by_seat, game, rng
        self.sent = 0
        self.games_started = 1

    def _state(self) -> GameState:
        # The service remembers the state it appended, so this is a cache hit (no query).
        return load_state(self.game)

    def submit_one(self) -> float:
        """One accepted command; returns the latency of the game_command_submit call in ms."""
        state = self._state()
        if state.over:
            self.game = table_next_game(table=self.table, user=self.by_seat[0])
            self.games_started += 1
            state = self._state()
        assert state.awaiting is not None
        seat = state.awaiting.seat
        legal = legal_commands(state, seat)
        choice = legal[0] if self.rng.random() < 0.5 else legal[-1]
        command = {k: v for k, v in choice.items() if k != "seat"}
        self.sent += 1
        t0 = time.perf_counter()
        outcome = game_command_submit(
            game=self.game, user=self.by_seat[seat], command=command, client_cmd_id=f"b{self.sent}"
        )
        elapsed = (time.perf_counter() - t0) * 1000
        self.game.last_seq = outcome.last_seq
        return elapsed


def _new_driver(prefix: str, tag: str, players: int, seed: int) -> _Driver:
    table, by_seat = _seated_table(prefix, tag, players)
    game = table_start(table=table, user=by_seat[0])
    return _Driver(table, by_seat, game, random.Random(seed))


def _database_backend_pid() -> int | None:
    local = connection.settings_dict.get("HOST") in ("127.0.0.1", "localhost", "", None)
    if connection.vendor != "postgresql" or not local:
        return None
    with connection.cursor() as cur:
        cur.execute("SELECT pg_backend_pid()")
        pid = int(cur.fetchone()[0])
    # A backend just started has used less than a clock tick: 0 s is a reading, not a failure.
    return pid if read_process_cpu_seconds(pid) is not None else None


@contextmanager
def _statements_counted() -> Iterator[list[int]]:
    """Count the statements this process sends to PostgreSQL meanwhile: the write path's own SQL
    goes through psycopg's cursors directly (plumbing/rawsql.py), past Django's wrappers, so
    the count is taken at psycopg's cursor, which every cursor of both kinds inherits."""
    import psycopg

    sent = [0]
    execute, executemany = psycopg.Cursor.execute, psycopg.Cursor.executemany

    def counted_execute(self: Any, *args: Any, **kwargs: Any) -> Any:
        sent[0] += 1
        return execute(self, *args, **kwargs)

    def counted_executemany(self: Any, query: Any, params_seq: Any, **kwargs: Any) -> Any:
        params_seq = list(params_seq)
        sent[0] += len(params_seq)
        return executemany(self, query, params_seq, **kwargs)

    psycopg.Cursor.execute, psycopg.Cursor.executemany = counted_execute, counted_executemany  # type: ignore[method-assign]
    try:
        yield sent
    finally:
        psycopg.Cursor.execute, psycopg.Cursor.executemany = execute, executemany  # type: ignore[method-assign]


def _wal_position() -> int | None:
    """The cluster's write-ahead log position in bytes (PostgreSQL), read outside the count."""
    if connection.vendor != "postgresql":
        return None
    with connection.cursor() as cur:
        cur.execute("SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::bigint")
        return int(cur.fetchone()[0])


def bench_one_game(cfg: BenchConfig, prefix: str) -> RunFigures:
    driver = _new_driver(prefix, "one", cfg.players, cfg.seed)
    figures = RunFigures()
    backend = _database_backend_pid()
    wal0 = _wal_position()
    db0, py0 = process_cpu_seconds(backend) if backend else 0.0, time.process_time()
    t0 = time.perf_counter()
    with _statements_counted() as sent:
        for _ in range(cfg.commands):
            figures.latencies_ms.append(driver.submit_one())
    figures.wall_s = time.perf_counter() - t0
    figures.statements = sent[0] / cfg.commands if connection.vendor == "postgresql" else None
    wal1 = _wal_position()
    if wal0 is not None and wal1 is not None:
        figures.wal_bytes = (wal1 - wal0) / cfg.commands
    figures.python_cpu_ms = (time.process_time() - py0) * 1000 / cfg.commands
    if backend:
        figures.database_cpu_ms = (process_cpu_seconds(backend) - db0) * 1000 / cfg.commands
    figures.commands = cfg.commands
    figures.games_started = driver.games_started
    return figures


def bench_many_games(cfg: BenchConfig, prefix: str) -> RunFigures:
    games = max(1, cfg.games)
    threads = max(1, min(cfg.threads, games))
    drivers = [_new_driver(prefix, f"g{i}", cfg.players, cfg.seed + 1 + i) for i in range(games)]
    per_game = max(1, cfg.commands // games)
    shares = [drivers[t::threads] for t in range(threads)]
    latencies: list[list[float]] = [[] for _ in range(threads)]
    errors: list[BaseException] = []
    start = threading.Barrier(threads + 1)

    def work(t: int) -> None:
        try:
            start.wait()
            for _ in range(per_game):  # round-robin over this thread's games
                for driver in shares[t]:
                    latencies[t].append(driver.submit_one())
        except BaseException as e:  # reported by the main thread
            errors.append(e)
        finally:
            connection.close()

    workers = [threading.Thread(target=work, args=(t,), name=f"bench-{t}") for t in range(threads)]
    for w in workers:
        w.start()
    start.wait()
    t0 = time.perf_counter()
    for w in workers:
        w.join()
    wall = time.perf_counter() - t0
    if errors:
        raise errors[0]
    figures = RunFigures(wall_s=wall, games_started=sum(d.games_started for d in drivers))
    figures.latencies_ms = [ms for part in latencies for ms in part]
    figures.commands = len(figures.latencies_ms)
    return figures


def _prolonging_choice(legal: list[dict[str, Any]]) -> dict[str, Any]:
    """Keep the game going: never attack with cumi, always evade a volley or skip when possible."""
    if any("react" in c for c in legal):
        evasions = [c for c in legal if c["react"] != "none"]
        return evasions[0] if evasions else legal[0]
    gentle = [c for c in legal if not (c.get("play") and "cumi" in c["play"])]
    return (gentle or legal)[0]


def _simulate_long_game(players: int, min_events: int, seed: int) -> list[list[Any]]:
    """A seeded engine game, stopped once it has `min_events` events: its events grouped by step."""
    ruleset = make_ruleset((), 0)
    for attempt in range(100):
        rng = random.Random(seed * 1000 + attempt)

        def shuffle(cards: Sequence[str], rng: random.Random = rng) -> list[str]:
            out = list(cards)
            rng.shuffle(out)
            return out

        first = start_game(ruleset, players, 0, shuffle)
        steps: list[list[Any]] = [first]
        state, total = replay(first), len(first)
        while total < min_events and not state.over:
            assert state.awaiting is not None
            command = _prolonging_choice(legal_commands(state, state.awaiting.seat))
            events, state = step(state, command, shuffle)
            steps.append(events)
            total += len(events)
        if total >= min_events:
            return steps
    raise RuntimeError(f"no seeded game reached {min_events} events")


def build_long_game(cfg: BenchConfig, prefix: str) -> Game:
    """A running game of at least `load_events` events, written as the services write them."""
    table, by_seat = _seated_table(prefix, "long", cfg.players)
    steps = _simulate_long_game(cfg.players, cfg.load_events, cfg.seed)
    with transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table.pk)
        game = Game.objects.create(table=table, number=1, players=table.seats, shuffler=0)
        GameSeat.objects.bulk_create(
            [GameSeat(game=game, seat=seat, user_id=user.pk) for seat, user in by_seat.items()]
        )
        game.table = table
        state: GameState | None = None
        for events in steps:
            before = state
            for e in events:
                state = apply(state, e)
            assert state is not None
            game_append(game, events, before=before, after=state, actor_id=None, bot_seats=())
        table.status = TableStatus.PLAYING
        table.next_shuffler = 1 % table.seats
        table.save(update_fields=["status", "next_shuffler"])
    return game


def bench_load(cfg: BenchConfig, prefix: str) -> LoadFigures:
    game = build_long_game(cfg, prefix)
    game = Game.objects.get(pk=game.pk)
    expected = load_state(game, use_snapshot=False)

    def timed(use_snapshot: bool) -> float:
        runs = []
        for _ in range(max(1, cfg.load_runs)):
            forget_states()
            t0 = time.perf_counter()
            state = load_state(game, use_snapshot=use_snapshot)
            runs.append((time.perf_counter() - t0) * 1000)
            assert state == expected, "the snapshot and the log disagree"
        return statistics.median(runs)

    timed(True)  # warm up the connection and the query path once
    snapshot_ms = timed(True)
    replay_ms = timed(False)
    forget_states()
    return LoadFigures(events=game.last_seq, snapshot_ms=snapshot_ms, replay_ms=replay_ms)


def new_prefix() -> str:
    """Unique per run, so repeated runs never collide on usernames."""
    return f"bench-{secrets.token_hex(4)}"


def run_bench(cfg: BenchConfig, write: Callable[[str], None]) -> BenchResult:
    prefix = new_prefix()
    db = connection.settings_dict.get("NAME", "?")
    write(
        f"Harehra service bench on {connection.vendor} (database {db}), {os.cpu_count()} CPUs, "
        f"load average {_load()}, prefix {prefix}"
    )
    write(f"reference loop: {reference_loop_ms():.1f} ms (compare runs with it in view)")
    write(f"(a) one game: {cfg.commands} sequential commands ...")
    one = bench_one_game(cfg, prefix)
    games, threads = max(1, cfg.games), max(1, min(cfg.threads, cfg.games))
    write(f"(b) {games} games in {threads} threads: {max(1, cfg.commands // games)} commands per game ...")
    many = bench_many_games(cfg, prefix)
    write(f"(d) loading a game of {cfg.load_events}+ events, median of {cfg.load_runs} runs ...")
    load = bench_load(cfg, prefix)
    result = BenchResult(prefix, one, many, load)
    write_report(format_report(result, cfg), write)
    write("")
    write(
        "Latency is one game_command_submit call, commit and on-commit hooks (publish, timer tasks) "
        f"included; (a) and (b) rates are over wall time. Load average now {_load()}."
    )
    return result


def _load() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "?"


def format_report(r: BenchResult, cfg: BenchConfig) -> list[str]:
    games, threads = max(1, cfg.games), max(1, min(cfg.threads, cfg.games))
    rows: list[tuple[str, str, str, str]] = []

    def add(figure: str, value: str, note: str = "") -> None:
        rows.append((figure, value, "", note))

    def against(figure: str, ms: float, goal: float) -> None:
        rows.append((figure, f"{ms:8.2f} ms", f"< {goal:g} ms", "ok" if ms < goal else "MISSED"))

    def run_rows(label: str, f: RunFigures) -> None:
        p50, p99 = percentile(f.latencies_ms, 50), percentile(f.latencies_ms, 99)
        note = f"{f.commands} commands in {f.wall_s:.2f} s, {f.games_started} games"
        add(f"{label} commands accepted per second", f"{f.per_second:8.1f} /s", note)
        add(f"{label} submit latency p50", f"{p50:8.2f} ms", f"max {max(f.latencies_ms):.2f} ms")
        against(f"{label} submit latency p99", p99, GOAL_P99_MS)

    one = r.one
    run_rows("(a) one game:", one)
    if one.python_cpu_ms is not None:
        add("(a) one game: CPU per command, this process", f"{one.python_cpu_ms:8.2f} ms")
    if one.database_cpu_ms is not None:
        add("(a) one game: CPU per command, PostgreSQL", f"{one.database_cpu_ms:8.2f} ms", "its backend")
    if one.statements is not None:
        note = "sent through cursors; BEGIN and COMMIT add two round trips"
        add("(a) one game: SQL statements per command", f"{one.statements:8.1f}", note)
    if one.wal_bytes is not None:
        add(
            "(a) one game: WAL bytes per command",
            f"{one.wal_bytes:8.0f} B",
            "the whole cluster's WAL: exact on a quiet one",
        )
    run_rows(f"(b) {games} games/{threads} threads:", r.many)
    against(f"(d) load {r.load.events}-event game, snapshot", r.load.snapshot_ms, GOAL_LOAD_MS)
    against(f"(d) load {r.load.events}-event game, no snapshot", r.load.replay_ms, GOAL_LOAD_MS)
    return table_lines(("figure", "value", "goal", "note"), rows)
