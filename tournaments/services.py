"""Tournaments: create, enter, pause, withdraw, start, seat, close, cancel; results from the game
logs through games' "a game ended" hook, and the refold `rebuild_tournament` compares them with.

Every write checks access through `access_tournament`. The games are made through games' own
services (table create, join, add bots, start), as a host would make them; the event's system
seats people at private tables, so the lobby does not list them.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from celery import current_app
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from accounts.access import AnyUser
from accounts.standing import sanctioned_now
from games.models import Game, GameSeat, GameStatus, Pace, Table, TableStatus, Visibility
from games.selectors import game_outcome
from games.services.tables import (
    TABLE_LIMITS,
    TableSettings,
    table_add_bot,
    table_create,
    table_join,
    table_leave,
    table_seat_vacate,
    table_settings_check,
    table_start,
)
from harehra import EngineError, make_ruleset
from notifications.models import Kind, Notification
from notifications.services import NOTICES_A_TRANSACTION, notification_send
from plumbing.errors import ServiceError

from . import limits, scoring, seating
from .access import access_tournament
from .models import Entry, EventSeat, EventTable, Format, Result, Round, Status, Tournament
from .publish import tournament_changed

log = logging.getLogger(__name__)

SPEC_FIELDS = (
    "name", "format", "table_size", "min_table_size", "bots_fill", "bot_level", "bots_after_seconds",
    "packs", "mini", "turn_timer", "reaction_timer", "discard_timer", "pace", "decision_seconds", "rated",
    "entry_opens_at",
    "starts_at", "duration_minutes", "rounds", "featured",
)  # fmt: skip


def _arena_minutes_overflow(t: Tournament) -> bool:
    try:
        t.starts_at + timedelta(minutes=t.duration_minutes)
    except OverflowError:
        return True
    return False


def tournament_settings_check(t: Tournament, now: datetime | None = None) -> None:
    """The rules every event's settings keep, whoever makes it (the services, the admin's form):
    ServiceError `bad_settings`, or `bad_dates` for its dates."""
    now = now or timezone.now()
    if t.starts_at is None or t.entry_opens_at is None:
        raise ServiceError("bad_dates", "an event has a start and an entry opening")
    if t.starts_at > now + limits.STARTS_WITHIN:
        raise ServiceError("bad_dates", "an event starts within a year")
    if t.entry_opens_at > t.starts_at:
        raise ServiceError("bad_dates", "entry opens before the start")
    if t.format == Format.ARENA and _arena_minutes_overflow(t):
        raise ServiceError("bad_dates", "the arena would end after the last date there is")
    _check(t)


def _check(t: Tournament) -> None:
    if t.format not in Format.values:
        raise ServiceError("bad_settings", "format is arena or swiss")
    if not 2 <= t.min_table_size <= t.table_size <= 6:
        raise ServiceError("bad_settings", "tables seat 2 to 6, the smallest no more than the size")
    try:
        ruleset = make_ruleset(t.packs, t.mini)
    except EngineError as e:
        raise ServiceError("bad_settings", e.detail) from e
    if not (ruleset.min_players <= t.min_table_size and t.table_size <= ruleset.max_players):
        raise ServiceError(
            "bad_settings", f"with these packs a table seats {ruleset.min_players} to {ruleset.max_players}"
        )
    if t.pace == Pace.SLOW and t.format != Format.SWISS:
        # An arena's tables come and go within its minutes: only a Swiss round can last days.
        raise ServiceError("bad_pace", "a slow event is a Swiss one: a round is played over days")
    # The pace and time per decision as a table's (bad_pace), then the live timers' bounds.
    table_settings_check(TableSettings(pace=t.pace, decision_seconds=t.decision_seconds))
    for name in ("turn_timer", "reaction_timer", "discard_timer") if t.pace == Pace.LIVE else ():
        b = TABLE_LIMITS[name]
        if not b.low <= getattr(t, name) <= b.high:
            raise ServiceError("bad_settings", f"{name} is {b.low} to {b.high} seconds")
    if t.format == Format.SWISS and not 1 <= t.rounds <= 30:
        raise ServiceError("bad_settings", "a Swiss event has 1 to 30 rounds")
    if t.format == Format.ARENA and not 1 <= t.duration_minutes <= 24 * 60:
        raise ServiceError("bad_settings", "an arena lasts 1 minute to a day")


def _player_check(t: Tournament, now: datetime) -> None:
    """A player's own event: soon, not too long, never featured (limits.py says why)."""
    if t.featured:
        raise ServiceError("not_staff", "only staff feature events", 403)
    if not now - limits.PLAYER_STARTS_LATE <= t.starts_at <= now + limits.PLAYER_STARTS_WITHIN:
        raise ServiceError("bad_dates", "your event starts now or within 7 days")
    low, high = limits.PLAYER_ARENA_MINUTES
    if t.format == Format.ARENA and not low <= t.duration_minutes <= high:
        raise ServiceError("bad_settings", f"your arena lasts {low} to {high} minutes")
    low, high = limits.PLAYER_ROUNDS
    if t.format == Format.SWISS and not low <= t.rounds <= high:
        raise ServiceError("bad_settings", f"your Swiss event has {low} to {high} rounds")


