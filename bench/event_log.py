"""A move's append and a replay's read on a log of millions of events, in the old layout (one
table) and the partitioned one (games/partitions.py), measured side by side in one run.

One database is made in the old layout and its log filled with copies of a real game (as many
games as it takes to reach `events`); a second is copied from it (CREATE DATABASE ... TEMPLATE:
the same rows, files and statistics) and converted by the migration (timed). Then the two are
measured in alternating rounds (one table then partitioned, then the other way round, and so on),
so that the machine's speed, which drifts by a factor of two within minutes here, weighs on both
layouts alike. The appends are the real append path (bench/service.py's one-game driver:
`game_command_submit` on a new game each round); the reads are a replay's query of a random old
game's whole log (the same games in both, drawn from one seed); the fold is a game loaded without
its snapshot (`load_state`). Both databases are dropped at the end unless `keep`.
"""

from __future__ import annotations

import random
import re
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.core.management import call_command
from django.db import connection, connections
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
    database_url: str  # the one-table database; the partitioned copy's name ends in _part
    events: int = 10_000_000
    commands: int = 300  # appends per layout, over all rounds
    reads: int = 300  # replay reads per layout, over all rounds
    rounds: int = 10
    # The moves' new games past the first partition's range (in a partition of their own, as every
    # game after the conversion's range is), else in it (the big log's own index, as right after it).
    new_partition: bool = True
    keep: bool = False  # keep both databases (by default dropped at the end)
    seed: int = 1


LAYOUTS = ("one table", "partitioned")


@dataclass
class Figures:
    label: str
    events: int = 0
    appends: list[float] = field(default_factory=list)
    reads: list[float] = field(default_factory=list)
    folds: list[float] = field(default_factory=list)
    round_append_p50: list[float] = field(default_factory=list)  # each round's, in order

    @property
    def append_p50_ms(self) -> float:
        return percentile(self.appends, 50)

    @property
    def append_p99_ms(self) -> float:
        return percentile(self.appends, 99)

    @property
    def read_p50_ms(self) -> float:
        return percentile(self.reads, 50)

    @property
    def read_p99_ms(self) -> float:
        return percentile(self.reads, 99)

    @property
    def fold_ms(self) -> float:
        return statistics.median(self.folds) if self.folds else float("nan")


@dataclass
class EventLogResult:
    figures: list[Figures]
    fill_s: float
    copy_s: float
    convert_s: float
    loops_ms: list[float]  # the machine's speed before each round


def _admin(url: str) -> str:
    return url.rsplit("/", 1)[0].replace("postgres://", "postgresql://", 1) + "/postgres"


