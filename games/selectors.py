"""Reads: what a person may see of tables and games."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db.models import Count, Q, QuerySet, Sum
from django.template.loader import render_to_string
from django.utils import translation

from harehra import StoredEvent, event_for, legal_commands, view_for
from harehra.placings import Outcome, outcome_from_log
from plumbing import clock
from plumbing.hooks import Hook

from . import sql
from .access import AnyUser, access_game_view, games_viewable
from .eventlog import events_with_seq, load_state
from .labels import seat_name
from .models import Game, GameEvent, GameSeat, GameStatus, Holiday, Table, TableStatus, Visibility

# Ratings to show beside players' names: {user id: rating} for the user ids it is sent (the
# ratings app subscribes; with none, names show alone).
player_ratings = Hook("ratings beside players' names")
# What a game is part of beyond its table, for its page: each subscriber answers the game's id with
# a dict of its own keys (the tournaments app: {"event": {...}} for a game an event seated), or {}.
game_part_of = Hook("what a game is part of")


def game_context(game_id: int) -> dict[str, Any]:
    """The game page's extra keys from the apps above games (none: an ordinary table's game)."""
    found: dict[str, Any] = {}
    for part in game_part_of.send(game_id):
        found.update(part or {})
    return found


def _ratings_of(user_ids: list[int]) -> dict[int, Any]:
    found: dict[int, Any] = {}
    for ratings in player_ratings.send(user_ids):
        found.update(ratings)
    return found


def table_list_open() -> QuerySet[Table]:
    """Public tables that are waiting for players or between games, newest first."""
    return (
        Table.objects.filter(visibility=Visibility.PUBLIC)
        .exclude(status=TableStatus.CLOSED)
        .select_related("host")
        .prefetch_related("seat_set__user")
        .order_by("-created_at")
    )


LOBBY_LIMIT = 50  # tables the lobby lists at most


def _lobby_rows(tables: list[Table]) -> list[dict[str, Any]]:
    rows = [{"table": t, "seats": list(t.seat_set.all())} for t in tables]
    ratings = _ratings_of([s.user_id for r in rows for s in r["seats"] if s.user_id])
    for r in rows:
        for seat in r["seats"]:
            seat.rating = ratings.get(seat.user_id)  # type: ignore[attr-defined]
    running = dict(running_games_by_table([t.pk for t in tables if t.status == TableStatus.PLAYING]))
    for r in rows:
        r["watch_game"] = running.get(r["table"].pk)
    return rows


def lobby_rows() -> list[dict[str, Any]]:
    """The lobby's rows: each open public table with its seats and the game one may watch there."""
    return _lobby_rows(list(table_list_open()[:LOBBY_LIMIT]))


def lobby_language(code: str | None) -> str:
    """One of the site's languages: `code` if it is one, else the site's own (a lobby socket says
    its page's language in its address; a wrong or missing one gets the site's)."""
    return code if code in {c for c, _name in settings.LANGUAGES} else settings.LANGUAGE_CODE


def lobby_html(language: str | None = None) -> str:
    """The lobby's whole list, as its page shows it in `language` (the site's when none): what a
    lobby socket sends when it (re)connects."""
    with translation.override(lobby_language(language)):
        return render_to_string("games/_lobby_tables.html", {"tables": lobby_rows(), "limit": LOBBY_LIMIT})


def lobby_change(table_id: int) -> dict[str, Any] | None:
    """What lobbies are told when a table changes: `html`, its new row in each of the site's
    languages ({code: markup}), or None once the lobby no longer lists it (closed, gone). None for
    a private table: the lobby never hears of those.

    Rendered once per change and language, and sent to every lobby socket, which passes on the row
    in its page's language: so the row holds nothing that depends on who looks (no user, no CSRF
    token), and a Czech lobby stays Czech whoever made the change.
    """
    table = table_list_open().filter(pk=table_id).first()
    if table is None:
        if Table.objects.filter(pk=table_id).exclude(visibility=Visibility.PUBLIC).exists():
            return None
        return {"table": table_id, "html": None}
    row = _lobby_rows([table])[0]
    html = {}
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            html[code] = render_to_string("games/_lobby_table_row.html", {"row": row})
    return {"table": table_id, "html": html}