def _player_limits(user: AnyUser, now: datetime) -> None:
    """How many events a player hosts at once and creates in a day (429, with Retry-After when
    waiting helps). The caller holds the user's row, so two requests at once count each other."""
    hosted = Tournament.objects.filter(created_by_id=user.pk)
    if hosted.filter(status__in=(Status.SCHEDULED, Status.RUNNING)).count() >= limits.PLAYER_EVENTS_AT_ONCE:
        raise ServiceError(
            "too_many_events",
            f"you host {limits.PLAYER_EVENTS_AT_ONCE} events that have not ended: wait for one to end "
            "or cancel one",
            429,
        )
    today = list(
        hosted.filter(created_at__gt=now - limits.PER_DAY)
        .order_by("created_at")
        .values_list("created_at", flat=True)
    )
    if len(today) >= limits.PLAYER_EVENTS_PER_DAY:
        wait = today[-limits.PLAYER_EVENTS_PER_DAY] + limits.PER_DAY - now
        raise ServiceError(
            "too_often",
            f"you created {limits.PLAYER_EVENTS_PER_DAY} events in the last 24 hours",
            429,
            retry_after=max(1, int(wait.total_seconds()) + 1),
        )


def tournament_create(*, user: AnyUser, **spec: Any) -> Tournament:
    """Staff create any event (featured unless they say not); a player in good standing creates
    their own, within the limits of limits.py. Nothing is written unless every check passes."""
    access_tournament(user, "create")
    staff = bool(user.is_active and getattr(user, "is_staff", False))
    unknown = set(spec) - set(SPEC_FIELDS)
    if unknown:
        raise ServiceError("bad_settings", f"unknown settings: {', '.join(sorted(unknown))}")
    spec.setdefault("featured", staff)
    now = timezone.now()
    t = Tournament(created_by=user, **spec)
    tournament_settings_check(t, now)
    if staff:
        t.save()
        return t
    _player_check(t, now)
    with transaction.atomic():
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()
        _player_limits(user, now)
        t.save()
    return t


def _locked(t: Tournament) -> Tournament:
    return Tournament.objects.select_for_update().get(pk=t.pk)


def tournament_join(*, tournament: Tournament, user: AnyUser) -> Entry:
    """Enter an event (or come back to an arena after a pause: seated again after a wait that
    grows with the pauses)."""
    access_tournament(user, "enter")
    now = timezone.now()
    with transaction.atomic():
        t = _locked(tournament)
        entry = Entry.objects.select_for_update().filter(tournament=t, user_id=user.pk).first()
        if entry is not None:
            if entry.removed_at is not None:
                raise ServiceError("removed", "a moderator removed you from this tournament", 403)
            if entry.withdrawn:
                raise ServiceError("withdrawn", "you withdrew from this tournament", 409)
            if not entry.paused:
                raise ServiceError("already_entered", "you are in this tournament", 409)
            entry.paused = False
            entry.ready_at = now + timedelta(seconds=scoring.pause_wait(entry.pauses))
            entry.save(update_fields=["paused", "ready_at"])
            tournament_changed(t.pk, users=[user.pk])
            return entry
        open_ = t.status == Status.SCHEDULED or (t.status == Status.RUNNING and t.format == Format.ARENA)
        if not open_ or now < t.entry_opens_at or (t.format == Format.ARENA and now >= _arena_end(t)):
            raise ServiceError("entry_closed", "entry to this tournament is not open", 409)
        entry = Entry.objects.create(tournament=t, user=user, free_since=now, ready_at=now)
        tournament_changed(t.pk, users=[user.pk])
        return entry


