"""The challenges pages: the list of your challenges, the challenge form, one challenge with its
buttons, the game page's Rematch, and the friends panel (a fragment the lobby and the phone's
menu load)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.models import ChallengesFrom
from accounts.throttles import ChallengeThrottle, throttle_wait, too_many_page, wait_words
from plumbing.errors import ServiceError

from .forms import ChallengeForm
from .selectors import challenge_dict, challenge_for, challenges_from_of, challenges_of, friends_online
from .services import (
    challenge_answer,
    challenge_cancel,
    challenge_create,
    challenge_start,
    challenges_from_set,
    rematch_offer,
)


def refusal(error: ServiceError) -> str:
    """A service's refusal in the reader's words, by its stable code."""
    words = {
        "blocked": _("This player does not accept challenges from you."),
        "you_block": _("You block this player: unblock them first."),
        "not_accepting": _("This player takes no challenges."),
        "friends_only": _("This player takes challenges from friends only."),
        "not_found": _("No such player"),
        "self_challenge": _("You cannot challenge yourself."),
        "too_many_people": _("More people than the table has seats."),
        "bad_people": _("Name one or more players to challenge."),
        "challenge_over": _("This challenge is over."),
        "already_answered": _("You have answered this challenge."),
        "next_game_started": _("The table has gone on to another game."),
        "nobody_to_ask": _("Nobody else played this game: start the next game."),
        "too_many_slow_games": _(
            "You already play as many slow games at once as there may be: finish or leave one first."
        ),
    }
    return words.get(error.code, _("That did not work. Try again."))


@login_required
def challenges_page(request: HttpRequest) -> HttpResponse:
    context = {
        "challenges": challenges_of(request.user.pk),
        "challenges_from": challenges_from_of(request.user.pk),
        "choices": ChallengesFrom.choices,
    }
    return render(request, "challenges/list.html", context)


@require_POST
def challenges_from_page(request: HttpRequest) -> HttpResponse:
    """The list page's "who may challenge you" form."""
    if not request.user.is_authenticated:
        return redirect_to_login("/challenges/")
    try:
        challenges_from_set(user=request.user, value=request.POST.get("challenges_from"))
    except ServiceError:
        return HttpResponseBadRequest(_("Unknown action."))
    messages.success(request, _("Saved."))
    return redirect("challenges")


def challenge_new(request: HttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if request.method != "POST":
        form = ChallengeForm(initial={"people": request.GET.get("to", "")[:150], "seats": 3})
        return render(request, "challenges/new.html", {"form": form})
    form = ChallengeForm(request.POST)
    if form.is_valid():
        if (wait := throttle_wait(ChallengeThrottle, request)) is not None:
            return too_many_page(request, wait)
        try:
            challenge = challenge_create(
                user=request.user,
                names=form.names(),
                settings=form.settings(),
                bot_level=form.cleaned_data.get("bot_level") or "normal",
            )
        except ServiceError as e:
            form.add_error(None, refusal(e))
        else:
            return redirect("challenge", pk=challenge.pk)
    return render(request, "challenges/new.html", {"form": form}, status=400)


challenge_new.throttle_classes = [ChallengeThrottle]  # type: ignore[attr-defined]


@login_required
def challenge_page(request: HttpRequest, pk: int) -> HttpResponse:
    try:
        challenge = challenge_for(pk, request.user.pk)
    except ServiceError as e:
        raise Http404(e.detail) from e
    return render(request, "challenges/one.html", {"c": challenge_dict(challenge, request.user.pk)})


ACTIONS = ("accept", "decline", "cancel", "start")


@require_POST
def challenge_action(request: HttpRequest, pk: int, action: str) -> HttpResponse:
    if action not in ACTIONS:
        return HttpResponseBadRequest(_("Unknown action."))
    if not request.user.is_authenticated:
        return redirect_to_login(f"/challenges/{pk}/")
    try:
        if action in ("accept", "decline"):
            challenge = challenge_answer(user=request.user, challenge_id=pk, accept=action == "accept")
        elif action == "cancel":
            challenge = challenge_cancel(user=request.user, challenge_id=pk)
        else:
            challenge = challenge_start(user=request.user, challenge_id=pk)
    except ServiceError as e:
        messages.error(request, refusal(e))
        return redirect("challenge", pk=pk)
    if challenge.game_id is not None and action in ("accept", "start"):
        return redirect("game", pk=challenge.game_id)
    return redirect("challenge", pk=pk)


@require_POST
def rematch(request: HttpRequest, game_id: int) -> HttpResponse:
    if not request.user.is_authenticated:
        return redirect_to_login(f"/games/{game_id}/")
    if (wait := throttle_wait(ChallengeThrottle, request)) is not None:
        messages.error(
            request, _("Too many attempts from here. Try again in %(wait)s.") % {"wait": wait_words(wait)}
        )
        return redirect("game", pk=game_id)
    try:
        challenge = rematch_offer(user=request.user, game_id=game_id)
    except ServiceError as e:
        messages.error(request, refusal(e))
        return redirect("game", pk=game_id)
    return redirect("challenge", pk=challenge.pk)


rematch.throttle_classes = [ChallengeThrottle]  # type: ignore[attr-defined]


def friends_panel(request: HttpRequest) -> HttpResponse:
    """The friends panel alone (the lobby shows it in place; the phone's menu loads this)."""
    return render(request, "challenges/_friends.html", {"friends": friends_online(request.user)})
