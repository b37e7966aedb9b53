"""Tables: create, sit, leave, bots, and starting the games of a series."""

from __future__ import annotations

from dataclasses import dataclass, replace

from django.db import transaction

from games.publish import publish_next_game, publish_table_changed
from harehra import EngineError, make_ruleset, replay, start_game
from harehra.bots import DEFAULT_LEVEL
from harehra.ruleset import BASE_MIN_PLAYERS, MAX_MINI, MAX_PLAYERS
from plumbing.errors import ServiceError
from relations.selectors import blocks

from ..access import (
    AnyUser,
    access_signed_in,
    access_slow_games_room,
    access_table_host,
    access_table_seated,
    access_table_view,
)
from ..models import (
    SLOW_DECISION_SECONDS,
    BotLevel,
    Game,
    GameSeat,
    GameStatus,
    Pace,
    ReplayAccess,
    Seat,
    Table,
    TableStatus,
    Visibility,
)
from .moves import game_append
from .seats import seat_hand_to_bot
from .shuffle import deck_shuffle


@dataclass(frozen=True)
class Bounds:
    low: int
    high: int


# What a table may be set to: the one place its limits are written. The table form and the API's
# serializer take their bounds from here, and _check_settings holds every caller to them.
TABLE_LIMITS: dict[str, Bounds] = {
    "seats": Bounds(BASE_MIN_PLAYERS, MAX_PLAYERS),  # how many a ruleset allows depends on its packs
    "mini": Bounds(0, MAX_MINI),
    "turn_timer": Bounds(5, 600),
    "reaction_timer": Bounds(3, 600),
    "discard_timer": Bounds(3, 600),
}


@dataclass(frozen=True)
class TableSettings:
    seats: int = 4
    packs: tuple[str, ...] = ()
    mini: int = 0
    turn_timer: int = 30
    reaction_timer: int = 10
    discard_timer: int = 10
    visibility: str = Visibility.PUBLIC
    replay_access: str = ReplayAccess.PUBLIC
    rated: bool = True
    chat_enabled: bool = True
    away_bot_level: str = DEFAULT_LEVEL  # plays the seats of people away or gone
    # Live: the three timers above, in seconds. Slow: one time per decision, one of
    # SLOW_DECISION_SECONDS, for turns, reactions and discards alike (the timers are not given).
    pace: str = Pace.LIVE
    decision_seconds: int | None = None

    def stored(self) -> TableSettings:
        """The settings as the table keeps them: a slow table's one time in its three timers."""
        if self.pace != Pace.SLOW or self.decision_seconds is None:
            return self
        t = self.decision_seconds
        return replace(self, turn_timer=t, reaction_timer=t, discard_timer=t)


def _check_pace(s: TableSettings) -> None:
    """A live table's timers are in seconds (TABLE_LIMITS); a slow table's one time per decision
    is one of SLOW_DECISION_SECONDS. `bad_pace` for anything else, before anything is written."""
    if s.pace not in Pace.values:
        raise ServiceError("bad_pace", "pace is live or slow")
    choices = ", ".join(str(c) for c in SLOW_DECISION_SECONDS)
    if s.pace == Pace.SLOW:
        if s.decision_seconds not in SLOW_DECISION_SECONDS:
            raise ServiceError("bad_pace", f"a slow table's decision_seconds is one of {choices}")
        given = {s.turn_timer, s.reaction_timer, s.discard_timer}
        if given not in ({s.decision_seconds}, {TableSettings.turn_timer, TableSettings.reaction_timer}):
            raise ServiceError(
                "bad_pace", "a slow table has one time per decision: give decision_seconds, not the timers"
            )
    elif s.decision_seconds is not None:
        raise ServiceError("bad_pace", "decision_seconds is for slow tables: a live table gives its timers")


def _check_settings(s: TableSettings) -> None:
    _check_pace(s)
    try:
        ruleset = make_ruleset(s.packs, s.mini)
    except EngineError as e:
        raise ServiceError("bad_settings", e.detail) from e
    if not ruleset.min_players <= s.seats <= ruleset.max_players:
        raise ServiceError(
            "bad_settings",
            f"with these packs a table seats {ruleset.min_players} to {ruleset.max_players} players",
        )
    for name in ("turn_timer", "reaction_timer", "discard_timer") if s.pace == Pace.LIVE else ():
        bounds = TABLE_LIMITS[name]
        if not bounds.low <= getattr(s, name) <= bounds.high:
            raise ServiceError("bad_settings", f"{name} is {bounds.low} to {bounds.high} seconds")
    if s.visibility not in Visibility.values:
        raise ServiceError("bad_settings", "visibility is public or private")
    if s.replay_access not in ReplayAccess.values:
        raise ServiceError("bad_settings", "replay_access is public, link or players")
    if s.away_bot_level not in BotLevel.values:
        raise ServiceError("bad_settings", "away_bot_level is easy, normal or hard")


def table_settings_check(s: TableSettings) -> None:
    """Refuse settings no table may have (bad_settings), before anything is written: a challenge
    checks the table it will create when it is made, not when it starts."""
    _check_settings(s)


