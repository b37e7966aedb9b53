"""Who is at the table: open sockets per seat, and seats left empty past the grace period.

Two records of presence: `GameSeat.connections`, counted up and down as sockets open and close
(fast, and exact while every close is seen), and a lease in Django's cache per seat, renewed by
the heartbeat of each server process that has a live socket on the seat (live/sockets.py). A
socket whose close was never handled (a crash, a killed server) stops renewing; the sweep then
finds the seat counted but not renewed, sets its count to 0 and dates the leaving from its last
renewal, so the seat is away within the grace period of its last sign of life. A seat counted out
so while one of its sockets was in fact open (its heartbeat late) is counted again by that
socket's next heartbeat (`presence_heartbeat`).
"""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from games.publish import publish_game_meta
from plumbing.sharedcache import shared_cache

from .. import sql
from ..followups import followups_check_away
from ..models import GameSeat, GameStatus
from ..selectors import live_running_games, presence_of, seats_presence
from ..sql import GameRead
from .faults import set_aside
from .moves import game_lock
from .seats import seat_hand_to_bot


def _announce(game_id: int) -> None:
    def send() -> None:
        publish_game_meta(game_id, "presence", {"seats": presence_of(game_id)})

    transaction.on_commit(send)


def _lease_key(game_id: int, seat: int) -> str:
    return f"seat-seen:{game_id}:{seat}"


def _lease_timeout() -> float:
    # Kept past the lease itself: the sweep dates a leaving from the last renewal it finds.
    return settings.PRESENCE_LEASE_SECONDS + settings.AWAY_GRACE_SECONDS + 60


def presence_renew(seats: set[tuple[int, int]] | list[tuple[int, int]]) -> None:
    """A server process's heartbeat: its seated sockets are alive now (one cache write)."""
    now = time.time()
    if len(seats) == 1:  # a socket opening: one command (SET with EX), not MULTI, MSET, EXPIRE, EXEC
        ((game_id, seat),) = seats
        shared_cache().set(_lease_key(game_id, seat), now, timeout=_lease_timeout())
        return
    shared_cache().set_many({_lease_key(g, s): now for g, s in seats}, timeout=_lease_timeout())


def presence_heartbeat(seats: dict[tuple[int, int], int], *, looked_at: float) -> list[int]:
    """A server process's heartbeat (live/sockets.py): its seated sockets, `seats` (with how
    many each seat has there), were alive at `looked_at`. Their leases are renewed; a seat of a
    running game whose count is 0 although one of them was open then is counted again, and its
    game's sockets told. Returns the games told.

    A count goes to 0 under an open socket when the sweep found its lease run out: the heartbeat
    was late (the process was stopped or starved), or a closing socket deleted the lease while
    another was opening. Nothing else would ever count that socket again, so the seat showed
    offline for as long as the page stayed open. A seat whose count went to 0 after `looked_at`
    is left alone: that may have been the goodbye of one of these sockets."""
    presence_renew(list(seats))
    since = datetime.fromtimestamp(looked_at, tz=UTC)
    lost = GameSeat.objects.filter(
        game_id__in={g for g, _ in seats},
        game__status=GameStatus.RUNNING,
        user__isnull=False,
        bot_playing=False,
        connections=0,
    ).values_list("game_id", "seat")
    told = []
    for game_id, seat in lost:
        if (game_id, seat) not in seats:
            continue
        with transaction.atomic():
            n = (
                GameSeat.objects.filter(game_id=game_id, seat=seat, connections=0, bot_playing=False)
                .filter(Q(disconnected_at__isnull=True) | Q(disconnected_at__lt=since))
                .update(connections=seats[(game_id, seat)], disconnected_at=None)
            )
            if n:
                _announce(game_id)
                told.append(game_id)
    return told


def _last_seen(game_id: int, seat: int) -> float | None:
    value = shared_cache().get(_lease_key(game_id, seat))
    return float(value) if value is not None else None


def _alive(game_id: int, seat: int) -> bool:
    seen = _last_seen(game_id, seat)
    return seen is not None and seen > time.time() - settings.PRESENCE_LEASE_SECONDS


def presence_connect(*, game_id: int, seat: int) -> tuple[GameRead | None, bool]:
    """One more socket on the seat of a game not read yet: the game as that leaves it, and whether
    the game's sockets were told (`presence_count`). A socket opening reads the game itself
    first, to know its seat, and counts with `presence_count`."""
    read = sql.game_read(game_id)
    return read, (presence_count(read=read, seat=seat) if read is not None else False)


def presence_disconnect(*, game_id: int, seat: int) -> None:
    with transaction.atomic():
        row = GameSeat.objects.select_for_update().filter(game_id=game_id, seat=seat).first()
        if row is None:
            return
        row.connections = max(0, row.connections - 1)
        if row.connections == 0:
            row.disconnected_at = timezone.now()
            # Every socket said goodbye: no lease to wait out.
            shared_cache().delete(_lease_key(game_id, seat))
            transaction.on_commit(lambda: _check_later(game_id, seat))
        row.save(update_fields=["connections", "disconnected_at"])
        _announce(game_id)


