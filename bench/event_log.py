"""A move's append and a replay's read on a small log and on a log of millions of events, in the
old layout (one table) and the partitioned one (games/partitions.py), in one run.

Two databases: a small one and a big one, whose log is filled with copies of a real game (as many
games as it takes to reach `events`). Each is measured in the old layout, then converted by the
migration (timed) and measured again. The appends are the real append path (bench/service.py's
one-game driver: `game_command_submit` on a new game); the reads are a replay's query of a random
old game's whole log, and a game's fold without its snapshot (`load_state`).
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from bench.kit.stack import ensure_database, use_database
from bench.kit.stats import percentile, reference_loop_ms
from bench.service import BenchConfig, bench_load, bench_one_game, new_prefix

OLD = ("games", "0002_event_log_and_storage")
PARTITIONED = ("games", "0003_partition_event_log")
REPLAY_READ = (
    "SELECT id, seq, type, version, payload, created_at, actor_id FROM games_gameevent "
    "WHERE game_id = %s ORDER BY seq"
)


def _later_migrations() -> list[Any]:
    """The games migrations after the conversion (e.g. a table's new column), oldest first."""
    graph = MigrationExecutor(connection).loader.graph
    leaf = next(node for node in graph.leaf_nodes() if node[0] == "games")
    done = set(graph.forwards_plan(PARTITIONED))
    return [graph.nodes[key] for key in graph.forwards_plan(leaf) if key not in done]


def migrate_log_layout(*, old: bool) -> None:
    """The log in the old layout (one table) or the partitioned one, and every other table as the
    models have it now (the games the bench and the tests make need today's columns).

    The later migrations depend on the conversion, so unapplying it unapplies them; in the old
    layout their schema changes are made again by hand (not recorded), and undone before the
    conversion runs; partitioned, they are migrated to as usual. None of them touches the log."""
    executor = MigrationExecutor(connection)
    later = _later_migrations()
    state = executor.loader.project_state(PARTITIONED)
    if old:
        executor.migrate([OLD])
        with connection.schema_editor() as editor:
            for migration in later:
                state = migration.apply(state, editor)
        return
    if PARTITIONED not in executor.loader.applied_migrations:  # old, with the later changes by hand
        states = [state]  # states[i]: before later[i]
        for migration in later:
            states.append(migration.mutate_state(states[-1], preserve=True))
        with connection.schema_editor() as editor:
            for migration, before in zip(reversed(later), reversed(states[:-1]), strict=True):
                migration.unapply(before, editor)
    MigrationExecutor(connection).migrate([PARTITIONED])
    MigrationExecutor(connection).migrate([(m.app_label, m.name) for m in later[-1:]] or [PARTITIONED])


@dataclass(frozen=True)
class EventLogConfig:
    database_url: str  # the big database; the small one's name ends in _small
    events: int = 10_000_000
    commands: int = 300
    reads: int = 300
    seed: int = 1


@dataclass(frozen=True)
class Figures:
    label: str
    events: int
    append_p50_ms: float
    append_p99_ms: float
    read_p50_ms: float
    read_p99_ms: float
    fold_ms: float
    loop_ms: float


def _fresh(url: str) -> None:
    import psycopg

    name = url.rsplit("/", 1)[1]
    admin = url.rsplit("/", 1)[0].replace("postgres://", "postgresql://", 1) + "/postgres"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    ensure_database(url)
    use_database(url)
    call_command("migrate", verbosity=0)
    migrate_log_layout(old=True)


def _fill(events: int, write: Callable[[str], None]) -> None:
    """Copies of the longest game, under new game rows, until the log holds `events`."""
    with connection.cursor() as cur:
        cur.execute("SELECT game_id, count(*) FROM games_gameevent GROUP BY game_id ORDER BY 2 DESC LIMIT 1")
        template, per_game = cur.fetchone()
        cur.execute("SELECT count(*) FROM games_gameevent")
        games = max(0, events - cur.fetchone()[0]) // per_game
        cur.execute(
            "SELECT column_name FROM information_schema.columns "
            "WHERE table_name = 'games_game' AND column_name <> 'id'"
        )
        columns = [row[0] for row in cur.fetchall()]
        made = {"number": "1000000 + g", "replay_key": "'fill-' || g"}
        values = ", ".join(made.get(c, f"t.{c}") for c in columns)
        t0 = time.perf_counter()
        cur.execute(
            f"INSERT INTO games_game ({', '.join(columns)}) SELECT {values} "
            "FROM games_game t, generate_series(1, %s) g WHERE t.id = %s",
            [games, template],
        )
        cur.execute(
            "INSERT INTO games_gameevent (game_id, seq, type, version, payload, created_at, actor_id) "
            "SELECT g.id, e.seq, e.type, e.version, e.payload, e.created_at, e.actor_id "
            "FROM (SELECT id FROM games_game WHERE replay_key LIKE 'fill-%%') g "
            "CROSS JOIN (SELECT * FROM games_gameevent WHERE game_id = %s) e",
            [template],
        )
        cur.execute("ANALYZE games_game; ANALYZE games_gameevent")
    write(f"  filled: {games:,} games of {per_game} events in {time.perf_counter() - t0:.0f} s")


def _measure(label: str, cfg: EventLogConfig) -> Figures:
    rng = random.Random(cfg.seed)
    with connection.cursor() as cur:
        cur.execute("SELECT count(*) FROM games_gameevent")
        events = cur.fetchone()[0]
        cur.execute("SELECT id FROM games_game WHERE last_seq > 0")
        games = [row[0] for row in cur.fetchall()]
        reads = []
        for game_id in (rng.choice(games) for _ in range(cfg.reads)):
            t0 = time.perf_counter()
            cur.execute(REPLAY_READ, [game_id])
            cur.fetchall()
            reads.append((time.perf_counter() - t0) * 1000)
    bench = BenchConfig(commands=cfg.commands, load_events=200, load_runs=20, seed=cfg.seed)
    appends = bench_one_game(bench, new_prefix()).latencies_ms
    fold = bench_load(bench, new_prefix()).replay_ms
    return Figures(
        label,
        events,
        percentile(appends, 50),
        percentile(appends, 99),
        statistics.median(reads),
        percentile(reads, 99),
        fold,
        reference_loop_ms(),
    )


def run_event_log_bench(cfg: EventLogConfig, write: Callable[[str], None] = print) -> list[Figures]:
    small = cfg.database_url + "_small"
    out: list[Figures] = []
    for url, fill in ((small, 0), (cfg.database_url, cfg.events)):
        write(f"{url.rsplit('/', 1)[1]}: old layout")
        _fresh(url)
        bench_one_game(BenchConfig(commands=60, seed=cfg.seed), new_prefix())  # a game to copy
        if fill:
            _fill(fill, write)
        out.append(_measure(f"{'big' if fill else 'small'} log, one table", cfg))
    for url in (small, cfg.database_url):
        use_database(url)
        t0 = time.perf_counter()
        migrate_log_layout(old=False)
        write(f"{url.rsplit('/', 1)[1]}: converted in {time.perf_counter() - t0:.1f} s")
        big = url == cfg.database_url
        out.append(_measure(f"{'big' if big else 'small'} log, partitioned", cfg))
    return out


def format_report(figures: list[Figures]) -> list[str]:
    head = (
        f"{'':28} {'events':>11} {'append p50':>10} {'p99':>7} {'read p50':>9} {'p99':>7} "
        f"{'fold':>7} {'loop':>6}"
    )
    lines = [head, "-" * len(head)]
    for f in figures:
        lines.append(
            f"{f.label:28} {f.events:>11,} {f.append_p50_ms:>8.2f}ms {f.append_p99_ms:>5.2f}ms "
            f"{f.read_p50_ms:>7.2f}ms {f.read_p99_ms:>5.2f}ms {f.fold_ms:>5.2f}ms {f.loop_ms:>4.1f}ms"
        )
    lines.append(
        "append: a move through game_command_submit; read: a random game's whole log (a replay's "
        "query); fold: a 200-event game loaded without its snapshot; loop: the machine's speed"
    )
    return lines