def _changed(table: Table) -> None:
    transaction.on_commit(lambda: publish_table_changed(table.pk))


def _locked(table: Table) -> Table:
    return Table.objects.select_for_update().get(pk=table.pk)


def table_create(*, host: AnyUser, settings: TableSettings) -> Table:
    access_signed_in(host)
    _check_settings(settings)
    settings = settings.stored()
    with transaction.atomic():
        table = Table.objects.create(
            host=host,
            seats=settings.seats,
            packs=list(settings.packs),
            mini=settings.mini,
            turn_timer=settings.turn_timer,
            reaction_timer=settings.reaction_timer,
            discard_timer=settings.discard_timer,
            visibility=settings.visibility,
            replay_access=settings.replay_access,
            rated=bool(settings.rated),
            chat_enabled=bool(settings.chat_enabled),
            away_bot_level=settings.away_bot_level,
            pace=settings.pace,
        )
        if table.is_slow:  # the host takes seat 0
            access_slow_games_room(host)
        Seat.objects.bulk_create(
            [Seat(table=table, number=n, user=host if n == 0 else None) for n in range(settings.seats)]
        )
        _changed(table)
    return table


def _open_seat(table: Table, seat: int | None) -> Seat:
    if seat is not None:
        if not 0 <= seat < table.seats:
            raise ServiceError("bad_seat", f"seats are numbered 0 to {table.seats - 1}")
        chair = table.seat_set.select_for_update().get(number=seat)
        if not chair.is_empty:
            raise ServiceError("seat_taken", f"seat {seat} is taken", 409)
        return chair
    chair = (
        table.seat_set.select_for_update().filter(user__isnull=True, is_bot=False).order_by("number").first()
    )
    if chair is None:
        raise ServiceError("table_full", "every seat is taken", 409)
    return chair


def _not_playing(table: Table) -> None:
    if table.status == TableStatus.PLAYING:
        raise ServiceError("game_running", "wait until the game in progress ends", 409)
    if table.status == TableStatus.CLOSED:
        raise ServiceError("table_closed", "this table is closed", 409)


def table_join(
    *, table: Table, user: AnyUser, seat: int | None = None, invite_code: str | None = None
) -> Seat:
    access_signed_in(user)
    with transaction.atomic():
        table = _locked(table)
        access_table_view(table, user, invite_code)
        _not_playing(table)
        if table.seat_set.filter(user_id=user.pk).exists():
            raise ServiceError("already_seated", "you already have a seat here", 409)
        if blocks(table.host_id, user.pk):
            raise ServiceError("blocked_by_host", "the host of this table does not play with you", 403)
        if table.is_slow:
            access_slow_games_room(user)
        chair = _open_seat(table, seat)
        chair.user = user  # type: ignore[assignment]
        chair.save(update_fields=["user"])
        _changed(table)
    return chair


def table_leave(*, table: Table, user: AnyUser) -> None:
    """Leaving during a game hands the seat to a bot for the rest of that game."""
    with transaction.atomic():
        table = _locked(table)
        number = access_table_seated(table, user)
        _vacate(table, number, user.pk, "left")


def table_seat_vacate(*, table: Table, user_id: int, reason: str = "left") -> bool:
    """Take a person off a table without asking them, as if they left (a moderator removed them
    from the tournament that seated it): a bot plays their seat to the end of the game running
    there. False when they do not sit there. The caller checks who may."""
    with transaction.atomic():
        table = _locked(table)
        number = table.seat_set.filter(user_id=user_id).values_list("number", flat=True).first()
        if number is None:
            return False
        _vacate(table, number, user_id, reason)
        return True


def _vacate(table: Table, number: int, user_id: int, reason: str) -> None:
    """The person of chair `number` (table locked) leaves it: a bot takes their seat in the running
    game for the rest of it, the host's role passes on, an empty table between games closes."""
    if table.status == TableStatus.PLAYING:
        game = table.games.get(status="running")
        seat_hand_to_bot(game=game, seat=number, reason=reason)
    table.seat_set.filter(number=number).update(user=None)
    if table.host_id == user_id:
        heir = table.seat_set.filter(user__isnull=False).order_by("number").first()
        if heir is not None:
            table.host_id = heir.user_id
        elif table.status != TableStatus.PLAYING:
            table.status = TableStatus.CLOSED
        table.save(update_fields=["host", "status"])
    _changed(table)


def table_add_bot(
    *, table: Table, user: AnyUser, seat: int | None = None, level: str = DEFAULT_LEVEL
) -> Seat:
    """The host seats a bot of `level` (easy, normal or hard) in `seat` or the first open one."""
    if level not in BotLevel.values:
        raise ServiceError("bad_level", "a bot's level is easy, normal or hard")
    with transaction.atomic():
        table = _locked(table)
        access_table_host(table, user)
        _not_playing(table)
        chair = _open_seat(table, seat)
        chair.is_bot = True
        chair.bot_level = level
        chair.save(update_fields=["is_bot", "bot_level"])
        _changed(table)
    return chair


