"""Telling a person their decision is awaited in a game whose page they do not have open.

A sweep (the beat's, every few seconds: harehra_site/settings.py CELERY_BEAT_SCHEDULE), not the
move: the move path stays as it was, and a page closed while its decision waits is seen as well
as a decision opened with no page. The presence is the one the game's sockets keep
(`GameSeat.connections`, games/services/presence.py): no socket of the person on the game, for a
few seconds (a page reloading is not away). Only a decision whose window is long enough for it
to matter (YOUR_TURN_MIN_SECONDS), with time left to act, and once per decision (its deadline
names it: each decision gets its own). The notification names the game, the table and the
deadline, nothing a seat hides."""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from harehra.state import Decision
from notifications.models import Kind, Notification
from notifications.services import NOTICES_A_TRANSACTION, notification_send
from plumbing import clock

from ..models import Game, GameSeat, GameStatus, misses_before_away
from .faults import set_aside

log = logging.getLogger(__name__)

# A decision with less than this left is not worth telling about.
YOUR_TURN_LEAST_LEFT = timedelta(seconds=10)
# A seat without a socket this long is not just reloading its page.
YOUR_TURN_GONE_FOR = timedelta(seconds=3)


def _window(kind: str, turn: int, discard: int, reaction: int, answers_itself: bool) -> float:
    """The decision's whole window, as moves.py stamped it (its `_timer_for` and the short window
    of "answer for me" or a standing answer: a seat answered by its standing answer is not woken)."""
    if kind == Decision.TURN:
        return turn
    if kind == Decision.DISCARD:
        return discard
    if answers_itself:
        return min(reaction, settings.AUTO_ANSWER_SECONDS)
    return reaction


def _standing(kind: str, volley: str, skip: str) -> bool:
    """Whether the seat has a standing answer for a reaction of `kind` (GameSeat.answers_at_once)."""
    return (volley if kind == Decision.VOLLEY else skip if kind == Decision.SKIP else "ask") != "ask"


def your_turn_sweep() -> int:
    """Notify every person whose decision waits with no page of theirs open on its game; how
    many were notified (a decision already told about is not told again)."""
    now = timezone.now()
    # The live games awaiting a decision with time left, by their partial index
    # (game_running_live), then those decisions' seats by the (game, seat) index. One statement
    # joining the two reads every game whose deadline lies ahead instead: the slow games', by far
    # the most beside 100,000 slow games (bench_slow_deadlines). Slow games' decisions are told
    # by decisions_tell.
    # Only decisions whose window can reach YOUR_TURN_MIN_SECONDS (a reaction's is at most the
    # table's reaction time, `_window`): at a table with the default timers, turns alone, so the
    # reactions and discards awaited at any moment are not read every sweep.
    least = settings.YOUR_TURN_MIN_SECONDS
    long_enough = (
        Q(awaiting_kind=Decision.TURN, table__turn_timer__gte=least)
        | Q(awaiting_kind=Decision.DISCARD, table__discard_timer__gte=least)
        | (~Q(awaiting_kind__in=(Decision.TURN, Decision.DISCARD)) & Q(table__reaction_timer__gte=least))
    )
    awaited = {
        (game_id, seat): rest
        for game_id, seat, *rest in Game.objects.filter(
            status=GameStatus.RUNNING,
            slow=False,
            awaiting_seat__isnull=False,
            deadline_at__gt=now + YOUR_TURN_LEAST_LEFT,
        )
        .filter(long_enough)
        .exclude(set_aside())
        .values_list(
            "pk",
            "awaiting_seat",
            "table_id",
            "awaiting_kind",
            "deadline_at",
            "table__turn_timer",
            "table__discard_timer",
            "table__reaction_timer",
        )
    }
    if not awaited:
        return 0
    seats = (
        GameSeat.objects.filter(
            game_id__in={g for g, _ in awaited},
            user__isnull=False,
            is_bot=False,
            bot_playing=False,
            connections=0,
        )
        .filter(Q(disconnected_at__isnull=True) | Q(disconnected_at__lte=now - YOUR_TURN_GONE_FOR))
        .values_list("game_id", "seat", "user_id", "auto_answer", "standing_volley", "standing_skip")
    )
    rows = [
        (game_id, user_id, auto, volley, skip, *awaited[(game_id, seat)])
        for game_id, seat, user_id, auto, volley, skip in seats
        if (game_id, seat) in awaited
    ]
    due = [
        (f"turn:{game_id}:{int(deadline.timestamp() * 1000)}", user_id, game_id, table_id, deadline)
        for game_id, user_id, auto, volley, skip, table_id, kind, deadline, turn, discard, reaction in rows
        if _window(kind, turn, discard, reaction, auto or _standing(kind, volley, skip))
        >= settings.YOUR_TURN_MIN_SECONDS
    ]
    if not due:
        return 0
    # Decisions told about already, in one read: a seat stays away for many sweeps.
    done = set(
        Notification.objects.filter(
            user_id__in={d[1] for d in due}, once__in={d[0] for d in due}
        ).values_list("user_id", "once")
    )
    due = [d for d in due if (d[1], d[0]) not in done]

    def tell(decision: tuple[str, int, int, int, datetime]) -> bool:
        once, user_id, game_id, table_id, deadline = decision
        data = {"game": game_id, "table": table_id, "deadline": deadline.isoformat()}
        return notification_send(user_id=user_id, kind=Kind.YOUR_TURN, data=data, once=once) is not None

    return _tell_in_chunks(due, tell)


