"""The tournaments' pages: parse the request, call a service or selector, render a template."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.access import is_moderator
from harehra_site.errors import ServiceError

from .models import Tournament
from .selectors import entry_state, tournament_detail, tournament_list_rows, tournament_results_by_entry
from .services import tournament_join, tournament_pause, tournament_withdraw

ACTIONS = {"join": tournament_join, "withdraw": tournament_withdraw, "pause": tournament_pause}


def tournament_list_page(request: HttpRequest) -> HttpResponse:
    return render(request, "tournaments/list.html", {"lists": tournament_list_rows()})


def tournament_page(request: HttpRequest, pk: int) -> HttpResponse:
    t = get_object_or_404(Tournament, pk=pk)
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
    }
    context = {
        "t": t,
        "d": detail,
        "has_results": has_results,
        "mine": mine,  # the viewer's row of the standings: their place once the event is over
        "entry_state": entry_state(t.status, detail["me"]),
        "can_moderate": is_moderator(request.user, "tournament"),
        "config": config,
    }
    return render(request, "tournaments/detail.html", context)


def _done_message(action: str) -> str:
    return {
        "join": _("You are in. Keep this page open: it takes you to your table as soon as you are seated."),
        "withdraw": _("You have left the tournament."),
        "pause": _("Paused: you will not be seated at a new table until you come back."),
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
