"""The site's pages: parse the request, call a service or selector, render a template."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AnonymousUser
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from harehra.bots import DEFAULT_LEVEL
from plumbing.errors import ServiceError
from plumbing.share import share_tags

from .access import access_game_view, access_table_view
from .card_text import cards_info
from .forms import SeatForm, TableCreateForm
from .invites import clean_invite, invite_remember, request_invite
from .models import Game, GameStatus, Table, TableStatus
from .selectors import (
    LOBBY_LIMIT,
    game_context,
    game_seat_auto_answer,
    game_seat_standing_answers,
    holiday_status,
    lobby_rows,
    my_games,
    seat_labels,
    table_current_game,
)
from .services.holidays import holiday_end, holiday_take
from .services.tables import TABLE_ACTIONS, table_act, table_create


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "games/home.html", {"cards": cards_info()})


def lobby(request: HttpRequest) -> HttpResponse:
    # ?fragment=1: the list alone, as the lobby socket sends it, for a client without the socket.
    template = "games/_lobby_tables.html" if request.GET.get("fragment") else "games/lobby.html"
    return render(request, template, _lobby_context(TableCreateForm()))


def _lobby_context(form: TableCreateForm) -> dict[str, Any]:
    return {"form": form, "tables": lobby_rows(), "limit": LOBBY_LIMIT}


@login_required
@require_POST
def table_new(request: HttpRequest) -> HttpResponse:
    form = TableCreateForm(request.POST)
    if form.is_valid():
        try:
            table = table_create(host=request.user, settings=form.settings())
        except ServiceError as e:
            form.add_error(None, e.detail)
        else:
            messages.success(request, _("Your table is ready. Add bots or wait for players."))
            return redirect("table", pk=table.pk)
    return render(request, "games/lobby.html", _lobby_context(form), status=400)


def _viewable_table(request: HttpRequest, pk: int) -> tuple[Table, str]:
    """The table, if the request may see it, and the invite its page passes on ('' for none): the
    link's, else the one this browser's session remembers, if the person needs it (is not the
    table's host or seated there)."""
    table = get_object_or_404(Table.objects.select_related("host"), pk=pk)
    given = clean_invite(request.GET.get("invite")) or ""
    invite = given or request_invite(request, table.pk) or ""
    try:
        access_table_view(table, request.user, invite or None)
    except ServiceError as e:
        raise Http404(e.detail) from e
    invite_remember(request, table)
    user = request.user
    if (
        invite
        and not given
        and user.is_authenticated
        and (table.host_id == user.pk or table.seat_set.filter(user_id=user.pk).exists())
    ):
        invite = ""  # its own people need no invite in the page's addresses
    return table, invite


def table_page(request: HttpRequest, pk: int) -> HttpResponse:
    table, invite = _viewable_table(request, pk)
    seats = list(table.seat_set.select_related("user").order_by("number"))
    user = request.user
    my_seat = next((s.number for s in seats if user.is_authenticated and s.user_id == user.pk), None)
    game = table_current_game(table)
    games = list(table.games.order_by("number"))
    score: dict[int, int] = {}
    draws = 0
    for g in games:
        if g.status == GameStatus.FINISHED:
            if g.winner_seat is None:
                draws += 1
            else:
                score[g.winner_seat] = score.get(g.winner_seat, 0) + 1
    shuffler = table.next_shuffler
    context = {
        "table": table,
        "seats": [
            {
                "seat": s,
                "wins": score.get(s.number, 0),
                "shuffles_next": s.number == shuffler,
                "mine": s.number == my_seat,
            }
            for s in seats
        ],
        "my_seat": my_seat,
        "is_host": user.is_authenticated and table.host_id == user.pk,
        "game": game,
        "running": game is not None and game.status == GameStatus.RUNNING,
        "games_played": sum(1 for g in games if g.status == GameStatus.FINISHED),
        "draws": draws,
        "invite": invite,
        # where signing in or registering from the page comes back to: the page, never its fragment
        "here": f"/tables/{table.pk}/" + (f"?{urlencode({'invite': invite})}" if invite else ""),
        "invite_url": request.build_absolute_uri(f"/tables/{table.pk}/?invite={table.invite_code}")
        if my_seat is not None or (user.is_authenticated and table.host_id == user.pk)
        else "",
        "full": all(not s.is_empty for s in seats),
        "can_start": table.status == TableStatus.OPEN and not games,
        "can_next": table.status == TableStatus.BETWEEN,
    }
    free = sum(1 for s in seats if s.is_empty)
    image = None
    if game is not None and game.status == GameStatus.RUNNING:
        try:  # the picture is fetched by whoever unfurls the link: only a game anyone may watch
            access_game_view(game, AnonymousUser())
            image = f"/watch/{game.pk}/image.png"
        except ServiceError:
            pass
    context.update(
        share_tags(
            request,
            _("Table %(id)s · hosted by %(host)s") % {"id": table.pk, "host": table.host.username},
            _("%(host)s invites you to play Harehra at table %(id)s. Free seats: %(free)s of %(seats)s.")
            % {"host": table.host.username, "id": table.pk, "free": free, "seats": len(seats)},
            f"/tables/{table.pk}/",
            {"invite": invite},
            image_path=image,
        )
    )
    template = "games/_table_panel.html" if request.GET.get("fragment") else "games/table.html"
    return render(request, template, context)


@login_required
@require_POST
def table_action(request: HttpRequest, pk: int, action: str) -> HttpResponse:
    if action not in TABLE_ACTIONS:
        raise Http404(_("No such action"))
    table = get_object_or_404(Table, pk=pk)
    form = SeatForm(request.POST)
    back = redirect("table", pk=table.pk)
    if not form.is_valid():
        messages.error(request, _("That seat does not exist."))
        return back
    seat, invite = form.cleaned_data["seat"], form.cleaned_data["invite_code"] or None
    try:
        level = form.cleaned_data["level"] or DEFAULT_LEVEL
        game = table_act(
            table=table, user=request.user, action=action, seat=seat, invite_code=invite, level=level
        )
    except ServiceError as e:
        messages.error(request, refusal(e))
        if e.status == 404:
            raise Http404(e.detail) from e
        return back
    if action == "leave":
        return redirect("lobby")
    return redirect("game", pk=game.pk) if game is not None else back


def game_page(request: HttpRequest, pk: int) -> HttpResponse:
    game = get_object_or_404(Game.objects.select_related("table"), pk=pk)
    try:
        seat = access_game_view(game, request.user, request_invite(request, game.table_id))
    except ServiceError as e:
        raise Http404(e.detail) from e
    table = game.table
    invite_remember(request, table)
    config = {
        "game": game.pk,
        "table": table.pk,
        "number": game.number,
        "seat": seat,
        "seats": seat_labels(game),
        "timers": {
            "turn": table.turn_timer,
            "volley": table.reaction_timer,
            "skip": table.reaction_timer,
            "discard": table.discard_timer,
        },
        "cards": cards_info(),
        "auto_answer": seat is not None and game_seat_auto_answer(game, seat),
        "auto_answer_seconds": settings.AUTO_ANSWER_SECONDS,
        # The seat's standing answers go to its own person's page alone (a spectator's has none).
        "standing": game_seat_standing_answers(game, seat) if seat is not None else None,
        # A slow game's turn line says until when its decision waits (static/js/game/prompt.js).
        "slow": game.slow,
        "replay_url": f"/replays/{game.pk}/",
        "table_url": f"/tables/{table.pk}/",
        "event": None,  # a tournament's game: {id, name, format, status, url}, its end screen's way on
        **game_context(game.pk),
    }
    return render(request, "games/game.html", {"game": game, "table": table, "seat": seat, "config": config})


def refusal(error: ServiceError) -> str:
    """A refusal of slow play in the reader's words, by its stable code; others as the service
    said them."""
    allowance = settings.HOLIDAY_DAYS_PER_YEAR
    words = {
        "too_many_slow_games": _(
            "You already play %(limit)s slow games at once, the most there may be: finish or leave one first."
        )
        % {"limit": settings.SLOW_GAMES_MAX},
        "bad_days": _("A holiday is 1 to %(days)s days.") % {"days": allowance},
        "holiday_allowance_exceeded": _("That is more days of holiday than you have left this year."),
        "already_on_holiday": _("You are on holiday already: end it first."),
        "not_on_holiday": _("You are not on holiday."),
    }
    return words.get(error.code, error.detail)


@login_required
def my_games_page(request: HttpRequest) -> HttpResponse:
    context = {**my_games(request.user), "holiday": holiday_status(request.user.pk)}
    return render(request, "games/mine.html", context)


@login_required
@require_POST
def my_holiday(request: HttpRequest, action: str) -> HttpResponse:
    """Take a holiday (`take`, with `days`) or end the one running (`end`), from My games."""
    try:
        if action == "take":
            holiday_take(user=request.user, days=request.POST.get("days"))
            messages.success(
                request, _("Your holiday has begun: your slow games' clocks wait until it ends.")
            )
        elif action == "end":
            holiday_end(user=request.user)
            messages.success(request, _("Welcome back: your slow games' clocks run again."))
        else:
            raise Http404(_("No such action"))
    except ServiceError as e:
        messages.error(request, refusal(e))
    return redirect("my-games")