def _tell_in_chunks(decisions: list[Any], tell: Callable[[Any], bool]) -> int:
    """Each decision told in a savepoint of its own (one's failure stops no other's notice),
    NOTICES_A_TRANSACTION to a transaction (their pushes go to the worker as one task); how many
    were told (`tell` says whether it sent a notice)."""
    told = 0
    for first in range(0, len(decisions), NOTICES_A_TRANSACTION):
        with transaction.atomic():
            for decision in decisions[first : first + NOTICES_A_TRANSACTION]:
                try:
                    with transaction.atomic():
                        told += tell(decision)
                except Exception:
                    log.exception("could not tell of the decision %s", decision)
    return told


# --- slow tables ---------------------------------------------------------------------------------


def _once(game_id: int, deadline: datetime) -> str:
    """The occasion a decision's notice names: its game and deadline (each decision has its own),
    the same for both sweeps, so a decision is never told twice."""
    return f"turn:{game_id}:{int(deadline.timestamp() * 1000)}"


def decisions_untold(limit: int = 500) -> list[tuple[int, int, int | None, bool, int, int, datetime | None]]:
    """Slow games' decisions whose person is still to be told (`Game.slow_tell`, read from its
    partial index `game_slow_tell`: the cost is the untold decisions', not the slow games'), with
    the awaited seat's row: (game, seq, user, plays itself, connections, table, deadline)."""
    rows = (
        GameSeat.objects.filter(game__slow_tell=True, seat=F("game__awaiting_seat"))
        .exclude(set_aside("game_id"))
        .values_list(
            "game_id",
            "game__last_seq",
            "user_id",
            "bot_playing",
            "connections",
            "game__table_id",
            "game__deadline_at",
        )[:limit]
    )
    return [
        (g, seq, user, not bot, conns, table, deadline) for g, seq, user, bot, conns, table, deadline in rows
    ]


def decisions_tell() -> int:
    """Tell each slow game's awaited person of their decision, once per decision (site, push and
    email by their preferences: notification_send), unless a page of theirs is open on the game
    (then it is told once they leave it, if the decision still waits). How many were told."""
    now = clock.now()

    def tell(decision: tuple[int, int, int | None, bool, int, int, datetime | None]) -> bool:
        game_id, seq, user_id, person, _connections, table_id, deadline = decision
        sent = None
        if person and user_id is not None and deadline is not None and deadline > now + YOUR_TURN_LEAST_LEFT:
            data = {"game": game_id, "table": table_id, "deadline": deadline.isoformat()}
            sent = notification_send(
                user_id=user_id, kind=Kind.SLOW_TURN, data=data, once=_once(game_id, deadline)
            )
        # Told (or a bot's, or too late to matter): the decision leaves the index.
        Game.objects.filter(pk=game_id, last_seq=seq, slow_tell=True).update(slow_tell=False)
        return sent is not None

    # A person looking at the game is told once they leave it, if the decision still waits.
    untold = [d for d in decisions_untold() if not (d[3] and d[2] is not None and d[4])]
    return _tell_in_chunks(untold, tell)


def decision_missed_tell(*, game: Game, user_id: int, kind: str, missed: int) -> None:
    """A slow game's person missed a decision: a bot played it for them. They are told, and
    whether a bot now holds their seat (after SLOW_MISSES_IN_A_ROW) until they take it back.
    Inside the caller's transaction (the expiry's), once per decision."""
    notification_send(
        user_id=user_id,
        kind=Kind.DECISION_MISSED,
        data={
            "game": game.pk,
            "table": game.table_id,
            "decision": kind,
            "missed": missed,
            "taken": missed >= misses_before_away(True),
        },
        once=f"missed:{game.pk}:{game.last_seq}",
    )