def table_remove_bot(*, table: Table, user: AnyUser, seat: int) -> None:
    with transaction.atomic():
        table = _locked(table)
        access_table_host(table, user)
        _not_playing(table)
        if not table.seat_set.filter(number=seat, is_bot=True).update(is_bot=False):
            raise ServiceError("no_bot", f"there is no bot in seat {seat}", 409)
        _changed(table)


def table_start(*, table: Table, user: AnyUser) -> Game:
    """The host starts the first game once every seat is filled."""
    with transaction.atomic():
        table = _locked(table)
        access_table_host(table, user)
        if table.games.exists():
            raise ServiceError("already_started", "the series has begun: use next-game", 409)
        return _game_create(table)


def table_next_game(*, table: Table, user: AnyUser) -> Game:
    """After a game ends, the host or any seated player starts the next; the shuffler moves on (R13)."""
    with transaction.atomic():
        table = _locked(table)
        access_signed_in(user)
        if table.host_id != user.pk:
            access_table_seated(table, user)
        if table.status != TableStatus.BETWEEN:
            if table.status == TableStatus.PLAYING:
                raise ServiceError("game_running", "the current game has not ended", 409)
            raise ServiceError("not_started", "start the first game first", 409)
        return _game_create(table)


def _game_create(table: Table) -> Game:
    seats = list(table.seat_set.all())
    if any(chair.is_empty for chair in seats):
        raise ServiceError("seats_empty", "every seat must be filled first", 409)
    _not_playing(table)
    ruleset = make_ruleset(table.packs, table.mini)
    events = start_game(ruleset, table.seats, table.next_shuffler, deck_shuffle)
    game = Game.objects.create(
        table=table,
        number=table.games.count() + 1,
        players=table.seats,
        shuffler=table.next_shuffler,
        slow=table.is_slow,
    )
    # A person's standing answers carry over the table's series: they are a way of playing the
    # person chose (a slow table's series runs for weeks), not a reply to one game's cards. Only the
    # same person's, from the table's game before; a new person starts with none.
    standing = {
        user_id: (volley, skip)
        for user_id, volley, skip in GameSeat.objects.filter(
            game__table=table, game__number=game.number - 1, user_id__isnull=False
        ).values_list("user_id", "standing_volley", "standing_skip")
    }
    GameSeat.objects.bulk_create(
        [
            GameSeat(
                game=game,
                seat=c.number,
                user_id=c.user_id,
                is_bot=c.is_bot,
                bot_playing=c.is_bot,
                # A person's seat names the level of the bot that takes it if they go away or leave.
                bot_level=c.bot_level if c.is_bot else table.away_bot_level,
                standing_volley=standing.get(c.user_id, ("ask", "ask"))[0],
                standing_skip=standing.get(c.user_id, ("ask", "ask"))[1],
            )
            for c in seats
        ]
    )
    game.table = table
    game_append(game, events, before=None, after=replay(events), actor_id=None)
    table.status = TableStatus.PLAYING
    table.next_shuffler = (table.next_shuffler + 1) % table.seats
    table.save(update_fields=["status", "next_shuffler"])
    _changed(table)
    previous = table.games.filter(number=game.number - 1).values_list("pk", flat=True).first()
    if previous is not None:
        publish_next_game(previous, game.pk)
    return game


TABLE_ACTIONS = ("join", "leave", "add-bot", "remove-bot", "start", "next-game")


def table_act(
    *,
    table: Table,
    user: AnyUser,
    action: str,
    seat: int | None = None,
    invite_code: str | None = None,
    level: str = DEFAULT_LEVEL,
) -> Game | None:
    """One of a table's actions by name, as the table page's buttons and the API send them; the
    game started, if the action started one."""
    if action == "join":
        table_join(table=table, user=user, seat=seat, invite_code=invite_code)
    elif action == "leave":
        table_leave(table=table, user=user)
    elif action == "add-bot":
        table_add_bot(table=table, user=user, seat=seat, level=level)
    elif action == "remove-bot":
        if seat is None:
            raise ServiceError("bad_seat", "say which seat's bot to remove")
        table_remove_bot(table=table, user=user, seat=seat)
    elif action == "start":
        return table_start(table=table, user=user)
    elif action == "next-game":
        return table_next_game(table=table, user=user)
    else:
        raise ServiceError("not_found", "no such action", 404)
    return None


def user_remove_from_play(*, user: AnyUser, reason: str) -> None:
    """Bots take the user's seats in running games and the user leaves every table they sit at
    (a ban). The caller holds a transaction; tables are locked before their games."""
    table_ids = list(Seat.objects.filter(user_id=user.pk).values_list("table_id", flat=True))
    for table in Table.objects.filter(pk__in=table_ids).order_by("pk"):
        table_seat_vacate(table=table, user_id=user.pk, reason=reason)
    # Seats in running games at tables the user already left (a bot may not yet play them).
    for row in GameSeat.objects.filter(
        user_id=user.pk, bot_playing=False, game__status=GameStatus.RUNNING
    ).select_related("game"):
        seat_hand_to_bot(game=row.game, seat=row.seat, reason=reason)
