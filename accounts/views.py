"""Account pages: register, sign in and out, change password, and a player's profile."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST
from django.views.i18n import set_language

from plumbing.errors import ServiceError

from .forms import EmailForm, PasswordChangeForm, RegisterForm, SignInForm
from .services import (
    email_is_verified,
    user_change_password,
    user_email_remove,
    user_email_set,
    user_email_verify,
    user_language,
    user_register,
    user_set_language,
    user_sign_in,
    user_sign_out,
)
from .throttles import EmailThrottle, RegisterThrottle, SignInThrottle, throttle_wait, wait_words

FIELD_OF_ERROR = {
    "bad_username": "username",
    "username_taken": "username",
    "bad_email": "email",
    "weak_password": "password1",
}


def _next_url(request: HttpRequest, default: str = "/lobby/") -> str:
    url = request.POST.get("next") or request.GET.get("next") or ""
    if url and url_has_allowed_host_and_scheme(url, {request.get_host()}, request.is_secure()):
        return url
    return default


def _too_many(
    request: HttpRequest, template: str, form: Any, wait: int, locked: bool = False
) -> HttpResponse:
    if locked:
        words = _("Too many wrong passwords for this account. Try again in %(wait)s.")
    else:
        words = _("Too many attempts from here. Try again in %(wait)s.")
    form.add_error(None, words % {"wait": wait_words(wait)})
    response = render(request, template, {"form": form, "next": _next_url(request, "")}, status=429)
    response["Retry-After"] = str(wait)
    return response


@require_http_methods(["GET", "POST"])
def register(request: HttpRequest) -> HttpResponse:
    form = RegisterForm(request.POST or None)
    if request.method == "POST" and (wait := throttle_wait(RegisterThrottle, request)):
        return _too_many(request, "accounts/register.html", form, wait)
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        try:
            user = user_register(username=d["username"], password=d["password1"])
            if d["email"]:
                user_email_set(user=user, email=d["email"], link=_verify_link(request))
            user_sign_in(request=request, username=d["username"].strip(), password=d["password1"])
        except ServiceError as e:
            form.add_error(FIELD_OF_ERROR.get(e.code), _error_words(e))
        else:
            messages.success(request, _("Welcome to Harehra! Pick a table or create your own."))
            return redirect(_next_url(request))
    return render(request, "accounts/register.html", {"form": form, "next": _next_url(request, "")})


@require_http_methods(["GET", "POST"])
def sign_in(request: HttpRequest) -> HttpResponse:
    form = SignInForm(request.POST or None)
    if request.method == "POST" and (wait := throttle_wait(SignInThrottle, request)):
        return _too_many(request, "accounts/login.html", form, wait)
    if request.method == "POST" and form.is_valid():
        try:
            user_sign_in(request=request, **form.cleaned_data)
        except ServiceError as e:
            if e.retry_after is not None:
                return _too_many(request, "accounts/login.html", form, e.retry_after, locked=True)
            form.add_error(None, _error_words(e))
        else:
            return _with_language(request, redirect(_next_url(request)))
    return render(request, "accounts/login.html", {"form": form, "next": _next_url(request, "")})


def _verify_link(request: HttpRequest) -> Any:
    return lambda token: request.build_absolute_uri(f"/accounts/email/verify/{token}/")


@login_required
@require_http_methods(["GET", "POST"])
def email_page(request: HttpRequest) -> HttpResponse:
    """The account's address: set it (a link is mailed to it), send its link again, or remove it."""
    form = EmailForm(request.POST or None, initial={"email": request.user.email})
    action = request.POST.get("action", "set")
    if request.method == "POST" and action == "remove":
        user_email_remove(user=request.user)
        messages.success(request, _("Your email address is removed."))
        return redirect("email")
    if request.method == "POST" and (wait := throttle_wait(EmailThrottle, request)):
        return _too_many(request, "accounts/email.html", form, wait)
    if request.method == "POST" and form.is_valid():
        try:
            user_email_set(user=request.user, email=form.cleaned_data["email"], link=_verify_link(request))
        except ServiceError as e:
            form.add_error("email", _error_words(e))
        else:
            messages.success(
                request,
                _("We sent a link to %(email)s: open it to confirm the address.")
                % {"email": request.user.email},
            )
            return redirect("email")
    verified = email_is_verified(request.user)
    return render(request, "accounts/email.html", {"form": form, "verified": verified})


def email_verify(request: HttpRequest, token: str) -> HttpResponse:
    try:
        user = user_email_verify(token=token)
    except ServiceError as e:
        words = {
            "link_expired": _("This link has expired. Ask for a new one on your email page."),
            "email_changed": _("The account's address changed since this link was sent."),
        }
        return render(
            request,
            "accounts/email_verify.html",
            {"error": words.get(e.code, _("This link is not valid."))},
            status=e.status,
        )
    return render(request, "accounts/email_verify.html", {"email": user.email})


@require_POST
def sign_out(request: HttpRequest) -> HttpResponse:
    user_sign_out(request=request)
    messages.info(request, _("You are signed out."))
    return redirect("/")


@login_required
@require_http_methods(["GET", "POST"])
def password_change(request: HttpRequest) -> HttpResponse:
    form = PasswordChangeForm(request.POST or None)
    if request.method == "POST" and (wait := throttle_wait(SignInThrottle, request)):
        return _too_many(request, "accounts/password.html", form, wait)
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        try:
            user_change_password(
                request=request,
                user=request.user,
                old_password=d["old_password"],
                new_password=d["new_password1"],
            )
        except ServiceError as e:
            field = "old_password" if e.code == "bad_credentials" else "new_password1"
            form.add_error(field, _error_words(e))
        else:
            messages.success(request, _("Your password is changed."))
            return redirect("player-profile", username=request.user.get_username())
    return render(request, "accounts/password.html", {"form": form})


def _error_words(e: ServiceError) -> str:
    words = {
        "bad_username": _("A username is 1 to 30 letters, digits and @ . + - _ only."),
        "username_taken": _("That username is taken."),
        "bad_email": _("That is not an email address."),
        "bad_credentials": _("Wrong username or password."),
    }
    if e.code == "bad_credentials" and "current" in e.detail:
        return _("The current password is wrong.")
    return str(words.get(e.code, e.detail))


def _with_language(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    """Signing in brings back the language the person chose, on any browser."""
    language = user_language(user=request.user)
    if language:
        response.set_cookie(settings.LANGUAGE_COOKIE_NAME, language, max_age=settings.LANGUAGE_COOKIE_AGE)
    return response


@require_POST
def language_set(request: HttpRequest) -> HttpResponse:
    """The footer's language switcher: Django's set_language (the cookie), and for a signed-in
    person also their account, so the choice follows them to other browsers."""
    response = set_language(request)
    language = request.POST.get("language", "")
    if request.user.is_authenticated and language in dict(settings.LANGUAGES):
        user_set_language(user=request.user, language=language)
    return response


# Plain views that ask a throttle themselves name it, as an API view does, for the endpoint cost
# check (tests/harehra_site/test_endpoint_costs.py).
register.throttle_classes = [RegisterThrottle]  # type: ignore[attr-defined]
sign_in.throttle_classes = password_change.throttle_classes = [SignInThrottle]  # type: ignore[attr-defined]
email_page.throttle_classes = [EmailThrottle]  # type: ignore[attr-defined]