def tournament_pause(*, tournament: Tournament, user: AnyUser) -> Entry:
    """Arena: stop being seated (the game in progress goes on); joining again ends the pause."""
    with transaction.atomic():
        entry = access_tournament(user, "play", tournament)
        assert entry is not None
        entry = Entry.objects.select_for_update().get(pk=entry.pk)
        if tournament.format != Format.ARENA:
            raise ServiceError("not_arena", "only an arena can be paused: withdraw instead", 409)
        if tournament.status in (Status.FINISHED, Status.CANCELLED):
            raise ServiceError("ended", "this tournament has ended", 409)
        if entry.paused or entry.withdrawn:
            raise ServiceError("not_playing", "you are not being seated in this arena", 409)
        entry.paused, entry.pauses = True, entry.pauses + 1
        entry.save(update_fields=["paused", "pauses"])
        tournament_changed(tournament.pk, users=[user.pk])
        return entry


def tournament_withdraw(*, tournament: Tournament, user: AnyUser) -> Entry:
    """Leave for good: no more tables; results so far stand. Before the start it takes the entry
    back instead (the player may enter again)."""
    with transaction.atomic():
        t = _locked(tournament)
        entry = access_tournament(user, "play", t)
        assert entry is not None
        if t.status in (Status.FINISHED, Status.CANCELLED):
            raise ServiceError("ended", "this tournament has ended", 409)
        if entry.withdrawn:
            raise ServiceError("withdrawn", "you withdrew from this tournament", 409)
        tournament_changed(t.pk, users=[user.pk])
        if t.status == Status.SCHEDULED:
            entry.delete()
            entry.withdrawn = True
            return entry
        Entry.objects.filter(pk=entry.pk).update(withdrawn=True)
        entry.withdrawn = True
        return entry


def tournament_remove(*, tournament: Tournament, user: AnyUser, moderator: AnyUser) -> Entry:
    """A moderator takes `user` out of the event (moderation's `tournament_player_remove` calls
    it and writes the audit entry in the same transaction). The entry is withdrawn for good and
    marked removed: never seated again, listed after every player still in, no podium. A game of
    the event they play now goes on with a bot in their seat, and they are taken off its table (no
    taking the seat back): by the site's placing rule they are placed last in it, 0 points. Their
    results before stand (their opponents' results and tie-breaks need them)."""
    access_tournament(moderator, "moderate")
    with transaction.atomic():
        t = _locked(tournament)
        if t.status == Status.FINISHED:
            raise ServiceError("ended", "this tournament has ended: its standings are final", 409)
        entry = Entry.objects.filter(tournament=t, user_id=user.pk).first()
        if entry is None:
            raise ServiceError("not_entered", "that player is not in this tournament", 404)
        if entry.removed_at is not None:
            raise ServiceError("already_removed", "that player was already removed", 409)
        # Their tables first, then their entry: a move ending one of those games locks its table
        # and game, then the entries (the results); taking them in that order too cannot deadlock.
        playing = EventTable.objects.filter(tournament=t, done=False, seats__entry=entry)
        for et in playing.select_related("table"):
            table_seat_vacate(table=et.table, user_id=user.pk, reason="left")
        entry = Entry.objects.select_for_update().get(pk=entry.pk)
        entry.withdrawn, entry.paused, entry.removed_at = True, False, timezone.now()
        entry.save(update_fields=["withdrawn", "paused", "removed_at"])
        tournament_changed(t.pk, users=[user.pk])
        return entry


def _arena_end(t: Tournament) -> datetime:
    try:
        return (t.started_at or t.starts_at) + timedelta(minutes=t.duration_minutes)
    except OverflowError:  # a row stored before its dates were checked: it never ends
        return datetime.max.replace(tzinfo=UTC)


