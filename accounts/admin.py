"""The admin's sign-in (/admin/login/) goes through the same throttle and lockout as every other
way to sign in (accounts/throttles.py): its form asks the accounts service, and a client over the
sign-in rate or locked out of the account is refused with a 429 page before any password is checked."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import REDIRECT_FIELD_NAME
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.translation import gettext as _

from plumbing.client_address import client_address
from plumbing.errors import ServiceError

from .devices import device_known
from .services import user_check_credentials
from .throttles import SignInThrottle, sign_in_lock_wait, throttle_wait, wait_words


class AdminSignInForm(AdminAuthenticationForm):
    def clean(self) -> dict[str, Any]:
        username = self.cleaned_data.get("username")
        password = self.cleaned_data.get("password")
        if username is not None and password:
            try:
                self.user_cache = user_check_credentials(
                    request=self.request, username=username, password=password
                )
            except ServiceError as e:
                if e.code == "bad_credentials":
                    raise self.get_invalid_login_error() from e
                raise ValidationError(e.detail, code=e.code) from e
            self.confirm_login_allowed(self.user_cache)
        return self.cleaned_data


admin.site.login_form = AdminSignInForm


def admin_sign_in(request: HttpRequest) -> HttpResponse:
    """/admin/login/ (harehra_site/urls.py routes it here, ahead of the admin's own URLs)."""
    if request.method == "POST":
        username = request.POST.get("username", "")
        if wait := throttle_wait(SignInThrottle, request):
            return _refused(request, _("Too many attempts from here. Try again in %(wait)s."), wait)
        if wait := sign_in_lock_wait(username, client_address(request), device_known(request, username)):
            message = _("Too many wrong passwords for this account. Try again in %(wait)s.")
            return _refused(request, message, wait)
    return admin.site.login(request)


admin_sign_in.throttle_classes = [SignInThrottle]  # type: ignore[attr-defined]


def _refused(request: HttpRequest, message: str, wait: int) -> HttpResponse:
    site = admin.site
    request.current_app = site.name
    next_url = request.POST.get(REDIRECT_FIELD_NAME) or reverse("admin:index", current_app=site.name)
    context = {
        **site.each_context(request),
        "title": _("Log in"),
        "subtitle": None,
        "app_path": request.get_full_path(),
        "username": request.user.get_username(),
        "form": AdminSignInForm(request, initial={"username": request.POST.get("username", "")}),
        REDIRECT_FIELD_NAME: next_url,
        "refusal": message % {"wait": wait_words(wait)},
    }
    response = TemplateResponse(request, "admin/login_refused.html", context, status=429)
    response["Retry-After"] = str(wait)
    return response
