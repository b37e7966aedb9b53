"""Moves nobody typed: bots in their seats, and the default action when a deadline passes."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Exists, F, OuterRef, QuerySet
from django.utils import timezone

from harehra import GameState, legal_commands, view_for
from harehra.bots import DEFAULT_LEVEL
from plumbing import clock
from plumbing.errors import ServiceError

from .. import followups
from ..bot_thinking import think
from ..eventlog import load_state
from ..models import Game, GameEvent, GameSeat, GameStatus, misses_before_away
from .faults import set_aside
from .moves import CommandOutcome, game_command_submit_for_seat, game_lock
from .seats import seat_hand_to_bot
from .turns import decision_missed_tell

log = logging.getLogger(__name__)
# Only these count toward being marked away; a volley or a skip that times out is declined.
COUNTED_AS_MISSED = frozenset({"turn", "discard"})


def bot_command(state: GameState, seat: int, level: str = DEFAULT_LEVEL) -> dict[str, object]:
    """What the seat's bot of `level` plays: chosen from the seat's view and legal commands only
    (a searching bot's in a child process: games/bot_thinking.py)."""
    return think(level, view_for(state, seat), legal_commands(state, seat))


@dataclass(frozen=True)
class BotChoice:
    """A bot's command for `seat`, chosen at the game's `seq`: valid only while the game is there."""

    seat: int
    command: dict[str, object]


def game_bot_choose(*, game_id: int, guard_seq: int) -> BotChoice | None:
    """What the bot playing the seat awaited at `guard_seq` plays; None when the game moved on or a
    person plays that seat.

    The bot thinks outside any transaction (a hard bot searches for a while, in a child process):
    the game is read unlocked, and the choice is played guarded by the seq it was chosen at
    (`game_bot_play`), so a game that moved on meanwhile refuses it.
    """
    game = Game.objects.filter(pk=game_id, status=GameStatus.RUNNING, last_seq=guard_seq).first()
    if game is None or game.awaiting_seat is None:
        return None
    level = (
        GameSeat.objects.filter(game=game, seat=game.awaiting_seat, bot_playing=True)
        .values_list("bot_level", flat=True)
        .first()
    )
    if level is None:
        return None
    state = load_state(game)
    return BotChoice(game.awaiting_seat, bot_command(state, game.awaiting_seat, level))


def game_bot_play(*, game_id: int, guard_seq: int, choice: BotChoice) -> CommandOutcome | None:
    """Play a bot's `choice` if the game is still at `guard_seq`, the seq it was chosen at (else
    None, nothing written). Every change of who plays a seat appends an event (SeatTakenByBot,
    SeatReclaimed), so at that seq the seat is still awaited and still the bot's."""
    try:
        return game_command_submit_for_seat(
            game=Game(pk=game_id), seat=choice.seat, command=choice.command, guard_seq=guard_seq
        )
    except ServiceError:
        log.exception("bot move refused in game %s", game_id)
        return None


def game_bot_think(*, game_id: int, guard_seq: int, due: datetime) -> BotChoice | None:
    """The bot awaited at `guard_seq` thinks now, as soon as its decision is due, and its move is
    armed for `due` (BOT_DELAY_SECONDS after the move before): a hard bot's search runs during the
    delay instead of after it. Returns the choice to play at once when thinking took the whole
    delay; None when the move was armed, or there is nothing to play.
    """
    choice = game_bot_choose(game_id=game_id, guard_seq=guard_seq)
    if choice is None or due <= timezone.now():
        return choice
    followups.followups_bot_play(game_id, guard_seq, choice.seat, choice.command, due)
    return None


def game_bot_move(*, game_id: int, guard_seq: int) -> CommandOutcome | None:
    """If a bot plays the awaited seat, it thinks and moves at once (the sweep's, for a bot whose
    tasks were lost; guarded: a stale wake-up changes nothing)."""
    choice = game_bot_choose(game_id=game_id, guard_seq=guard_seq)
    if choice is None:
        return None
    return game_bot_play(game_id=game_id, guard_seq=guard_seq, choice=choice)


def game_deadline_expire(*, game_id: int, guard_seq: int) -> CommandOutcome | None:
    """The awaited seat ran out of time: decline a reaction, else the autopilot plays.

    Two missed turns or discards in a row mark the seat away, and a bot takes it until its person
    returns; after the first, the seat's views carry `away_warning` (its person is told that one
    more missed turn hands the seat to a bot). A reaction window that runs out is a decision
    (declining), not a missed deadline: a person with the page open who holds no answer is never
    marked away for it. At a slow table SLOW_MISSES_IN_A_ROW misses (a reaction its seat could
    answer counts) hand the seat to a bot, and each miss is told to its person (decision_missed).
    """
    with transaction.atomic():
        if not Game.objects.filter(pk=game_id).exists():
            return None
        game = game_lock(game_id)
        if (
            game.status != GameStatus.RUNNING
            or game.last_seq != guard_seq
            or game.deadline_at is None
            or game.deadline_at > clock.now()
            or game.awaiting_seat is None
        ):
            return None
        seat = game.awaiting_seat
        row = GameSeat.objects.get(game=game, seat=seat)
        state = load_state(game)
        missed = not row.bot_playing and _counted_as_missed(game, row, state)
        if missed:
            row.missed_deadlines += 1
            row.save(update_fields=["missed_deadlines"])
            if row.missed_deadlines >= misses_before_away(game.slow):
                seat_hand_to_bot(game=game, seat=seat, reason="timeout")
                game.refresh_from_db()
                state = load_state(game)
        if missed and game.slow and row.user_id is not None:
            decision_missed_tell(
                game=game, user_id=row.user_id, kind=game.awaiting_kind, missed=row.missed_deadlines
            )
        if game.awaiting_kind in ("volley", "skip"):
            standing = "ask" if row.bot_playing else row.standing_for(game.awaiting_kind)
            command: dict[str, object] = standing_command(state, seat, standing)
        else:
            # The autopilot plays at normal level whatever bot the seat has: it runs under the
            # game's lock, where a search must not run.
            command = bot_command(state, seat, DEFAULT_LEVEL)
        return game_command_submit_for_seat(game=game, seat=seat, command=command, guard_seq=game.last_seq)


def standing_command(state: GameState, seat: int, standing: str) -> dict[str, object]:
    """The answer a reaction window that ran out gets: the seat's standing answer (`standing`,
    GameSeat.standing_volley or standing_skip) when it holds the card, else declining.

    Played at the window's end, never as the window opens, even when the answer is known at once:
    that end is AUTO_ANSWER_SECONDS after the window opened for every seat with a standing answer
    or "answer for me" (moves.py _with_deadline), card held or not, so the moment the answer comes
    tells the others nothing about the hand; only the answer itself is seen, as any answer is.
    A seat's answers to a volley are "none" or "taptap", to a skip "none" or "strom"
    (harehra.legal_moves): one card evades the whole volley or forwards the skip, and copies of a
    card are alike, so a standing answer has one command to play and nothing to choose. The
    command is an ordinary one, checked against the legal commands and sent down the one write
    path, so the log and the replays hold it as any other decline or reaction.
    """
    if standing in ("taptap", "strom"):
        command: dict[str, object] = {"seat": seat, "react": standing}
        if command in legal_commands(state, seat):
            return {"react": standing}
    return {"react": "none"}


def _counted_as_missed(game: Game, row: GameSeat, state: GameState) -> bool:
    """At a live table only turns and discards count (a person with the page open who holds no
    answer lets a reaction window run out). At a slow table a reaction counts too when its seat
    could answer and its person was asked (not "answer for me" nor a standing answer): a seat
    with no possible answer declines after a few seconds (moves.py, _with_deadline), which is no
    miss of its person's."""
    if row.is_bot or row.user_id is None:
        return False
    if game.awaiting_kind in COUNTED_AS_MISSED:
        return True
    return (
        game.slow and not row.answers_at_once(game.awaiting_kind) and len(legal_commands(state, row.seat)) > 1
    )


def game_timer_fired(*, game_id: int, guard_seq: int, armed_for: datetime | None) -> CommandOutcome | None:
    """A countdown task armed at `guard_seq` for `armed_for` fired.

    If that decision's time is up, its default action is applied. If the game moved on to a later
    deadline and this is the game's pending task, it arms itself again for that deadline. A late
    or repeated task matches neither and changes nothing.
    """
    outcome = game_deadline_expire(game_id=game_id, guard_seq=guard_seq)
    if outcome is None and armed_for is not None:
        _timer_rearm(game_id, armed_for)
    return outcome


def _timer_rearm(game_id: int, armed_for: datetime) -> None:
    with transaction.atomic():
        if not Game.objects.filter(pk=game_id, status=GameStatus.RUNNING, timer_armed_for=armed_for).exists():
            return
        game = game_lock(game_id)
        deadline = game.deadline_at
        # Same deadline: the task fired early (it never should); the sweep takes that one.
        if game.timer_armed_for != armed_for or deadline is None or deadline == armed_for:
            return
        # Not a move: only the countdown's own column changes (a move's row goes through write_move).
        Game.objects.filter(pk=game.pk).update(timer_armed_for=deadline)
        game.timer_armed_for = deadline
        seq = game.last_seq
        transaction.on_commit(
            lambda: followups.followups_send(game_id, seq, bot_to_move=False, timer_at=deadline)
        )


def overdue_bot_moves(limit: int = 200) -> list[tuple[int, int]]:
    """(game, seq) pairs of live games where a bot plays the awaited seat and has not moved for
    BOT_DELAY_SECONDS plus BOT_OVERDUE_SECONDS since the last event: its wake-up task was lost (a
    killed worker). Slow games' are found by `slow_due_claim` (games/followups.py)."""
    cutoff = timezone.now() - timedelta(seconds=settings.BOT_DELAY_SECONDS + settings.BOT_OVERDUE_SECONDS)
    bot_awaited = GameSeat.objects.filter(
        game=OuterRef("pk"), seat=OuterRef("awaiting_seat"), bot_playing=True
    )
    quiet = GameEvent.objects.filter(game=OuterRef("pk"), seq=OuterRef("last_seq"), created_at__lte=cutoff)
    return list(
        Game.objects.filter(status=GameStatus.RUNNING, slow=False, awaiting_seat__isnull=False)
        .exclude(set_aside())
        .filter(Exists(bot_awaited), Exists(quiet))
        .values_list("pk", "last_seq")[:limit]
    )


def due_deadlines(limit: int = 200) -> list[tuple[int, int]]:
    """(game, seq) pairs of live games whose deadline has passed: the sweep's work list (among
    the running live games, `game_running_live`; slow games' are `slow_due_claim`'s)."""
    return list(
        Game.objects.filter(status=GameStatus.RUNNING, slow=False, deadline_at__lte=timezone.now())
        .exclude(set_aside())
        .order_by("deadline_at")
        .values_list("pk", "last_seq")[:limit]
    )


def slow_due(limit: int = 200) -> list[tuple[int, int]]:
    """(game, seq) pairs of slow games due now (their deadline passed, or a bot there should have
    moved by now), earliest first, read from the index `game_slow_due` (the cost is the due ones',
    not the slow games'); what `slow_due_claim` claims, read without claiming."""
    return list(_slow_due_now(clock.now()).values_list("pk", "last_seq")[:limit])


def _slow_due_now(now: datetime) -> QuerySet[Game]:
    """The slow games due at `now`, earliest first (not set aside), on the index `game_slow_due`."""
    return Game.objects.filter(slow_deadline_at__lte=now).exclude(set_aside()).order_by("slow_deadline_at")


# A due slow game handed to its task is not handed again for this long, unless its task has
# moved it on: a task lost with a worker is handed over again by a later sweep.
SLOW_CLAIM_SECONDS = 60


def slow_due_claim(limit: int = 200) -> list[tuple[int, int, datetime]]:
    """(game, seq, due) of the slow games due now, earliest first, claimed: their
    `slow_deadline_at` moves SLOW_CLAIM_SECONDS on, so that the next sweeps do not hand them over
    again while their task is waiting or running (a task lost with its worker is retried then).
    One statement on the index `game_slow_due`: a game locked by a move in progress is skipped
    (its move sets its next deadline), so the seq returned is the one the game is at."""
    from django.db import connection

    now = clock.now()
    due = _slow_due_now(now).values("pk", "slow_deadline_at")[:limit]
    inner, params = due.query.sql_with_params()
    table = Game._meta.db_table
    with connection.cursor() as cur:
        cur.execute(
            f"UPDATE {table} AS g SET slow_deadline_at = %s "
            f"FROM ({inner} FOR UPDATE SKIP LOCKED) AS d (id, due) WHERE g.id = d.id "
            "RETURNING g.id, g.last_seq, d.due",
            [now + timedelta(seconds=SLOW_CLAIM_SECONDS), *params],
        )
        return sorted(cur.fetchall(), key=lambda row: row[2])


def game_slow_wake(*, game_id: int, guard_seq: int) -> CommandOutcome | None:
    """A slow game that `slow_due_claim` handed over at `guard_seq`: its deadline's default action
    if the time is up (game_deadline_expire, under the game's lock), else the bot's move if its
    wake-up was lost. Guarded by the seq: a second task for the same decision, or one finding the
    decision made meanwhile, changes nothing. A game found with neither (the bot moved meanwhile)
    is put back to wait for its deadline."""
    outcome = game_deadline_expire(game_id=game_id, guard_seq=guard_seq)
    if outcome is None:
        outcome = game_bot_move(game_id=game_id, guard_seq=guard_seq)
    if outcome is None:
        Game.objects.filter(
            pk=game_id, last_seq=guard_seq, slow_deadline_at__isnull=False, deadline_at__gt=clock.now()
        ).update(slow_deadline_at=F("deadline_at"))
    return outcome
