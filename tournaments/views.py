"""The tournaments' pages: parse the request, call a service or selector, render a template."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from accounts.access import is_moderator
from plumbing.errors import ServiceError
from plumbing.replica import replica_view

from . import limits
from .forms import TournamentCreateForm
from .models import Status, Tournament
from .publish import GAMES_ASKED_AT_MOST
from .selectors import (
    entry_state,
    tournament_detail,
    tournament_list_rows,
    tournament_results_by_entry,
    tournament_to_show,
)
from .services import TOURNAMENT_ACTIONS as ACTIONS
from .services import tournament_create


def tournament_list_page(request: HttpRequest) -> HttpResponse:
    return render(request, "tournaments/list.html", {"lists": tournament_list_rows()})


@login_required
def tournament_new_page(request: HttpRequest) -> HttpResponse:
    """A player's own arena or Swiss event: the form, and on a valid post the service."""
    if request.method != "POST":
        return render(request, "tournaments/new.html", {"form": TournamentCreateForm(), "limits": _limits()})
    form = TournamentCreateForm(request.POST)
    status = 400
    if form.is_valid():
        try:
            t = tournament_create(user=request.user, **form.spec(timezone.now()))
        except ServiceError as e:
            form.add_error(None, _error_message(e))
            status = e.status
        else:
            messages.success(request, _("Your tournament is created. Enter it yourself if you play."))
            return redirect("tournament", pk=t.pk)
    return render(request, "tournaments/new.html", {"form": form, "limits": _limits()}, status=status)


def _limits() -> dict[str, int]:
    return {"at_once": limits.PLAYER_EVENTS_AT_ONCE, "per_day": limits.PLAYER_EVENTS_PER_DAY}


@replica_view
def tournament_page(request: HttpRequest, pk: int) -> HttpResponse:
    t = tournament_to_show(pk)
    if t is None:
        raise Http404
    detail = tournament_detail(t, request.user)
    results = tournament_results_by_entry(t)
    for row in detail["standings"]:
        row["results"] = results.get(row["entry"], [])
    has_results = any(row["results"] for row in detail["standings"])
    viewer = request.user.get_username() if request.user.is_authenticated else None
    mine = next((row for row in detail["standings"] if row["player"] == viewer), None)
    config = {
        "id": t.pk,
        "socket": f"/ws/tournaments/{t.pk}/",
        "format": t.format,
        "status": t.status,
        "ends_at": detail["ends_at"],
        "me": detail["me"],
        "viewer": viewer,
        # How many players' lists of games the page asks for at once: what the socket takes.
        "games_asked_at_most": GAMES_ASKED_AT_MOST,
    }
    context = {
        "t": t,
        "d": detail,
        "has_results": has_results,
        "mine": mine,  # the viewer's row of the standings: their place once the event is over
        "entry_state": entry_state(t.status, detail["me"]),
        "can_moderate": is_moderator(request.user, "tournament"),
        # The host may call their event off before it starts (staff: moderation's way, audited).
        "can_cancel": t.status == Status.SCHEDULED
        and request.user.is_authenticated
        and t.created_by_id == request.user.pk,
        "config": config,
    }
    return render(request, "tournaments/detail.html", context)


def _done_message(action: str) -> str:
    return {
        "join": _("You are in. Keep this page open: it takes you to your table as soon as you are seated."),
        "withdraw": _("You have left the tournament."),
        "pause": _("Paused: you will not be seated at a new table until you come back."),
        "cancel": _("The tournament is cancelled."),
    }[action]


def _error_message(e: ServiceError) -> str:
    words = {
        "already_entered": _("You are already in this tournament."),
        "withdrawn": _("You withdrew from this tournament."),
        "entry_closed": _("Entry to this tournament is not open."),
        "not_entered": _("You have not entered this tournament."),
        "not_arena": _("Only an arena can be paused."),
        "not_playing": _("You are not being seated in this arena."),
        "ended": _("This tournament has ended."),
        "banned": _("Your account is banned: you cannot enter tournaments."),
        "suspended": _("Your account is suspended: you cannot enter tournaments until the suspension ends."),
        "sanctioned": _("Your account is suspended or banned."),
        "removed": _("A moderator removed you from this tournament."),
        "not_host": _("Only the tournament's host or staff may cancel it."),
        "started": _("The tournament has started: only staff can cancel it now."),
        "too_many_events": ngettext(
            "You already host %(n)d tournament that has not ended. Wait for it to end or cancel it.",
            "You already host %(n)d tournaments that have not ended. Wait for one to end or cancel one.",
            limits.PLAYER_EVENTS_AT_ONCE,
        )
        % {"n": limits.PLAYER_EVENTS_AT_ONCE},
        "too_often": ngettext(
            "You have created %(n)d tournament in the last 24 hours. Please try again later.",
            "You have created %(n)d tournaments in the last 24 hours. Please try again later.",
            limits.PLAYER_EVENTS_PER_DAY,
        )
        % {"n": limits.PLAYER_EVENTS_PER_DAY},
        "bad_dates": _("Those dates cannot be used: %(detail)s") % {"detail": e.detail},
        "bad_settings": _("Those settings cannot be used: %(detail)s") % {"detail": e.detail},
    }
    return words.get(e.code, _("That did not work: %(detail)s") % {"detail": e.detail})


@login_required
@require_POST
def tournament_action(request: HttpRequest, pk: int, action: str) -> HttpResponse:
    if action not in ACTIONS:
        raise Http404(_("No such action"))
    t = get_object_or_404(Tournament, pk=pk)
    try:
        ACTIONS[action](tournament=t, user=request.user)
    except ServiceError as e:
        messages.error(request, _error_message(e))
    else:
        messages.success(request, _done_message(action))
    return redirect("tournament", pk=t.pk)