def table_current_game(table: Table) -> Game | None:
    return table.games.order_by("-number").first()


def _seat_rows(game: Game | int) -> list[GameSeat]:
    return list(GameSeat.objects.filter(game=game).select_related("user").order_by("seat"))


def seat_labels(game: Game | int) -> list[dict[str, Any]]:
    return _labels(_seat_rows(game))


def _labels(rows: list[GameSeat]) -> list[dict[str, Any]]:
    return [
        {
            "seat": r.seat,
            "name": seat_name(r),
            "is_bot": r.is_bot,
            "bot_playing": r.bot_playing,
            "bot_level": r.bot_level,
        }
        for r in rows
    ]


# A game's seat names are fixed when it is made, so a process reads them once per game and
# language (a bot's name has its level in the page's words: "Bot 2 · běžný").
_NAMES: dict[tuple[int, str], list[str]] = {}
_NAMES_SIZE = 4096


def seat_names(game_id: int) -> list[str]:
    key = (game_id, translation.get_language() or settings.LANGUAGE_CODE)
    names = _NAMES.get(key)
    if names is None:
        names = [label["name"] for label in seat_labels(game_id)]
        if len(_NAMES) >= _NAMES_SIZE:
            _NAMES.pop(next(iter(_NAMES)), None)
        _NAMES[key] = names
    return names


def game_read_now(game: Game | int, user: AnyUser | None = None) -> sql.GameRead:
    """The game, its table and its seats as they are now, in one statement (callers may hold an
    old row), with whether `user` is suspended or banned; Game.DoesNotExist if there is none."""
    game_id = game if isinstance(game, int) else game.pk
    read = sql.game_read(game_id, user.pk if user is not None and user.is_authenticated else None)
    if read is None:
        raise Game.DoesNotExist(f"no game {game_id}")
    return read


def game_view(
    game: Game, user: AnyUser, invite: str | None = None, read: sql.GameRead | None = None
) -> dict[str, Any]:
    """The game as `user` may see it: their seat's view, or a spectator's, with its seq (`invite`:
    the table's invite the request came with; `read`: the game as the caller has just read it)."""
    read = read or game_read_now(game)
    return _view_of(read.game, _viewer_seat(read, user, invite), read.seats)


def game_catch_up(
    game: Game, user: AnyUser, after: int, invite: str | None = None, read: sql.GameRead | None = None
) -> dict[str, Any]:
    """What a socket that has seen the log up to `after` needs, from one read of the game and its
    seats (`read`, when the caller has just made it): the events after it as `user` may see them
    (to the log's end now: callers may hold an old row, and a socket that missed a push must catch
    up) and the view they lead to."""
    read = read or game_read_now(game)
    game, seat = read.game, _viewer_seat(read, user, invite)
    missed = sql.events_with_seq_between(game.pk, after, game.last_seq) if after < game.last_seq else []
    events = [{"seq": seq, "event": event_for(e, seat)} for seq, e in missed]
    return {"events": events, "view": _view_of(game, seat, read.seats)}


def _viewer_seat(read: sql.GameRead, user: AnyUser, invite: str | None) -> int | None:
    """The seat `user` plays (read from the game's seat rows), else what the access rule says a
    spectator may see (not_found for a stranger to a private game)."""
    return access_game_view(read.game, user, invite, seats=read.seats)


def _view_of(game: Game, seat: int | None, rows: list[GameSeat]) -> dict[str, Any]:
    state = load_state(game)
    row = next((r for r in rows if r.seat == seat), None) if seat is not None else None
    return {
        "id": game.pk,
        "table": game.table_id,
        "number": game.number,
        "status": game.status,
        "seq": game.last_seq,
        "deadline": game.deadline_at.isoformat() if game.deadline_at else None,
        "seats": _labels(rows),
        "view": view_for(state, seat),
        "legal": legal_commands(state, seat) if row is not None and not row.bot_playing else [],
        "places": game_places(game.pk, game.status, game.last_seq),
        # One more missed turn (or discard) and a bot plays the viewer's seat (docs/PROTOCOL.md).
        "away_warning": row is not None
        and row.warned_at(slow=game.slow)
        and game.status == GameStatus.RUNNING,
    }