def tournament_start(*, tournament: Tournament, user: AnyUser | None = None) -> Tournament:
    """Start an event (staff, or the beat at its time, `user` None): Swiss seats its first round,
    an arena its first tables."""
    if user is not None:
        access_tournament(user, "manage")
    with transaction.atomic():
        t = _locked(tournament)
        if t.status != Status.SCHEDULED:
            raise ServiceError("not_scheduled", "this tournament has started or ended", 409)
        t.status, t.started_at = Status.RUNNING, timezone.now()
        t.save(update_fields=["status", "started_at"])
        Entry.objects.filter(tournament=t).update(free_since=t.started_at)
        _seat_due(t, changed=True)  # in the same transaction: started and seated, or neither
    return Tournament.objects.get(pk=t.pk)


def tournament_cancel(*, tournament: Tournament, user: AnyUser) -> Tournament:
    """Call an event off (moderators do it through moderation's `tournament_cancel`, which audits
    it): no table is seated any more and no podium is given. Nothing already played is undone:
    a game in progress is played to its end (rated if the event is), and its result is recorded
    in the standings like any other, which stay on the page as they stand. Staff may cancel any
    event; a player their own, before its start (`started` after it)."""
    access_tournament(user, "host", tournament)
    staff = bool(user.is_active and getattr(user, "is_staff", False))
    with transaction.atomic():
        t = _locked(tournament)
        if t.status in (Status.FINISHED, Status.CANCELLED):
            raise ServiceError("ended", "this tournament has ended", 409)
        if not staff and t.status != Status.SCHEDULED:
            raise ServiceError("started", "an event that has started can be cancelled by staff only", 409)
        t.status, t.finished_at = Status.CANCELLED, timezone.now()
        t.save(update_fields=["status", "finished_at"])
        tournament_changed(t.pk)
        return t


# --- seating -----------------------------------------------------------------------------------


def _history(t: Tournament) -> tuple[dict[int, dict[int, int]], dict[int, frozenset[int]]]:
    """Per entry: who they met and how often, and who sat at their last table."""
    met: dict[int, dict[int, int]] = {}
    last: dict[int, frozenset[int]] = {}
    by_table: dict[int, list[int]] = {}
    for table_id, entry_id in (
        EventSeat.objects.filter(event_table__tournament=t, entry__isnull=False)
        .order_by("event_table_id")
        .values_list("event_table_id", "entry_id")
    ):
        by_table.setdefault(table_id, []).append(entry_id)
    for members in by_table.values():  # in the order the tables were made: the last wins
        for e in members:
            mine = met.setdefault(e, {})
            for o in members:
                if o != e:
                    mine[o] = mine.get(o, 0) + 1
            last[e] = frozenset(members) - {e}
    return met, last


def _standing_order(t: Tournament, entries: list[Entry]) -> list[Entry]:
    from .selectors import tournament_standings

    rank = {s.entry: i for i, s in enumerate(tournament_standings(t))}
    return sorted(entries, key=lambda e: rank.get(e.pk, len(rank)))


def tournament_seat_round(*, tournament: Tournament, user: AnyUser | None = None) -> list[EventTable]:
    """Seat what is due: Swiss, the next round once the last has ended (or finish after the
    last); arena, the free players, while it runs. The tables made."""
    if user is not None:
        access_tournament(user, "manage")
    with transaction.atomic():
        t = _locked(tournament)
        if t.status != Status.RUNNING:
            return []
        return _seat_due(t)


def _seat_due(t: Tournament, changed: bool = False) -> list[EventTable]:
    """Seat `t` (locked) and tell its pages: the standings when its state changed (started:
    `changed`; a Swiss round seated, byes given; finished), each player seated their new table."""
    before = (t.status, t.current_round)
    tables = _seat_swiss(t) if t.format == Format.SWISS else _seat_arena(t)
    changed = changed or (t.status, t.current_round) != before
    seated = EventSeat.objects.filter(event_table__in=tables, entry__isnull=False).values_list(
        "entry__user_id", flat=True
    )
    # A Swiss round's byes are results: the lists of games of those given one change too.
    byes = (
        Result.objects.filter(round__tournament=t, round__number=t.current_round, game__isnull=True)
        if t.format == Format.SWISS and t.current_round != before[1]
        else Result.objects.none()
    )
    if changed or tables:
        tournament_changed(
            t.pk,
            standings=changed,
            users=list(seated) if tables else [],
            games_of=byes.values_list("entry_id", flat=True),
        )
    return tables


