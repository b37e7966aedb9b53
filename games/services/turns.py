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
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from harehra.state import Decision
from notifications.models import Kind, Notification
from notifications.services import NOTICES_A_TRANSACTION, notification_send

from ..models import GameSeat, GameStatus
from .faults import set_aside

log = logging.getLogger(__name__)

# A decision with less than this left is not worth telling about.
YOUR_TURN_LEAST_LEFT = timedelta(seconds=10)
# A seat without a socket this long is not just reloading its page.
YOUR_TURN_GONE_FOR = timedelta(seconds=3)


def _window(kind: str, turn: int, discard: int, reaction: int, answers_itself: bool) -> float:
    """The decision's whole window, as moves.py stamped it (its `_timer_for` and auto-answer)."""
    if kind == Decision.TURN:
        return turn
    if kind == Decision.DISCARD:
        return discard
    if answers_itself:
        return min(reaction, settings.AUTO_ANSWER_SECONDS)
    return reaction


def your_turn_sweep() -> int:
    """Notify every person whose decision waits with no page of theirs open on its game; how
    many were notified (a decision already told about is not told again)."""
    now = timezone.now()
    rows = (
        GameSeat.objects.filter(
            game__status=GameStatus.RUNNING,
            game__awaiting_seat=F("seat"),
            game__deadline_at__gt=now + YOUR_TURN_LEAST_LEFT,
            user__isnull=False,
            is_bot=False,
            bot_playing=False,
            connections=0,
        )
        .filter(Q(disconnected_at__isnull=True) | Q(disconnected_at__lte=now - YOUR_TURN_GONE_FOR))
        .exclude(set_aside("game_id"))
        .values_list(
            "game_id",
            "user_id",
            "auto_answer",
            "game__table_id",
            "game__awaiting_kind",
            "game__deadline_at",
            "game__table__turn_timer",
            "game__table__discard_timer",
            "game__table__reaction_timer",
        )
    )
    due = [
        (f"turn:{game_id}:{int(deadline.timestamp() * 1000)}", user_id, game_id, table_id, deadline)
        for game_id, user_id, auto, table_id, kind, deadline, turn, discard, reaction in rows
        if _window(kind, turn, discard, reaction, auto) >= settings.YOUR_TURN_MIN_SECONDS
    ]
    if not due:
        return 0
    # Decisions told about already, in one read: a seat stays away for many sweeps.
    done = set(
        Notification.objects.filter(
            user_id__in={d[1] for d in due}, once__in={d[0] for d in due}
        ).values_list("user_id", "once")
    )
    told = 0
    due = [d for d in due if (d[1], d[0]) not in done]
    for first in range(0, len(due), NOTICES_A_TRANSACTION):
        with transaction.atomic():  # the chunk's pushes in one task for the worker
            for once, user_id, game_id, table_id, deadline in due[first : first + NOTICES_A_TRANSACTION]:
                try:  # one decision's failure stops no other's notice
                    with transaction.atomic():
                        sent = notification_send(
                            user_id=user_id,
                            kind=Kind.YOUR_TURN,
                            data={"game": game_id, "table": table_id, "deadline": deadline.isoformat()},
                            once=once,
                        )
                except Exception:
                    log.exception("could not tell person %s of their decision in game %s", user_id, game_id)
                    continue
                told += sent is not None
    return told