# A finished game's places never change, so a process reads a game's log for them once.
_PLACES: dict[tuple[int, int], list[int]] = {}


def game_places(game_id: int, status: str, last_seq: int) -> list[int] | None:
    """Each seat's place once the game has finished (1 = first; shared places repeat), by the one
    rule (harehra/placings.py) the ratings follow too; None while it runs and for an aborted game.
    `last_seq` is the game's last, where its log ends."""
    if status != GameStatus.FINISHED:
        return None
    places = _PLACES.get((game_id, last_seq))
    if places is None:
        places = outcome_from_log(sql.events_between(game_id, 0, last_seq)).places
        if len(_PLACES) >= _NAMES_SIZE:
            _PLACES.pop(next(iter(_PLACES)), None)
        _PLACES[(game_id, last_seq)] = places
    return places


def game_events_for(
    game: Game, user: AnyUser, after: int = 0, invite: str | None = None
) -> list[dict[str, Any]]:
    """The events after `after` as `user` may see them, to the log's end now."""
    # Callers may hold an old row (a socket keeps the one it opened with): its last_seq would end
    # a resume where the socket opened, and a socket that missed a push would never catch up.
    game = Game.objects.select_related("table").get(pk=game.pk)
    seat = access_game_view(game, user, invite)
    return [
        {"seq": seq, "event": event_for(e, seat)}
        for seq, e in events_with_seq(game, after=after, upto=game.last_seq)
    ]


def user_game_stats(user: AnyUser) -> dict[str, int]:
    finished = GameSeat.objects.filter(user_id=user.pk, game__status=GameStatus.FINISHED)
    agg = finished.aggregate(
        played=Count("pk"),
        drawn=Count("pk", filter=Q(game__result="draw")),
    )
    won = sum(1 for seat, winner in finished.values_list("seat", "game__winner_seat") if seat == winner)
    return {"played": agg["played"], "won": won, "drawn": agg["drawn"]}


def _listed(viewer: AnyUser | None, player: AnyUser, prefix: str = "") -> Q:
    """Which of `player`'s games `viewer` may see listed: all of their own; otherwise only games at
    public tables that are running or have a public, unhidden replay."""
    if viewer is not None and viewer.is_authenticated and viewer.pk == player.pk:
        return Q()
    return Q(**{f"{prefix}table__visibility": Visibility.PUBLIC, f"{prefix}replay_hidden": False}) & (
        Q(**{f"{prefix}status": GameStatus.RUNNING}) | Q(**{f"{prefix}table__replay_access": "public"})
    )


def table_games_for(table: Table, user: AnyUser) -> QuerySet[Game]:
    """The games of a table `user` may view (each as access_game_view would answer), in order."""
    return table.games.filter(games_viewable(user)).distinct().order_by("number")


def user_games(user: AnyUser, limit: int = 50, viewer: AnyUser | None = None) -> QuerySet[Game]:
    return (
        Game.objects.filter(_listed(viewer, user), game_seats__user_id=user.pk)
        .select_related("table")
        .order_by("-created_at")[:limit]
    )


def presence_of(game_id: int) -> list[dict[str, Any]]:
    """Per seat: connected, away (its person gone while a bot plays it), or a bot's own seat."""
    return seats_presence(GameSeat.objects.filter(game_id=game_id).order_by("seat"))


def seats_presence(rows: Iterable[GameSeat]) -> list[dict[str, Any]]:
    """`presence_of` from the game's seat rows, in seat order, as the caller read them."""
    out = []
    for r in rows:
        if r.is_bot:
            status = "bot"
        elif r.bot_playing:
            status = "away"
        elif r.connections:
            status = "connected"
        else:
            status = "disconnected"
        out.append({"seat": r.seat, "status": status, "bot_playing": r.bot_playing})
    return out


def user_recent_games(user: AnyUser, limit: int = 20, viewer: AnyUser | None = None) -> list[dict[str, Any]]:
    """A player's latest games with their seat and how each ended for them (for the profile page)."""
    rows = (
        GameSeat.objects.filter(_listed(viewer, user, "game__"), user_id=user.pk)
        .select_related("game")
        .order_by("-game__created_at")[:limit]
    )
    out = []
    for r in rows:
        g = r.game
        if g.status == GameStatus.RUNNING:
            outcome = "running"
        elif g.status == GameStatus.ABORTED:
            outcome = "aborted"
        elif g.result == "draw":
            outcome = "draw"
        else:
            outcome = "won" if g.winner_seat == r.seat else "lost"
        out.append({"game": g, "seat": r.seat, "outcome": outcome})
    return out