def _playing_elsewhere(user_ids: list[int]) -> set[int]:
    """Those of `user_ids` who play a game in progress now, at any table (a seat a bot plays for
    them because they left it does not hold them)."""
    return set(
        GameSeat.objects.filter(
            user_id__in=user_ids, game__status=GameStatus.RUNNING, bot_playing=False
        ).values_list("user_id", flat=True)
    )


def _seat_swiss(t: Tournament) -> list[EventTable]:
    if EventTable.objects.filter(tournament=t, done=False).exists():
        return []
    now = timezone.now()
    Round.objects.filter(tournament=t, finished_at__isnull=True).update(finished_at=now)
    entries = list(
        Entry.objects.select_for_update()
        .filter(tournament=t, withdrawn=False)
        .exclude(sanctioned_now())  # suspended or banned: not seated (no bye) while it lasts
        .order_by("id")
    )
    if t.current_round >= t.rounds or not entries:
        _finish(t)
        return []
    # One table at a time: whoever plays a game elsewhere now (another event's, or any table's)
    # sits this round out, no game and no bye; with nobody free the round waits for someone.
    entries = [e for e in entries if e.user_id not in _playing_elsewhere([e.user_id for e in entries])]
    if not entries:
        return []
    t.current_round += 1
    t.save(update_fields=["current_round"])
    rnd = Round.objects.create(tournament=t, number=t.current_round)
    met, _ = _history(t)
    order = _standing_order(t, entries)
    if t.current_round == 1:
        order = sorted(entries, key=lambda e: (e.user_id * 2654435761 + t.pk) % 2**32)  # a fixed mix
    players = [seating.Player(e.pk, e.score, met.get(e.pk, {}), byes=e.byes) for e in order]
    plan = seating.seat_swiss(players, t.table_size, t.min_table_size, t.bots_fill)
    by_id = {e.pk: e for e in entries}
    for entry_id in plan.byes:
        entry = by_id[entry_id]
        tally = _tally(entry)
        points = scoring.tally_bye(tally)
        Result.objects.create(tournament=t, entry=entry, round=rnd, points=points)
        _store(entry, tally)
    return [
        tb
        for table in plan.tables
        if (tb := _open_table(t, [by_id[i] for i in table.players], table.bots, rnd))
    ]


def _seat_arena(t: Tournament) -> list[EventTable]:
    now = timezone.now()
    if now >= _arena_end(t):
        if not EventTable.objects.filter(tournament=t, done=False).exists():
            _finish(t)
        return []
    busy = EventSeat.objects.filter(event_table__tournament=t, event_table__done=False, entry__isnull=False)
    free = list(
        Entry.objects.select_for_update(skip_locked=True)
        .filter(tournament=t, withdrawn=False, paused=False, ready_at__lte=now)
        .exclude(pk__in=busy.values("entry_id"))
        .exclude(sanctioned_now())  # their table would be refused (games' rule) and rolled back
        .order_by("id")
    )
    # One table at a time: a person playing a game elsewhere (another event's, or any table's)
    # stays free here, their wait growing, and is seated once that game is over.
    elsewhere = _playing_elsewhere([e.user_id for e in free])
    free = [e for e in free if e.user_id not in elsewhere]
    if not free:
        return []
    _, last = _history(t)
    order = _standing_order(t, free)
    players = [
        seating.Player(
            e.pk,
            e.score,
            last=last.get(e.pk, frozenset()),
            waiting=(now - (e.free_since or now)).total_seconds(),
        )
        for e in order
    ]
    plan = seating.seat_arena(
        players, t.table_size, t.min_table_size, t.bots_after_seconds if t.bots_fill else None
    )
    by_id = {e.pk: e for e in free}
    return [
        tb
        for table in plan.tables
        if (tb := _open_table(t, [by_id[i] for i in table.players], table.bots, None))
    ]


