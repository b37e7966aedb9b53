"""Games whose periodic work fails: counted, and set aside once they keep failing.

The beat's sweep does each game's work on its own (games/services/sweep.py); a failure is
recorded here, in a transaction of its own, and the sweep goes on with the next game. A game
that fails SET_ASIDE_AFTER sweeps in a row, or whose log does not end where its row says (it can
never succeed), is set aside: the sweep's work lists pass it over, and moderators find it on
their reports page (moderation/), where aborting it ends it.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.db import transaction
from django.db.models import Exists, F, OuterRef, Q, QuerySet, Subquery, Value
from django.db.models.functions import Coalesce
from django.utils import timezone

from ..models import Game, GameEvent, GameFault, GameStatus

log = logging.getLogger(__name__)
SET_ASIDE_AFTER = 3  # failures in a row
# A failure this long after the one before it starts a new count: a game that failed once an
# hour ago and again now is not failing "in a row".
IN_A_ROW_WITHIN = timedelta(minutes=5)
ERROR_CHARS = 1000


def game_fault_record(
    *, game_id: int, stage: str, error: BaseException | str, set_aside: bool = False
) -> bool:
    """Count a failure of `stage`'s work on the game; returns whether the game is set aside now."""
    now = timezone.now()
    text = error if isinstance(error, str) else f"{type(error).__name__}: {error}"
    with transaction.atomic():
        if not Game.objects.filter(pk=game_id).exists():
            return False
        GameFault.objects.bulk_create(
            [GameFault(game_id=game_id, stage=stage, error="", first_failed_at=now, last_failed_at=now)],
            ignore_conflicts=True,
        )
        fault = GameFault.objects.select_for_update().get(game_id=game_id)
        if fault.set_aside_at is None and fault.last_failed_at < now - IN_A_ROW_WITHIN:
            fault.failures, fault.first_failed_at = 0, now
        fault.failures += 1
        fault.stage, fault.error, fault.last_failed_at = stage, text[:ERROR_CHARS], now
        newly = fault.set_aside_at is None and (set_aside or fault.failures >= SET_ASIDE_AFTER)
        if newly:
            fault.set_aside_at = now
        fault.save()
    if newly:
        log.error("game %s set aside after %s failed sweeps (%s): %s", game_id, fault.failures, stage, text)
    return fault.set_aside_at is not None


def game_fault_clear(*, game_id: int) -> None:
    """The game's work succeeded: failures before it were not in a row. A set-aside game stays so."""
    GameFault.objects.filter(game_id=game_id, set_aside_at__isnull=True).delete()


def games_failing() -> QuerySet[GameFault, int]:
    """Games with failures counted that are not set aside (a success clears their count)."""
    return GameFault.objects.filter(set_aside_at=None).values_list("game_id", flat=True)


def games_with_log_mismatch(limit: int = 200) -> list[tuple[int, int, int]]:
    """(game, row's last seq, log's last seq) of running games not yet set aside whose log does
    not end where their row says: a row written past it, or one missing."""
    log_end = Subquery(GameEvent.objects.filter(game=OuterRef("pk")).order_by("-seq").values("seq")[:1])
    return list(
        running_not_set_aside()
        # Live games only: a slow game's log is checked when the sweep wakes it (sweep.py), so
        # the cost of this list stays the live games', however many slow games wait for days.
        .filter(slow=False)
        .annotate(log_end=Coalesce(log_end, Value(0)))
        .exclude(log_end=F("last_seq"))
        .values_list("pk", "last_seq", "log_end")[:limit]
    )


def game_log_mismatch(game_id: int) -> tuple[int, int] | None:
    """(row's last seq, log's last seq) if the game's log does not end where its row says, else
    None. Both read by one statement, so one snapshot: a move writes its events and its row in
    one statement too (games/sql.py, write_move), and a move committing meanwhile is no mismatch."""
    log_end = Subquery(GameEvent.objects.filter(game=OuterRef("pk")).order_by("-seq").values("seq")[:1])
    row = (
        Game.objects.filter(pk=game_id)
        .annotate(log_end=Coalesce(log_end, Value(0)))
        .values_list("last_seq", "log_end")
        .first()
    )
    if row is None or row[0] == row[1]:
        return None
    return row[0], row[1]


def set_aside(game: str = "pk") -> Exists:
    """Whether the game at `game` (an outer reference) is set aside: the sweep's lists exclude it."""
    return Exists(GameFault.objects.filter(game=OuterRef(game), set_aside_at__isnull=False))


def running_not_set_aside() -> QuerySet[Game]:
    return Game.objects.filter(status=GameStatus.RUNNING).exclude(set_aside())


def games_set_aside() -> QuerySet[GameFault]:
    """Set-aside games that are still running: what moderators must look at."""
    return GameFault.objects.filter(~Q(set_aside_at=None), game__status=GameStatus.RUNNING).select_related(
        "game"
    )