def running_games_by_table(table_ids: list[int]) -> list[tuple[int, int]]:
    """(table, game) for the running game of each table, so the lobby can offer to watch it."""
    if not table_ids:
        return []
    return list(
        Game.objects.filter(table_id__in=table_ids, status=GameStatus.RUNNING).values_list("table_id", "pk")
    )


def game_seat_auto_answer(game: Game, seat: int) -> bool:
    """Whether the seat chose "answer for me when I can't"."""
    return GameSeat.objects.filter(game=game, seat=seat, auto_answer=True).exists()


def game_seat_standing_answers(game: Game, seat: int) -> dict[str, str]:
    """The seat's standing answers `{volley, skip}`: for its own person only (the caller checks),
    never in anything another viewer receives."""
    volley, skip = GameSeat.objects.values_list("standing_volley", "standing_skip").get(game=game, seat=seat)
    return {"volley": volley, "skip": skip}


def game_outcome(game_id: int) -> Outcome:
    """A finished game's placings and who a bot played to its end, from its log (the one rule,
    harehra/placings.py): what tournaments score."""
    last_seq = Game.objects.values_list("last_seq", flat=True).get(pk=game_id)
    return outcome_from_log(sql.events_between(game_id, 0, last_seq))


def game_finished_log(game_id: int) -> list[StoredEvent] | None:
    """A game's whole log if it ended by the rules (a win or a draw), else None (running,
    aborted or unknown): what an analysis of the game reads. Through the ORM, so that a read on a
    replica (plumbing/replica.py) reads both the game and its log there."""
    finished = Game.objects.filter(pk=game_id, status=GameStatus.FINISHED)
    last_seq = finished.values_list("last_seq", flat=True).first()
    if last_seq is None:
        return None
    rows = (
        GameEvent.objects.filter(game_id=game_id, seq__lte=last_seq)
        .order_by("seq")
        .values_list("type", "version", "payload")
    )
    events: list[StoredEvent] = [
        {**payload, "type": kind, "version": version} for kind, version, payload in rows
    ]
    return events if events and events[-1]["type"] == "GameEnded" else None


def finished_game_ids(since: datetime | None = None, game_id: int | None = None) -> list[int]:
    """Ids of the games that ended by the rules (finished at or after `since`), oldest first."""
    games = Game.objects.filter(status=GameStatus.FINISHED)
    if since is not None:
        games = games.filter(finished_at__gte=since)
    if game_id is not None:
        games = games.filter(pk=game_id)
    return list(games.order_by("finished_at", "pk").values_list("pk", flat=True))


def live_running_games() -> list[int]:
    """The running live games' ids, from their partial index (`game_running_live`): the sweeps
    over live games' seats read these first, then the seats by the (game, seat) index. In one
    statement joined to the seats the planner reads every seat row instead: the slow games' seats,
    by far the most beside 100,000 slow games, look like candidates to its statistics (their
    people gone from the page for hours), though no slow game is one (bench_slow_deadlines)."""
    return list(Game.objects.filter(status=GameStatus.RUNNING, slow=False).values_list("pk", flat=True))


# --- My games -----------------------------------------------------------------------------------

MY_GAMES_FINISHED = 20  # finished games My games lists at most (those of the last few days)