def _timers(t: Tournament) -> dict[str, Any]:
    """The event's tables' timers: the live timers, or a slow event's one time per decision."""
    if t.pace == Pace.SLOW:
        return {"pace": Pace.SLOW, "decision_seconds": t.decision_seconds}
    return {"turn_timer": t.turn_timer, "reaction_timer": t.reaction_timer, "discard_timer": t.discard_timer}


def _open_table(t: Tournament, people: list[Entry], bots: int, rnd: Round | None) -> EventTable | None:
    """A games table for `people` and `bots`, its game started, through games' services. A table
    that cannot be made (a player banned meanwhile...) is rolled back alone and logged: its people
    stay free for the next seating."""
    users = [e.user for e in people]
    try:
        with transaction.atomic():
            table = table_create(
                host=users[0],
                settings=TableSettings(
                    seats=len(people) + bots,
                    packs=tuple(t.packs),
                    mini=t.mini,
                    **_timers(t),
                    visibility=Visibility.PRIVATE,
                    rated=t.rated,
                    chat_enabled=True,
                    away_bot_level=t.bot_level,
                ),
            )
            for u in users[1:]:
                table_join(table=table, user=u, invite_code=table.invite_code)
            for _ in range(bots):
                table_add_bot(table=table, user=users[0], level=t.bot_level)
            game = table_start(table=table, user=users[0])
            et = EventTable.objects.create(tournament=t, round=rnd, table=table, game=game)
            EventSeat.objects.bulk_create(
                [EventSeat(event_table=et, seat=n, entry=e) for n, e in enumerate(people)]
                + [EventSeat(event_table=et, seat=len(people) + b, entry=None) for b in range(bots)]
            )
            return et
    except ServiceError as e:
        log.warning("tournament %s: a table for entries %s was not made: %s", t.pk, [p.pk for p in people], e)
        return None


def _finish(t: Tournament) -> None:
    t.status, t.finished_at = Status.FINISHED, timezone.now()
    t.save(update_fields=["status", "finished_at"])


def tournament_close(*, tournament: Tournament, user: AnyUser | None = None) -> Tournament:
    """Finish an event whose play is over: a Swiss event after its last round, an arena at its end
    once its last tables have ended (staff may close one early: no more tables are made; the
    games in progress still count when they end)."""
    if user is not None:
        access_tournament(user, "manage")
    with transaction.atomic():
        t = _locked(tournament)
        if t.status != Status.RUNNING:
            raise ServiceError("not_running", "this tournament is not running", 409)
        if EventTable.objects.filter(tournament=t, done=False).exists():
            raise ServiceError("tables_running", "wait until the event's games in progress end", 409)
        _finish(t)
        tournament_changed(t.pk)
        return t


def tournament_release_tables(*, tournament: Tournament) -> int:
    """The people leave the games tables of the event's ended games (so those tables close and
    offer no next game). Run by the beat after the game ended, outside the move's transaction."""
    released = 0
    for et in EventTable.objects.filter(tournament=tournament, done=True).exclude(
        table__status=TableStatus.CLOSED
    ):
        table = Table.objects.get(pk=et.table_id)
        with transaction.atomic():
            for seat in table.seat_set.filter(user__isnull=False).select_related("user"):
                table_leave(table=table, user=seat.user)
        released += 1
    return released


# --- results -----------------------------------------------------------------------------------


def _tally(entry: Entry) -> scoring.Tally:
    return scoring.Tally(entry.score, entry.games, entry.wins, entry.streak, entry.byes)


def _store(entry: Entry, tally: scoring.Tally) -> None:
    entry.score, entry.games, entry.wins, entry.streak, entry.byes = (
        tally.score, tally.games, tally.wins, tally.streak, tally.byes
    )  # fmt: skip
    entry.save(update_fields=["score", "games", "wins", "streak", "byes", "free_since"])


@dataclass
class TableResult:
    entry: int
    seat: int
    place: int
    players: int
    base: int  # points before a streak
    won: bool
    bot_played: bool


