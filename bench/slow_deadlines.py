"""The beat's sweep beside 100,000 slow games (`manage.py bench_slow_deadlines`).

A database of the bench's own (dropped and made) holds `games` slow games whose deadlines are
spread over the 3 days after the measured window (rows of their own, 4 seats each, as a slow game
keeps them between its decisions: no page open), `live` live games not due, and `due` real slow
games (made and started through the table services, 1 hour a decision) whose deadlines fall
inside the window. The clock (plumbing/clock.py) then moves `period` seconds at a time, as the
beat's sweep runs every 5 s, and each step runs what the beat runs every 5 s on the games: one
`sweep_run()` (sweep_deadlines) and `your_turn_sweep()` with `decisions_tell()` (your_turn_notify);
then the `slow_deadline` tasks the sweep handed over (read off the broker's queue: the bench
process's own, nothing else consumes it), each run as a worker runs it, one after another.

Figures: the database time of each run of the beat's work (every statement's time as the client
waits for it, summed), its statements, the same of the sweep alone and of each slow deadline task,
and each due deadline's lateness: from the deadline to the end of the task that applied it (moved
clock plus the real time of the run and the tasks before it; a worker's pick-up is not in it).
Old against new in the same run: the work list as the sweep read it before slow games (every
running game whose deadline passed, from `game_running`) against `slow_due` (the `game_slow_due`
index), each timed by EXPLAIN ANALYZE on the same database; and `--compare-ref REF` runs REF's
bench (its code) on a database of its own first.
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from bench.kit.broker import tasks_sent
from bench.kit.stats import percentile

GOAL_SWEEP_MS = 50.0
GOAL_LATE_P99_S = 10.0
THREE_DAYS = 3 * 24 * 3600
OLD_DUE = (
    "SELECT id, last_seq FROM games_game WHERE status = 'running' AND deadline_at <= %s "
    "ORDER BY deadline_at LIMIT 200"
)
NEW_DUE = (
    "SELECT id, last_seq FROM games_game WHERE slow_deadline_at <= %s ORDER BY slow_deadline_at LIMIT 200"
)


@dataclass(frozen=True)
class SlowConfig:
    database_url: str
    games: int = 100_000
    live: int = 600
    due: int | None = None  # real games due in the window (default: the filler's rate)
    window: int = 600  # seconds of moved clock measured
    period: int = 5  # the beat's sweep period
    hot_moves: int = 200  # live moves whose game row updates are counted (HOT or not)
    seed: int = 1


def _fill(cfg: SlowConfig, start: Any) -> None:
    """The slow games not due in the window, and the live ones (slow_rows_fill)."""
    slow_rows_fill(cfg.games, cfg.live, start + timedelta(seconds=cfg.window + 60))


def slow_rows_fill(games: int, live: int, begin: Any, tag: str = "") -> list[int]:
    """`games` slow games whose deadlines lie over the 3 days from `begin`, and `live` live ones,
    as rows (one SQL statement each): no log (seq 0, which the sweep's log check finds in order);
    the slow games' people gone from their pages an hour ago, the live games' never counted (as
    pages open on them), each awaiting a 10-second discard (nothing your_turn_sweep tells). The
    tables made (their games and seats go with them: slow_rows_drop). Their people's names do not
    start with "bench": the live benches end every running game of a "bench" host before a run."""
    from django.contrib.auth import get_user_model
    from django.db import connection

    from games.models import Pace, Table

    User = get_user_model()
    host = User.objects.get_or_create(username=f"slowfill-host{tag}")[0]
    people = [User.objects.get_or_create(username=f"slowfill-{tag}{i}")[0] for i in range(4)]
    slow = Table.objects.create(host=host, seats=4, pace=Pace.SLOW, turn_timer=3600, reaction_timer=3600,
                                discard_timer=3600, status="playing")  # fmt: skip
    live_table = Table.objects.create(host=host, seats=4, status="playing")
    with connection.cursor() as cur:
        for table, n, slow_game, spread, first in (
            (slow.pk, games, True, THREE_DAYS, 1),
            (live_table.pk, live, False, 3600, 1),
        ):
            cur.execute(
                "INSERT INTO games_game (table_id, number, players, shuffler, status, result, last_seq, "
                "awaiting_seat, awaiting_kind, deadline_at, slow, slow_deadline_at, slow_tell, replay_key, "
                "replay_hidden, created_at) "
                "SELECT %s, i, 4, 0, 'running', '', 0, i %% 4, "
                "CASE WHEN %s THEN 'turn' ELSE 'discard' END, d, %s, CASE WHEN %s THEN d END, false, "
                "md5(%s || ':' || i::text), false, now() "
                "FROM (SELECT i, %s + (random() * %s) * interval '1 second' AS d "
                "FROM generate_series(%s, %s) AS i) AS g",
                [table, slow_game, slow_game, slow_game, str(table), begin, spread, first, first + n - 1],
            )
        cur.execute(
            "INSERT INTO games_gameseat (game_id, seat, user_id, is_bot, bot_playing, bot_level, "
            "missed_deadlines, auto_answer, connections, disconnected_at) "
            "SELECT g.id, s, (%s)[s + 1], false, false, 'normal', 0, false, 0, "
            "CASE WHEN g.slow THEN now() - interval '1 hour' END "
            "FROM games_game g CROSS JOIN generate_series(0, 3) AS s WHERE g.table_id IN (%s, %s)",
            [[p.pk for p in people], slow.pk, live_table.pk],
        )
    return [slow.pk, live_table.pk]


def slow_rows_drop(tables: list[int]) -> None:
    """The rows `slow_rows_fill` made, gone (their games have no log), and the tables vacuumed."""
    from django.db import connection

    with connection.cursor() as cur:
        cur.execute(
            "DELETE FROM games_gameseat WHERE game_id IN "
            "(SELECT id FROM games_game WHERE table_id = ANY(%s))",
            [tables],
        )
        cur.execute("DELETE FROM games_game WHERE table_id = ANY(%s)", [tables])
        cur.execute("DELETE FROM games_table WHERE id = ANY(%s)", [tables])
        cur.execute("VACUUM (ANALYZE) games_game")
        cur.execute("VACUUM (ANALYZE) games_gameseat")


def _due_count(cfg: SlowConfig) -> int:
    """As many as fall due in the window when `games` deadlines are spread over 3 days (about 2
    a sweep at 100,000), unless `due` says."""
    return cfg.due if cfg.due is not None else max(1, round(cfg.games * cfg.window / THREE_DAYS))


def _due_games(cfg: SlowConfig) -> list[Any]:
    """The real slow games, started through the table services (1 hour a decision)."""
    return slow_games_start(_due_count(cfg))


def slow_games_start(count: int, tag: str = "") -> list[Any]:
    """`count` real slow games, made and started through the table services (1 hour a decision)."""
    from django.contrib.auth import get_user_model

    from games.services.tables import TableSettings, table_create, table_join, table_start

    User = get_user_model()
    games = []
    for k in range(count):
        users = User.objects.bulk_create([User(username=f"slowdue-{tag}{k}-{s}") for s in range(4)])
        settings = TableSettings(seats=4, pace="slow", decision_seconds=3600)
        table = table_create(host=users[0], settings=settings)
        for u in users[1:]:
            table_join(table=table, user=u, invite_code=table.invite_code)
        games.append(table_start(table=table, user=users[0]))
    return games


def _due_in_window(games: list[Any], start: Any, cfg: SlowConfig, rng: random.Random) -> dict[int, Any]:
    """The real games' deadlines moved into the window from `start`: {game: (deadline, seq)}."""
    from games.models import Game

    due = {}
    for game in games:
        deadline = start + timedelta(seconds=rng.uniform(1, cfg.window - 2 * cfg.period))
        moved = {"deadline_at": deadline, "slow_deadline_at": deadline, "slow_tell": False}
        Game.objects.filter(pk=game.pk).update(**moved)
        due[game.pk] = (deadline, game.last_seq)
    return due


def _explain_ms(sql: str, at: Any) -> float:
    from django.db import connection

    with connection.cursor() as cur:
        cur.execute("EXPLAIN (ANALYZE, FORMAT JSON) " + sql, [at])
        plan = cur.fetchone()[0]
    plan = plan[0] if isinstance(plan, list) else plan
    return float(plan["Execution Time"])


def _hot_share(moves: int, rng: random.Random) -> tuple[int, int]:
    """(game row updates, of which HOT) over `moves` moves of a new live game, from PostgreSQL's
    own counters (pg_stat_user_tables, flushed by pg_stat_force_next_flush)."""
    from django.contrib.auth import get_user_model
    from django.db import connection

    from bench.stored_games import play_out, start_table

    def counts() -> tuple[int, int]:
        with connection.cursor() as cur:
            cur.execute("SELECT pg_stat_force_next_flush()")
            cur.execute("SELECT pg_stat_clear_snapshot()")
            cur.execute(
                "SELECT n_tup_upd, n_tup_hot_upd FROM pg_stat_user_tables WHERE relname = 'games_game'"
            )
            upd, hot = cur.fetchone()
        return int(upd), int(hot)

    User = get_user_model()
    tag = rng.randrange(10**9)
    people = User.objects.bulk_create([User(username=f"bench-hot-{tag}-{s}") for s in range(4)])
    game = start_table(people, rated=False)
    before = counts()
    play_out(game, rng, moves=moves)
    time.sleep(0.6)
    after = counts()
    return after[0] - before[0], after[1] - before[1]


def run_slow_bench(cfg: SlowConfig, say: Callable[[str], None]) -> dict[str, Any]:
    from django.core.management import call_command
    from django.db import connection

    from games.models import Game
    from games.partitions import event_log_partitions_ensure
    from games.services.sweep import sweep_run
    from games.services.turns import decisions_tell, your_turn_sweep
    from games.tasks import slow_deadline
    from plumbing import clock

    rng = random.Random(cfg.seed)
    call_command("migrate", verbosity=0)
    say(f"filling {cfg.games} slow games and {cfg.live} live ones...")
    t0 = time.perf_counter()
    # The filler's deadlines lie after the window (plus a margin for the setup's own time).
    _fill(cfg, clock.now() + timedelta(minutes=10))
    event_log_partitions_ensure()  # the real games made next have ids past the filler's
    say(f"  {time.perf_counter() - t0:.1f} s; starting {_due_count(cfg)} real slow games due in the window")
    games = _due_games(cfg)
    with connection.cursor() as cur:
        cur.execute("VACUUM (ANALYZE) games_game")
        cur.execute("ANALYZE games_gameseat")
    # Why a column of its own: live moves' HOT updates, as they are and with an index on
    # `deadline_at` limited to slow games (what the column spares them), in one run.
    hot_now = _hot_share(cfg.hot_moves, rng) if cfg.hot_moves else (0, 0)
    with connection.cursor() as cur:
        cur.execute("CREATE INDEX bench_deadline_slow ON games_game (deadline_at) WHERE slow")
    hot_indexed = _hot_share(cfg.hot_moves, rng) if cfg.hot_moves else (0, 0)
    with connection.cursor() as cur:
        cur.execute("DROP INDEX bench_deadline_slow")
    # The window starts once everything is made: a deadline is late by the sweep's doing only.
    pending = _due_in_window(games, clock.now(), cfg, rng)
    db_ms: list[float] = []
    statements: list[int] = []
    late_s: list[float] = []
    idle_ms: list[float] = []  # runs that applied no deadline
    busy_ms: list[float] = []  # runs that applied one or more
    per_applied_ms: list[float] = []
    old_ms: list[float] = []
    new_ms: list[float] = []
    timing: list[float] = []
    texts: list[str] = []
    by_statement: dict[str, float] = {}  # the first words of each statement: its summed time
    busy_statements: dict[str, list[float]] = {}  # in runs that applied deadlines: [time, count]
    idle_statements: dict[str, list[float]] = {}  # in runs that applied none

    def timed(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        t = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            took = time.perf_counter() - t
            timing.append(took)
            texts.append(sql[:90])
            key = sql[:150]
            by_statement[key] = by_statement.get(key, 0.0) + took

    sweep_ms: list[float] = []  # sweep_run alone
    worst: list[tuple[float, str]] = []  # the costliest run's costliest statements
    task_ms: list[float] = []  # each slow deadline task
    handed = 0
    slow_deadlines_sent()  # what the setup sent (bots' wake-ups, notices' pushes): not the bench's
    for _ in range(cfg.window // cfg.period + 2):
        clock.shift(timedelta(seconds=cfg.period))
        timing.clear()
        texts.clear()
        with connection.execute_wrapper(timed):
            report = sweep_run()
            sweep_ms.append(sum(timing) * 1000)
            # The beat's other 5-second task, your_turn_notify: live and slow decisions told.
            your_turn_sweep()
            decisions_tell()
        db_ms.append(sum(timing) * 1000)
        statements.append(len(timing))
        run_texts, run_timing = list(texts), list(timing)
        if db_ms[-1] >= max(db_ms):
            worst = sorted(zip(run_timing, run_texts, strict=True), reverse=True)[:5]
        if report.failed or report.unread:
            say(f"  sweep: {report.line()}")
        applied = 0
        for args in slow_deadlines_sent():  # as the worker runs them, one after another
            handed += 1
            timing.clear()
            with connection.execute_wrapper(timed):
                slow_deadline(*args)
            task_ms.append(sum(timing) * 1000)
            gid = args[0]
            if (
                gid in pending
                and Game.objects.filter(pk=gid).values_list("last_seq", flat=True)[0] != pending[gid][1]
            ):
                late_s.append((clock.now() - pending.pop(gid)[0]).total_seconds())
                applied += 1
        (busy_ms if applied else idle_ms).append(db_ms[-1])
        if applied:
            per_applied_ms.append(db_ms[-1] / applied)
        target = busy_statements if applied else idle_statements
        for text, took in zip(run_texts, run_timing, strict=True):
            cell = target.setdefault(text, [0.0, 0])
            cell[0] += took * 1000
            cell[1] += 1
        now = clock.now()
        old_ms.append(_explain_ms(OLD_DUE, now))
        new_ms.append(_explain_ms(NEW_DUE, now))
    return {
        "cfg": cfg,
        "due": _due_count(cfg),
        "db_ms": db_ms,
        "statements": statements,
        "late_s": late_s,
        "missed": len(pending),
        "idle_ms": idle_ms,
        "busy_ms": busy_ms,
        "per_applied_ms": per_applied_ms,
        "old_ms": old_ms,
        "new_ms": new_ms,
        "hot_now": hot_now,
        "hot_indexed": hot_indexed,
        "per_deadline": sorted(busy_statements.items(), key=lambda kv: -kv[1][0])[:6],
        "per_idle_run": sorted(idle_statements.items(), key=lambda kv: -kv[1][0])[:8],
        "busy_runs": len(busy_ms),
        "sweep_ms": sweep_ms,
        "worst": worst,
        "task_ms": task_ms,
        "handed": handed,
        "load": os.getloadavg()[0],
        "costliest": sorted(by_statement.items(), key=lambda kv: -kv[1])[:4],
        "runs": len(db_ms),
    }


def format_report(f: dict[str, Any]) -> list[str]:
    cfg, db, late = f["cfg"], f["db_ms"], f["late_s"]
    p = percentile
    lines = [
        f"slow deadlines: {cfg.games} slow games spread over 3 days, {cfg.live} live games, "
        f"{f['due']} real slow games due within {cfg.window} s of moved clock, a sweep every {cfg.period} s",
        f"sweep run, database time (ms): p50 {p(db, 50):.2f}  p99 {p(db, 99):.2f}  max {max(db):.2f}  "
        f"(goal <= {GOAL_SWEEP_MS:.0f}); statements per run p50 {p(f['statements'], 50):.0f} "
        f"max {max(f['statements'])} (the beat's 5-second work: sweep_run, your_turn_sweep, decisions_tell)",
        f"  sweep_run alone (ms): p50 {p(f['sweep_ms'], 50):.2f}  p99 {p(f['sweep_ms'], 99):.2f}  "
        f"max {max(f['sweep_ms']):.2f}",
        f"  slow_deadline tasks ({f['handed']} handed over), database time each (ms): "
        f"p50 {p(f['task_ms'], 50):.2f}  p99 {p(f['task_ms'], 99):.2f}  "
        f"max {max(f['task_ms'], default=0):.2f}",
        f"lateness of due deadlines (s): p50 {p(late, 50):.2f}  p99 {p(late, 99):.2f}  max {max(late):.2f}  "
        f"(goal p99 <= {GOAL_LATE_P99_S:.0f}); applied {len(late)}, not applied {f['missed']}",
        f"  runs applying none: p50 {p(f['idle_ms'], 50):.2f} max {max(f['idle_ms'], default=0):.2f}; "
        f"runs applying some ({len(f['busy_ms'])}): p50 {p(f['busy_ms'], 50):.2f} "
        f"max {max(f['busy_ms'], default=0):.2f}; per deadline applied p50 {p(f['per_applied_ms'], 50):.2f}",
        "due work list, EXPLAIN ANALYZE (ms): old (running games by deadline_at) "
        f"p50 {p(f['old_ms'], 50):.2f}  "
        f"new (game_slow_due) p50 {p(f['new_ms'], 50):.2f}",
        f"live moves' game row updates that were HOT: {_share(f['hot_now'])} as built (slow_deadline_at "
        f"indexed), {_share(f['hot_indexed'])} with an index on deadline_at WHERE slow instead",
        f"load average (1 min) at the end: {f['load']:.1f}",
        "costliest statements in runs that applied deadlines, ms and statements per run:",
        *(
            f"  {t / max(1, f['busy_runs']):.2f} ms  {n / max(1, f['busy_runs']):.1f}x  {sql}"
            for sql, (t, n) in f["per_deadline"]
        ),
        "costliest statements in runs that applied none, ms and statements per run:",
        *(
            f"  {t / max(1, len(f['idle_ms'])):.2f} ms  {n / max(1, len(f['idle_ms'])):.1f}x  {sql}"
            for sql, (t, n) in f["per_idle_run"]
        ),
        "the costliest run's costliest statements, ms:",
        *(f"  {t * 1000:.2f}  {sql}" for t, sql in f["worst"]),
        "costliest statements, ms per sweep run:",
        *(f"  {t * 1000 / f['runs']:.2f}  {sql[:110]}" for sql, t in f["costliest"]),
    ]
    return lines


def slow_deadlines_sent() -> list[list[Any]]:
    """The args of the slow_deadline tasks sent since the last call, read off the broker's queue
    (the other tasks read with them are dropped: no worker of this bench runs them)."""
    from games.followups import SLOW_DEADLINE_TASK

    return [t.args for t in tasks_sent() if t.task == SLOW_DEADLINE_TASK]


def _share(counts: tuple[int, int]) -> str:
    updates, hot = counts
    return f"{hot}/{updates} ({100 * hot / updates:.0f}%)" if updates else "no updates counted"


def drop_database(url: str) -> None:
    """The bench's database dropped (it is made afresh, then migrated)."""
    import psycopg

    from bench.kit.stack import check_loopback

    check_loopback(url)
    name = url.rsplit("/", 1)[1]
    admin = url.rsplit("/", 1)[0].replace("postgres://", "postgresql://", 1) + "/postgres"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
