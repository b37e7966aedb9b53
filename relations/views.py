"""The people page (find people by name; your friends and follows) and the profile page's Follow
and Block buttons (a form post, then back to the profile)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.throttles import FollowThrottle, PeopleSearchThrottle, throttle_wait, too_many_page, wait_words
from plumbing.errors import ServiceError

from .selectors import SEARCH_AT_MOST, SEARCH_MAX_CHARS, people_search, relations_of
from .services import block_create, block_delete, follow_create, follow_delete

ACTIONS = {"follow": follow_create, "unfollow": follow_delete, "block": block_create, "unblock": block_delete}


def _refusal(error: ServiceError) -> str:
    words = {
        "blocked": _("This player does not accept that from you."),
        "you_block": _("You block this player: unblock them first."),
        "self_relation": _("That is you."),
        "not_found": _("No such player"),
    }
    return words.get(error.code, _("That did not work. Try again."))


@require_POST
def relation_change(request: HttpRequest, username: str) -> HttpResponse:
    action = request.POST.get("action", "")
    if action not in ACTIONS:
        return HttpResponseBadRequest(_("Unknown action."))
    if not request.user.is_authenticated:
        return redirect_to_login(f"/players/{username}/")
    if action == "follow" and (wait := throttle_wait(FollowThrottle, request)) is not None:
        messages.error(
            request, _("Too many attempts from here. Try again in %(wait)s.") % {"wait": wait_words(wait)}
        )
        return redirect("player-profile", username=username)
    try:
        ACTIONS[action](user=request.user, username=username)
    except ServiceError as e:
        messages.error(request, _refusal(e))
    return redirect("player-profile", username=username)


relation_change.throttle_classes = [FollowThrottle]  # type: ignore[attr-defined]


def people_page(request: HttpRequest) -> HttpResponse:
    """Find people by the start of their name (`q`); signed in, also your friends and follows."""
    q = request.GET.get("q", "").strip()[:SEARCH_MAX_CHARS]
    found = None
    if q:
        wait = throttle_wait(PeopleSearchThrottle, request)
        if wait is not None:
            return too_many_page(request, wait)
        found = people_search(q, request.user)
    mine = relations_of(request.user.pk) if request.user.is_authenticated else None
    return render(
        request,
        "relations/people.html",
        {"q": q, "found": found, "at_most": SEARCH_AT_MOST, "mine": mine, "max_chars": SEARCH_MAX_CHARS},
    )


people_page.throttle_classes = [PeopleSearchThrottle]  # type: ignore[attr-defined]
