"""`bench_live --mix browser --slow-games N`: the live games' moves beside N slow games against a
database with none, in one run.

Phases alternate on the bench's one database: none, then N slow games' rows filled in
(`slow_rows_fill`: their deadlines spread over the 3 days after the phase), then gone again
(`slow_rows_drop`), `rounds` times. Each phase with slow games also has real slow games (started
through the table services) whose deadlines fall while it runs, at the rate of N over 3 days, so
the beat's sweep applies them as the live games play (through the worker, as in production);
their lateness, from the deadline to the autopilot's event, is printed for those due while the
stack ran: after the games were set up and the stack had 20 s to start, and 30 s or more before
the phase ended (before the stack runs no beat sweeps, and a deadline then waits for it).
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from dataclasses import replace
from datetime import timedelta
from typing import Any

from bench.browser import BrowserConfig, BrowserResult, format_comparison, run_browser_bench
from bench.kit.stack import end_bench_games, migrate
from bench.kit.stats import percentile
from bench.slow_deadlines import THREE_DAYS, slow_games_start, slow_rows_drop, slow_rows_fill

# Seconds over which the real slow games' deadlines are spread from the fill's end: the phase's
# setup (games made, servers started, pages opened), warm-up and measured window, about.
DUE_SPAN = 240.0


def run_slow_compare(cfg: BrowserConfig, slow_games: int, rounds: int, write: Callable[[str], None]) -> None:
    from django.utils import timezone

    from games.models import Game

    results: list[BrowserResult] = []
    late: list[float] = []
    missed = 0
    if cfg.migrate:  # the tables the phases fill, vacuum and drop exist before the first phase
        write(f"migrating {cfg.database_url} ...")
        migrate(cfg.database_url)
    for r in range(1, rounds + 1):
        for with_slow in (False, True):
            label = f"{slow_games} slow games" if with_slow else "no slow games"
            tables: list[int] = []
            due: dict[int, tuple[Any, int]] = {}
            if with_slow:
                write(f"filling {slow_games} slow games ...")
                t0 = time.perf_counter()
                tag = f"{secrets.token_hex(3)}-"
                tables = slow_rows_fill(slow_games, 0, timezone.now() + timedelta(hours=1), tag=tag)
                count = max(1, round(slow_games * DUE_SPAN / THREE_DAYS))
                games = slow_games_start(count, tag=tag)
                start = timezone.now()
                for k, game in enumerate(games):
                    at = start + timedelta(seconds=DUE_SPAN * (k + 0.5) / count)
                    Game.objects.filter(pk=game.pk).update(
                        deadline_at=at, slow_deadline_at=at, slow_tell=False
                    )
                    due[game.pk] = (at, game.last_seq)
                write(f"  {time.perf_counter() - t0:.1f} s; {count} real slow games due over {DUE_SPAN:g} s")
            _settle()
            write("")
            write(f"=== round {r} of {rounds}: {label} ===")
            run_cfg = replace(
                cfg,
                migrate=False,
                code_label=label,
                log_dir=cfg.log_dir / f"round{r}-{'slow' if with_slow else 'none'}",
            )
            results.append(run_browser_bench(run_cfg, write))
            if with_slow:
                ended = timezone.now()
                stack_up = start + timedelta(seconds=results[-1].setup_s + 20)
                phase_late, phase_missed = _lateness(due, stack_up, ended)
                late += phase_late
                missed += phase_missed
                write(
                    f"slow deadlines due while it ran: {len(phase_late)} applied, lateness (s) "
                    f"p50 {percentile(phase_late, 50):.2f}  p99 {percentile(phase_late, 99):.2f}  "
                    f"max {max(phase_late, default=float('nan')):.2f}; {phase_missed} due while the "
                    "stack ran not applied"
                )
                end_bench_games(list(due))
                slow_rows_drop(tables)
    write("")
    for line in format_comparison(
        results, new=lambda r: r.config.code_label != "no slow games", sides=("none", "slow")
    ):
        write(line)
    write(
        f"slow deadlines over all phases with slow games: {len(late)} applied, lateness (s) "
        f"p50 {percentile(late, 50):.2f}  p99 {percentile(late, 99):.2f}  "
        f"max {max(late, default=float('nan')):.2f}; {missed} not applied"
    )


def _settle() -> None:
    """Both sides start alike: the games' tables vacuumed and analysed, and a checkpoint, so that
    neither autovacuum nor the checkpointer works off a fill (or a drop) during a phase."""
    from django.db import connection

    with connection.cursor() as cur:
        cur.execute("VACUUM (ANALYZE) games_game")
        cur.execute("VACUUM (ANALYZE) games_gameseat")
        cur.execute("CHECKPOINT")


def _lateness(due: dict[int, tuple[Any, int]], stack_up: Any, ended: Any) -> tuple[list[float], int]:
    """Each due game's lateness, from its deadline to its next event (the autopilot's), for the
    games due after `stack_up` and 30 s or more before `ended`; and how many of those have none."""
    from games.models import GameEvent

    late, missed = [], 0
    for game_id, (deadline, seq) in due.items():
        if deadline < stack_up or deadline > ended - timedelta(seconds=30):
            continue
        event = GameEvent.objects.filter(game_id=game_id, seq=seq + 1).values_list("created_at", flat=True)
        if not event:
            missed += 1
            continue
        late.append((event[0] - deadline).total_seconds())
    return late, missed