def my_games(user: AnyUser, now: datetime | None = None) -> dict[str, Any]:
    """Every running game of `user` (live and slow), those awaiting their decision first, each by
    its deadline; then the games they finished in the last MY_GAMES_FINISHED_DAYS days (at most
    MY_GAMES_FINISHED). Each with its table, the other players, the pace, whose decision and the
    time left: what every spectator may see, never a card.

    Three statements whatever the number of games (the person's seats with their games and
    tables, twice, and every seat of those games with its person): SLOW_GAMES_MAX bounds the
    slow ones, and My games must open fast for a person with many (docs/BENCHMARKS.md)."""
    now = now or clock.now()
    mine = GameSeat.objects.filter(user_id=user.pk).select_related("game__table").order_by("-game_id")
    running = list(mine.filter(game__status=GameStatus.RUNNING))
    since = now - timedelta(days=settings.MY_GAMES_FINISHED_DAYS)
    finished = list(
        mine.exclude(game__status=GameStatus.RUNNING).filter(game__finished_at__gte=since)[:MY_GAMES_FINISHED]
    )
    ids = [r.game_id for r in running + finished]
    seats: dict[int, list[GameSeat]] = {}
    if ids:
        for r in GameSeat.objects.filter(game_id__in=ids).select_related("user").order_by("game_id", "seat"):
            seats.setdefault(r.game_id, []).append(r)
    playing = [_my_game_row(r, seats.get(r.game_id, []), now) for r in running]
    # Waiting for the person first, soonest deadline first; a game with no deadline last.
    far = now + timedelta(days=3650)
    playing.sort(key=lambda g: (not g["your_decision"], g["deadline"] or far, -g["game"]))
    return {
        "games": playing,
        "finished": [_my_game_row(r, seats.get(r.game_id, []), now) for r in finished],
        "waiting": sum(1 for g in playing if g["your_decision"]),
    }


def _outcome(game: Game, seat: int) -> str:
    if game.status == GameStatus.RUNNING:
        return "running"
    if game.status == GameStatus.ABORTED:
        return "aborted"
    if game.result == "draw":
        return "draw"
    return "won" if game.winner_seat == seat else "lost"


def _my_game_row(row: GameSeat, seats: list[GameSeat], now: datetime) -> dict[str, Any]:
    game, table = row.game, row.game.table
    running = game.status == GameStatus.RUNNING
    awaited = next((s for s in seats if s.seat == game.awaiting_seat), None) if running else None
    deadline = game.deadline_at if running and awaited is not None else None
    return {
        "game": game.pk,
        "table": table.pk,
        "number": game.number,
        "url": f"/games/{game.pk}/",
        "pace": table.pace,
        "decision_seconds": table.turn_timer,
        "rated": table.rated,
        "status": game.status,
        "seat": row.seat,
        "bot_playing": row.bot_playing,  # a bot plays the person's own seat (they may take it back)
        "others": [
            {"seat": s.seat, "name": seat_name(s), "is_bot": s.is_bot, "bot_playing": s.bot_playing}
            for s in seats
            if s.seat != row.seat
        ],
        "awaiting": None
        if awaited is None
        else {
            "seat": awaited.seat,
            "name": seat_name(awaited),
            "kind": game.awaiting_kind,
            "you": awaited.seat == row.seat,
        },
        "your_decision": awaited is not None and awaited.seat == row.seat and not row.bot_playing,
        "deadline": deadline,
        "seconds_left": max(0, int((deadline - now).total_seconds())) if deadline is not None else None,
        "outcome": _outcome(game, row.seat),
        "finished_at": game.finished_at,
    }


# --- Holidays (games/services/holidays.py) ------------------------------------------------------

HOLIDAY_YEAR = timedelta(days=365)


def holiday_current(user_id: int, now: datetime | None = None) -> Holiday | None:
    now = now or clock.now()
    return Holiday.objects.filter(user_id=user_id, starts_at__lte=now, ends_at__gt=now).first()


def holiday_days_used(user_id: int, now: datetime | None = None) -> int:
    """Days of holiday charged in the 365 days before `now` (a holiday counts where it began)."""
    now = now or clock.now()
    recent = Holiday.objects.filter(user_id=user_id, starts_at__gt=now - HOLIDAY_YEAR)
    return int(recent.aggregate(n=Sum("days"))["n"] or 0)


def holiday_status(user_id: int, now: datetime | None = None) -> dict[str, Any]:
    """What the person's holiday page and API show: the allowance, the days used and left, and
    the holiday running now (or None)."""
    now = now or clock.now()
    used = holiday_days_used(user_id, now)
    current = holiday_current(user_id, now)
    allowance = settings.HOLIDAY_DAYS_PER_YEAR
    return {
        "allowance": allowance,
        "used": used,
        "left": max(allowance - used, 0),
        "current": None
        if current is None
        else {"starts_at": current.starts_at, "ends_at": current.ends_at, "days": current.days},
    }