def _table_results(et: EventTable, seats: list[EventSeat]) -> list[TableResult]:
    assert et.game_id is not None
    outcome = game_outcome(et.game_id)
    points = scoring.table_points(outcome.places)
    won = scoring.sole_winners(outcome.places)
    return [
        TableResult(
            s.entry_id,
            s.seat,
            outcome.places[s.seat],
            outcome.players,
            points[s.seat],
            won[s.seat],
            s.seat in outcome.abandoned,
        )
        for s in seats
        if s.entry_id is not None
    ]


def tournament_game_ended(game_id: int) -> None:
    """Subscribed to games' "a game ended" (tournaments/apps.py): the event's results of the game,
    in the transaction that ends it. An aborted game scores nothing; its table is done."""
    et = (
        EventTable.objects.select_for_update()
        .filter(game_id=game_id, done=False)
        .select_related("tournament")
        .first()
    )
    if et is None:
        return
    t = et.tournament
    now = timezone.now()
    et.done = True
    et.save(update_fields=["done"])
    if Game.objects.filter(pk=game_id, status=GameStatus.FINISHED).exists():
        seats = list(et.seats.all())
        for r in _table_results(et, seats):
            entry = Entry.objects.select_for_update().get(pk=r.entry)
            tally = _tally(entry)
            counted = scoring.tally_game(tally, r.base, r.won, t.format == Format.ARENA)
            Result.objects.create(
                tournament=t, entry=entry, game_id=game_id, round=et.round, seat=r.seat, place=r.place,
                players=r.players, points=counted, won=r.won, bot_played=r.bot_played,
            )  # fmt: skip
            entry.free_since = now
            _store(entry, tally)
    # Its players' pages: the standings with this game's results (and its entrants' lists of
    # games), and each player free again.
    entries = [s.entry for s in et.seats.select_related("entry") if s.entry is not None]
    tournament_changed(t.pk, users=[e.user_id for e in entries], games_of=[e.pk for e in entries])
    transaction.on_commit(lambda: _wake(t.pk))


def _wake(tournament_id: int) -> None:
    """The event's next step soon after a game ends (the beat's would come within seconds anyway):
    sent by name, so the services never import the tasks."""
    current_app.send_task("tournaments.tasks.tournament_tick", args=[tournament_id])


# --- the refold --------------------------------------------------------------------------------


@dataclass
class Refold:
    tallies: dict[int, scoring.Tally] = field(default_factory=dict)  # per entry
    results: dict[tuple[int, int], tuple[int, int, int, bool, bool]] = field(default_factory=dict)
    games: int = 0


def tournament_refold(tournament: Tournament) -> Refold:
    """Every result of the event folded again from its games' logs, each entrant's games in the
    order they ended, byes as the seating recorded them."""
    out = Refold()
    arena = tournament.format == Format.ARENA
    for e in Entry.objects.filter(tournament=tournament):
        out.tallies[e.pk] = scoring.Tally()
    tables = (
        EventTable.objects.filter(tournament=tournament, game__status=GameStatus.FINISHED)
        .select_related("game")
        .order_by("game__finished_at", "game_id")
    )
    for et in tables:
        out.games += 1
        for r in _table_results(et, list(et.seats.all())):
            counted = scoring.tally_game(out.tallies[r.entry], r.base, r.won, arena)
            out.results[(r.entry, et.game_id or 0)] = (r.place, r.players, counted, r.won, r.bot_played)
    for bye in Result.objects.filter(tournament=tournament, game__isnull=True):
        scoring.tally_bye(out.tallies[bye.entry_id])
    return out


def tournament_differences(tournament: Tournament, refold: Refold) -> list[str]:
    lines = []
    for e in Entry.objects.filter(tournament=tournament).order_by("id"):
        want = refold.tallies[e.pk]
        got = (e.score, e.games, e.wins, e.streak, e.byes)
        if got != (want.score, want.games, want.wins, want.streak, want.byes):
            lines.append(f"entry {e.pk} (score, games, wins, streak, byes): stored {got}, refolded {want}")
    stored = {
        (r.entry_id, r.game_id): (r.place, r.players, r.points, r.won, r.bot_played)
        for r in Result.objects.filter(tournament=tournament, game__isnull=False)
    }
    for key in sorted(set(stored) | set(refold.results)):
        if stored.get(key) != refold.results.get(key):
            lines.append(
                f"entry {key[0]} game {key[1]}: stored {stored.get(key)}, refolded {refold.results.get(key)}"
            )
    return lines


