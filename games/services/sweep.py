"""The beat's sweep: every periodic piece of work, one game at a time.

Each piece runs in its own transaction (the services it calls open one) and under its own error
handling: a game whose work raises is counted (games/services/faults.py) and the sweep goes on
with the other games and the other kinds of work. A work list that cannot even be read is
logged and the other lists still run.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db import InterfaceError, OperationalError, transaction

from .. import followups
from .autoplay import (
    due_deadlines,
    game_bot_move,
    game_deadline_expire,
    game_slow_wake,
    overdue_bot_moves,
    slow_due_claim,
)
from .faults import (
    game_fault_clear,
    game_fault_record,
    game_log_mismatch,
    games_failing,
    games_with_log_mismatch,
)
from .presence import presence_stale_seats, seat_mark_away, seat_presence_reset, seats_gone_away

log = logging.getLogger(__name__)


@dataclass
class SweepReport:
    done: Counter[str] = field(default_factory=Counter)  # pieces of work that ran, by stage
    failed: Counter[str] = field(default_factory=Counter)
    set_aside: list[int] = field(default_factory=list)  # games set aside by this sweep
    unread: list[str] = field(default_factory=list)  # stages whose work list failed to load
    failing: set[int] = field(default_factory=set)  # games with failures counted, not set aside

    def line(self) -> str:
        return (
            f"done {dict(self.done)} failed {dict(self.failed)} set aside {self.set_aside} "
            f"unread {self.unread}"
        )


def _work_list(report: SweepReport, stage: str, read: Callable[[], Iterable[Any]]) -> list[Any]:
    try:
        return list(read())
    except Exception:
        log.exception("the sweep could not read its %s work list", stage)
        report.unread.append(stage)
        return []


def _count_failure(
    report: SweepReport, stage: str, game_id: int, error: BaseException | str, set_aside: bool = False
) -> None:
    """Record the game's failure (GameFault); recording it may fail too, and stops nothing."""
    report.failed[stage] += 1
    try:
        if game_fault_record(game_id=game_id, stage=stage, error=error, set_aside=set_aside):
            report.set_aside.append(game_id)
    except Exception:
        log.exception("could not record the failure of game %s", game_id)


def _one_game(report: SweepReport, stage: str, game_id: int, work: Callable[[], object]) -> None:
    try:
        work()
    except (OperationalError, InterfaceError):
        # The database itself (a lost connection, a deadlock, a timeout), not this game: not
        # counted against it, or a database restart would set every game aside.
        log.exception("the sweep's %s work in game %s met a database error", stage, game_id)
        report.failed[stage] += 1
        return
    except Exception as e:
        log.exception("the sweep's %s work failed in game %s", stage, game_id)
        _count_failure(report, stage, game_id, e)
        return
    report.done[stage] += 1
    if game_id in report.failing:
        report.failing.discard(game_id)
        game_fault_clear(game_id=game_id)


def _slow_hand_over(report: SweepReport, game_id: int, seq: int, due: datetime) -> None:
    try:
        followups.followups_slow_deadline(game_id, seq, due)
    except Exception:
        # Still claimed: a later sweep hands it over again (autoplay.py, SLOW_CLAIM_SECONDS).
        log.exception("could not hand game %s's slow deadline to its task", game_id)
        report.failed["slow_handed"] += 1
        return
    report.done["slow_handed"] += 1


def slow_game_run(game_id: int, seq: int) -> SweepReport:
    """One slow game's due deadline (or its bot's lost move), as a sweep handed it over at `seq`:
    the game's log checked first, then `game_slow_wake`, under the sweep's error handling."""
    report = SweepReport()
    mismatch = game_log_mismatch(game_id)
    if mismatch is not None:
        row_seq, log_seq = mismatch
        log.error("game %s: its row says seq %s, its log ends at %s", game_id, row_seq, log_seq)
        error = f"the game's row says seq {row_seq}, its log ends at {log_seq}"
        _count_failure(report, "log", game_id, error, set_aside=True)
        return report
    report.failing = set(games_failing().filter(game_id=game_id))
    _one_game(report, "slow", game_id, lambda: game_slow_wake(game_id=game_id, guard_seq=seq))
    return report


def sweep_run() -> SweepReport:
    """One sweep: damaged logs set aside, due timeouts applied, lost bot moves made, presence
    counts set right and seats gone too long handed to bots, each game on its own."""
    report = SweepReport()
    report.failing = set(_work_list(report, "faults", games_failing))
    for game_id, row_seq, log_seq in _work_list(report, "log", games_with_log_mismatch):
        error = f"the game's row says seq {row_seq}, its log ends at seq {log_seq}"
        log.error("game %s: %s", game_id, error)
        _count_failure(report, "log", game_id, error, set_aside=True)
    for game_id, seq in _work_list(report, "deadline", due_deadlines):
        _one_game(
            report, "deadline", game_id, lambda g=game_id, s=seq: game_deadline_expire(game_id=g, guard_seq=s)
        )
    # Slow games' deadlines: the due ones claimed by one statement, each handed to its own task
    # (slow_game_run), so that this run's cost is that read, not the moves it leads to.
    for game_id, seq, due in _work_list(report, "slow_handed", slow_due_claim):
        transaction.on_commit(lambda g=game_id, s=seq, d=due: _slow_hand_over(report, g, s, d))
    for game_id, seq in _work_list(report, "bot", overdue_bot_moves):  # wake-ups lost with a worker
        _one_game(report, "bot", game_id, lambda g=game_id, s=seq: game_bot_move(game_id=g, guard_seq=s))
    for game_id, seat, last in _work_list(report, "presence", presence_stale_seats):  # sockets ended unseen
        _one_game(
            report,
            "presence",
            game_id,
            lambda g=game_id, s=seat, t=last: seat_presence_reset(game_id=g, seat=s, last_seen=t),
        )
    for game_id, seat in _work_list(report, "away", seats_gone_away):
        _one_game(report, "away", game_id, lambda g=game_id, s=seat: seat_mark_away(game_id=g, seat=s))
    return report
