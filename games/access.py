"""Who may do what: the one place the service layer asks."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db.models import Q

from accounts.access import AnyUser, access_signed_in, is_moderator
from plumbing.errors import ServiceError

from .models import Game, GameSeat, GameStatus, Pace, ReplayAccess, Seat, Table, TableStatus, Visibility


def access_table_host(table: Table, user: AnyUser) -> None:
    access_signed_in(user)
    if table.host_id != user.pk:
        raise ServiceError("not_host", "only the table's host may do that", 403)


def access_table_seated(table: Table, user: AnyUser) -> int:
    """The seat number `user` holds at `table`."""
    access_signed_in(user)
    seat = table.seat_set.filter(user_id=user.pk).values_list("number", flat=True).first()
    if seat is None:
        raise ServiceError("not_seated", "you have no seat at this table", 403)
    return seat


def slow_games_count(user_id: int) -> int:
    """The slow tables the person sits at now (each a game running or its next one to come)."""
    return (
        Seat.objects.filter(user_id=user_id, table__pace=Pace.SLOW)
        .exclude(table__status=TableStatus.CLOSED)
        .count()
    )


def access_slow_games_room(user: AnyUser) -> None:
    """A person takes one more slow seat only below SLOW_GAMES_MAX (too_many_slow_games). Counted,
    not locked: two seats taken at the same moment at two tables may pass the limit by one, which
    costs nothing; a lock on the person would order itself against the tables' locks."""
    access_signed_in(user)
    limit = settings.SLOW_GAMES_MAX
    if slow_games_count(user.pk) >= limit:
        raise ServiceError(
            "too_many_slow_games",
            f"you play {limit} slow games at once already, the most there may be: finish or leave one first",
            409,
        )


def access_table_view(table: Table, user: AnyUser, invite_code: str | None = None) -> None:
    """Public tables are open to all; private ones to their people and holders of the invite link."""
    if table.visibility == Visibility.PUBLIC or (
        # compared as bytes: compare_digest refuses str with non-ASCII, and a code may hold anything
        isinstance(invite_code, str)
        and secrets.compare_digest(invite_code.encode(), table.invite_code.encode())
    ):
        return
    if user.is_authenticated and (
        table.host_id == user.pk or table.seat_set.filter(user_id=user.pk).exists()
    ):
        return
    raise ServiceError("not_found", "no such table", 404)


def game_seat_of(game: Game, user: AnyUser, seats: list[GameSeat] | None = None) -> int | None:
    """The seat `user` plays in `game` (read from `seats`, the game's seat rows, when the caller
    has them), None for anyone else."""
    if not user.is_authenticated:
        return None
    if seats is not None:
        return next((r.seat for r in seats if r.user_id == user.pk), None)
    return GameSeat.objects.filter(game=game, user_id=user.pk).values_list("seat", flat=True).first()


def access_game_seat_row(
    game: Game, user: AnyUser, rows: list[GameSeat] | None = None, sanctioned: bool | None = None
) -> GameSeat:
    """The seat row `user` plays in `game` (among `rows`, the game's seat rows, and with
    `sanctioned`, when the caller has read them already); spectators and strangers are refused."""
    access_signed_in(user, sanctioned)
    if rows is None:
        row = GameSeat.objects.filter(game=game, user_id=user.pk).first()
    else:
        row = next((r for r in rows if r.user_id == user.pk), None)
    if row is None:
        raise ServiceError("not_seated", "you are not playing in this game", 403)
    return row


def access_game_seat(game: Game, user: AnyUser) -> int:
    return access_game_seat_row(game, user).seat


def access_game_socket(
    game: Game,
    user: AnyUser,
    invite_code: str | None = None,
    seats: list[GameSeat] | None = None,
    sanctioned: bool | None = None,
) -> int | None:
    """Who may open a game's live socket: whoever may view the game (anonymous spectators too);
    a signed-in user only while the account is active and not suspended or banned (`seats` and
    `sanctioned`: the game's seat rows and the user's standing, when the caller read them)."""
    if user.is_authenticated:
        access_signed_in(user, sanctioned)
    return access_game_view(game, user, invite_code, seats=seats)


def access_game_view(
    game: Game,
    user: AnyUser,
    invite_code: str | None = None,
    replay_key: str | None = None,
    seats: list[GameSeat] | None = None,
) -> int | None:
    """The one rule for who may see a game: the seat whose view `user` gets (None: a spectator),
    or not_found. The game page, the watch page, the live socket, the replay pages and the API all
    ask it (`invite_code`: the table's invite the request came with; `replay_key`: it was opened
    by the replay's key, which the caller has checked).

    Its players always see it. While it runs, others watch it when they may see its table (a
    private table: its host, its seated people and whoever holds its invite), unless moderation
    hid it. Once it is over, its log is its replay: others see it only as the replay's access
    setting (public, link-only, players only) and moderation (hidden) allow
    (`access_finished_game`), at a private table too.
    """
    seat = game_seat_of(game, user, seats)
    if seat is not None:
        return seat
    if game.status != GameStatus.RUNNING:
        access_finished_game(game, user, replay_key, seats)
        return None
    access_table_view(game.table, user, invite_code)
    if game.replay_hidden and not is_moderator(user, "hide"):
        raise ServiceError("not_found", "no such game", 404)
    return None


def access_finished_game(
    game: Game, user: AnyUser, key: str | None = None, seats: list[GameSeat] | None = None
) -> None:
    """Who may see a finished game (its replay): its players and moderators always; others as the
    table's replay setting says (`key`: the request came with the replay's key), never while
    moderation hides it. not_found otherwise, so a replay's existence is never revealed."""
    if game_seat_of(game, user, seats) is not None or is_moderator(user, "hide"):
        return
    mode = game.table.replay_access
    if not game.replay_hidden and (
        mode == ReplayAccess.PUBLIC or (mode == ReplayAccess.LINK and key is not None)
    ):
        return
    raise ServiceError("not_found", "no such game", 404)


def games_viewable(user: AnyUser) -> Q:
    """`access_game_view` as a filter, for lists of the games of one viewable table: the games
    `user` may open (tests check the two agree for every kind of viewer and game)."""
    if is_moderator(user, "hide"):
        return Q()
    shown = Q(replay_hidden=False) & (
        Q(status=GameStatus.RUNNING) | Q(table__replay_access=ReplayAccess.PUBLIC)
    )
    if user.is_authenticated:
        shown |= Q(game_seats__user_id=user.pk)
    return shown