def tournament_write(tournament: Tournament, refold: Refold) -> None:
    with transaction.atomic():
        for e in Entry.objects.select_for_update().filter(tournament=tournament):
            t = refold.tallies[e.pk]
            e.score, e.games, e.wins, e.streak, e.byes = t.score, t.games, t.wins, t.streak, t.byes
            e.save(update_fields=["score", "games", "wins", "streak", "byes"])
        for r in Result.objects.select_for_update().filter(tournament=tournament, game__isnull=False):
            want = refold.results.get((r.entry_id, r.game_id or 0))
            if want is not None:
                r.place, r.players, r.points, r.won, r.bot_played = want
                r.save(update_fields=["place", "players", "points", "won", "bot_played"])
        tournament_changed(tournament.pk, games_of=refold.tallies)  # any result may have changed


# --- the beat ----------------------------------------------------------------------------------


def tournament_tick(*, tournament_id: int) -> None:
    """One event's periodic step: start it at its time, seat what is due, finish it, and let the
    people of its ended games leave their tables."""
    t = Tournament.objects.get(pk=tournament_id)
    if t.status == Status.SCHEDULED and timezone.now() >= t.starts_at:
        t = tournament_start(tournament=t)
    elif t.status == Status.RUNNING:
        tournament_seat_round(tournament=t)
    tournament_release_tables(tournament=t)


def tournaments_due() -> list[int]:
    """The events the beat looks at: scheduled to start by now, running, or ended with tables
    whose people have not left them yet (a cancelled event's games that went on to their end)."""
    now = timezone.now()
    ended = (
        EventTable.objects.filter(tournament__status__in=(Status.FINISHED, Status.CANCELLED), done=True)
        .exclude(table__status=TableStatus.CLOSED)
        .values_list("tournament_id", flat=True)
        .distinct()
    )
    due = Tournament.objects.filter(status=Status.SCHEDULED, starts_at__lte=now)
    running = Tournament.objects.filter(status=Status.RUNNING)
    return list(due.values_list("pk", flat=True)) + list(running.values_list("pk", flat=True)) + sorted(ended)


# Entrants are told this long before their event starts.
STARTING_NOTICE = timedelta(minutes=5)


def tournaments_starting_notify() -> int:
    """The beat's: every entrant still in an event that starts within STARTING_NOTICE is told,
    once per person and event (the notification's `once`); how many were told."""
    now = timezone.now()
    soon = Tournament.objects.filter(
        status=Status.SCHEDULED, starts_at__gt=now, starts_at__lte=now + STARTING_NOTICE
    )
    told = 0
    for t in soon.only("pk", "name", "starts_at"):
        once = f"tournament:{t.pk}"
        entrants = set(
            Entry.objects.filter(tournament=t, withdrawn=False, removed_at__isnull=True).values_list(
                "user_id", flat=True
            )
        )
        # Those told already are passed over here, not refused one by one by the unique index.
        entrants -= set(
            Notification.objects.filter(user_id__in=entrants, once=once).values_list("user_id", flat=True)
        )
        data = {"tournament": t.pk, "name": t.name, "starts_at": t.starts_at.isoformat()}
        people = sorted(entrants)
        for first in range(0, len(people), NOTICES_A_TRANSACTION):
            with transaction.atomic():  # the chunk's pushes in one task for the worker
                for user_id in people[first : first + NOTICES_A_TRANSACTION]:
                    try:  # one person's failure stops no other's notice
                        with transaction.atomic():
                            sent = notification_send(
                                user_id=user_id, kind=Kind.TOURNAMENT_STARTING, data=data, once=once
                            )
                    except Exception:
                        log.exception("could not tell person %s that tournament %s starts", user_id, t.pk)
                        continue
                    told += sent is not None
    return told


# What a person may do to a tournament by name (the API's and the pages' action URLs).
TOURNAMENT_ACTIONS = {
    "join": tournament_join,
    "withdraw": tournament_withdraw,
    "pause": tournament_pause,
    "cancel": tournament_cancel,
}