def presence_count(*, read: GameRead, seat: int) -> bool:
    """One more socket on `seat` of the game `read` holds (read by the opening socket a moment
    ago), that read's seat row brought up to date; whether the game's sockets were told (only
    when the seat had none: otherwise its presence is unchanged, and the opening socket is told
    by its caller)."""
    game_id = read.game.pk
    presence_renew([(game_id, seat)])  # before the count: the sweep never sees a count without a lease
    count = sql.seat_connect(game_id, seat)
    for row in read.seats:
        if row.seat == seat and count is not None:
            row.connections, row.disconnected_at = count, None
    if count != 1:
        return False
    presence = seats_presence(read.seats)
    publish_game_meta(game_id, "presence", {"seats": presence})
    return True


def presence_leave_for_restart(*, game_id: int, seat: int) -> None:
    """A socket closed by its server's restart (the server drains: plumbing/health.py): one
    statement, with no announcement and no check of its own. Its page is on its way to another
    server and counts itself there within a second or two; telling the table it left, then that it
    came back, would make a restart's every seat blink, and a restart closes hundreds of sockets a
    second. A page that does not come back is found by the sweep (`seats_gone_away`, every 5 s)
    once the grace period has passed, as a close's own check would have."""
    sql.seat_leave(game_id, seat, timezone.now())


def _check_later(game_id: int, seat: int, countdown: float | None = None) -> None:
    followups_check_away(
        game_id, seat, countdown=settings.AWAY_GRACE_SECONDS + 0.5 if countdown is None else countdown
    )


def presence_stale_seats() -> list[tuple[int, int, float]]:
    """(game, seat, last renewal) of seats counted as connected whose lease ran out: their
    sockets ended unseen. Games set aside by the sweep (GameFault) are passed over."""
    rows = list(
        GameSeat.objects.filter(
            game__status=GameStatus.RUNNING, user__isnull=False, bot_playing=False, connections__gt=0
        )
        .exclude(set_aside("game_id"))
        .values_list("game_id", "seat")
    )
    if not rows:
        return []
    seen = shared_cache().get_many([_lease_key(g, s) for g, s in rows])
    now = time.time()
    lease = settings.PRESENCE_LEASE_SECONDS
    stale = []
    for game_id, seat in rows:
        last = seen.get(_lease_key(game_id, seat))
        last = float(last) if last is not None else now - lease
        if last <= now - lease:
            stale.append((game_id, seat, last))
    return stale


def seat_presence_reset(*, game_id: int, seat: int, last_seen: float) -> bool:
    """The seat's count goes to 0, its leaving dated from its last renewal `last_seen`; not if
    the seat was renewed since the sweep read it (a socket opened, or a late heartbeat came)."""
    with transaction.atomic():
        counted = GameSeat.objects.select_for_update().filter(game_id=game_id, seat=seat, connections__gt=0)
        # Under the row's lock: a socket opening renews the lease before its count waits for it.
        if not list(counted.values_list("pk", flat=True)) or _alive(game_id, seat):
            return False
        n = GameSeat.objects.filter(game_id=game_id, seat=seat, connections__gt=0).update(
            connections=0, disconnected_at=datetime.fromtimestamp(last_seen, tz=UTC)
        )
        if not n:
            return False
        _announce(game_id)
        left = max(0.0, settings.AWAY_GRACE_SECONDS - (time.time() - last_seen)) + 0.5
        transaction.on_commit(lambda: _check_later(game_id, seat, left))
    return True


def presence_sweep() -> int:
    """Every stale seat set right (`presence_stale_seats`); returns how many were."""
    return sum(
        seat_presence_reset(game_id=g, seat=s, last_seen=last) for g, s, last in presence_stale_seats()
    )


def seats_gone_away() -> list[tuple[int, int]]:
    """(game, seat) of people disconnected longer than the grace period while a bot isn't playing."""
    cutoff = timezone.now() - timedelta(seconds=settings.AWAY_GRACE_SECONDS)
    return list(
        GameSeat.objects.filter(
            # The running live games (live_running_games), then their seats by (game, seat).
            # At a slow table nobody is expected to stay: only missed decisions hand a seat to a
            # bot there (autoplay.py, game_deadline_expire).
            game_id__in=live_running_games(),
            user__isnull=False,
            bot_playing=False,
            connections=0,
            disconnected_at__lte=cutoff,
        )
        .exclude(set_aside("game_id"))
        .values_list("game_id", "seat")
    )


def seat_mark_away(*, game_id: int, seat: int) -> bool:
    """A bot takes the seat, if its person is still gone (checked again under the lock); never at
    a slow table, where closing the page is how one plays."""
    cutoff = timezone.now() - timedelta(seconds=settings.AWAY_GRACE_SECONDS)
    with transaction.atomic():
        game = game_lock(game_id)
        row = GameSeat.objects.get(game=game, seat=seat)
        if game.slow or row.connections or row.disconnected_at is None or row.disconnected_at > cutoff:
            return False
        if _alive(game_id, seat):  # a socket renewed the seat after its count went to 0
            return False
        taken = seat_hand_to_bot(game=game, seat=seat, reason="away")
        if taken:
            _announce(game_id)
        return taken


WATCHED_FOR = timedelta(seconds=40)


def game_mark_watched(*, game_id: int) -> None:
    """A watch page is open on the game: its pushes carry replay frames for a while. Written at
    most once per half period, so heartbeats rarely touch the game row."""
    now = timezone.now()
    sql.mark_watched(game_id, now + WATCHED_FOR, now + WATCHED_FOR / 2, GameStatus.RUNNING.value)