def _drop(url: str) -> None:
    import psycopg

    with psycopg.connect(_admin(url), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{url.rsplit("/", 1)[1]}" WITH (FORCE)')


def _fresh(url: str) -> None:
    _drop(url)
    ensure_database(url)
    use_database(url)
    call_command("migrate", verbosity=0)
    migrate_log_layout(old=True)


def _copy(source: str, target: str) -> None:
    """`target` made as a file copy of `source` (no connection to `source` may be open)."""
    import psycopg

    connections["default"].close()
    _drop(target)
    with psycopg.connect(_admin(source), autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{target.rsplit("/", 1)[1]}" TEMPLATE "{source.rsplit("/", 1)[1]}"')


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


def _past_first_partition(plain: str, part: str, write: Callable[[str], None]) -> None:
    """New games numbered from the first partition's upper bound in both databases (the same ids),
    and in the partitioned one the partitions they fall in made (by the beat's own call)."""
    from games.partitions import event_log_partitions, event_log_partitions_ensure

    bound = int(re.search(r"TO \('?(-?\d+)", dict(event_log_partitions())["games_gameevent_before"]).group(1))
    for url in (plain, part):
        use_database(url)
        with connection.cursor() as cur:
            cur.execute("SELECT setval(pg_get_serial_sequence('games_game', 'id'), %s, false)", [bound])
    made = event_log_partitions_ensure()
    write(f"  new games from id {bound:,}: past the first partition ({made} partitions made ahead)")


def _round(figures: Figures, commands: int, reads: int, games: list[int], cfg: EventLogConfig) -> None:
    """One round on the database in use: `reads` replay reads, then `commands` appends on a new
    game, then one fold of a 200-event game."""
    with connection.cursor() as cur:
        cur.execute("SELECT 1")  # the connection opened before anything is timed
        for game_id in games[:reads]:
            t0 = time.perf_counter()
            cur.execute(REPLAY_READ, [game_id])
            cur.fetchall()
            figures.reads.append((time.perf_counter() - t0) * 1000)
    bench = BenchConfig(commands=commands, load_events=200, load_runs=3, seed=cfg.seed)
    appends = bench_one_game(bench, new_prefix()).latencies_ms
    figures.appends += appends
    figures.round_append_p50.append(percentile(appends, 50))
    figures.folds.append(bench_load(bench, new_prefix()).replay_ms)


def run_event_log_bench(cfg: EventLogConfig, write: Callable[[str], None] = print) -> EventLogResult:
    plain, part = cfg.database_url, cfg.database_url + "_part"
    write(f"{plain.rsplit('/', 1)[1]}: the old layout, filled to {cfg.events:,} events")
    _fresh(plain)
    bench_one_game(BenchConfig(commands=60, seed=cfg.seed), new_prefix())  # a game to copy
    t0 = time.perf_counter()
    _fill(cfg.events, write)
    fill_s = time.perf_counter() - t0
    with connection.cursor() as cur:
        cur.execute("SELECT id FROM games_game WHERE last_seq > 0 ORDER BY id")
        old_games = [row[0] for row in cur.fetchall()]
    t0 = time.perf_counter()
    _copy(plain, part)
    copy_s = time.perf_counter() - t0
    write(f"{part.rsplit('/', 1)[1]}: copied in {copy_s:.0f} s")
    use_database(part)
    t0 = time.perf_counter()
    migrate_log_layout(old=False)
    convert_s = time.perf_counter() - t0
    write(f"{part.rsplit('/', 1)[1]}: converted in {convert_s:.1f} s")
    if cfg.new_partition:
        _past_first_partition(plain, part, write)

    figures = {url: Figures(label) for url, label in zip((plain, part), LAYOUTS, strict=True)}
    rounds = max(1, cfg.rounds)
    rng = random.Random(cfg.seed)
    loops: list[float] = []
    try:
        for r in range(rounds):
            # Each round reads the same games in both layouts; the order swaps every round.
            games = [rng.choice(old_games) for _ in range(cfg.reads // rounds)]
            order = (plain, part) if r % 2 == 0 else (part, plain)
            loops.append(reference_loop_ms())
            for url in order:
                use_database(url)
                _round(figures[url], cfg.commands // rounds, len(games), games, cfg)
            write(
                f"  round {r + 1}/{rounds}: append p50 "
                + ", ".join(
                    f"{figures[u].label} {figures[u].round_append_p50[-1]:.2f} ms" for u in (plain, part)
                )
                + f"; loop {loops[-1]:.1f} ms"
            )
        for url in (plain, part):
            use_database(url)
            with connection.cursor() as cur:
                cur.execute("SELECT count(*) FROM games_gameevent")
                figures[url].events = cur.fetchone()[0]
    finally:
        connections["default"].close()
        if not cfg.keep:
            _drop(plain)
            _drop(part)
            write("both databases dropped")
    return EventLogResult(list(figures.values()), fill_s, copy_s, convert_s, loops)


def format_report(result: EventLogResult) -> list[str]:
    head = f"{'':14} {'events':>11} {'append p50':>10} {'p99':>8} {'read p50':>9} {'p99':>8} {'fold':>7}"
    lines = [head, "-" * len(head)]
    for f in result.figures:
        lines.append(
            f"{f.label:14} {f.events:>11,} {f.append_p50_ms:>8.2f}ms {f.append_p99_ms:>6.2f}ms "
            f"{f.read_p50_ms:>7.2f}ms {f.read_p99_ms:>6.2f}ms {f.fold_ms:>5.2f}ms"
        )
    plain, part = result.figures
    lines.append(
        f"partitioned / one table: append p50 {part.append_p50_ms / plain.append_p50_ms:.2f}, "
        f"p99 {part.append_p99_ms / plain.append_p99_ms:.2f}; read p50 "
        f"{part.read_p50_ms / plain.read_p50_ms:.2f}, p99 {part.read_p99_ms / plain.read_p99_ms:.2f}"
    )
    wins = sum(b < a for a, b in zip(plain.round_append_p50, part.round_append_p50, strict=True))
    lines.append(
        f"rounds: {len(result.loops_ms)}, the partitioned append p50 lower in {wins}; loop (the "
        f"machine's speed before each round) {min(result.loops_ms):.1f}-{max(result.loops_ms):.1f} ms"
    )
    lines.append(
        f"fill {result.fill_s:.0f} s, copy {result.copy_s:.0f} s, conversion {result.convert_s:.1f} s"
    )
    lines.append(
        "append: a move through game_command_submit; read: a random old game's whole log (a replay's "
        "query, the same games in both); fold: a 200-event game loaded without its snapshot"
    )
    return lines
