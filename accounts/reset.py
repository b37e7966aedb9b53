"""Resetting a forgotten password by email, with Django's own views: the forms are theirs, but a
link goes only to a verified address (`email_is_verified`), by the worker (accounts/mail.py), and
a new password goes through `user_password_reset`, which ends every session and token.

The answer to a request is the same whether or not the address is known, and takes the same
time: no mail is sent inside the request."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from django.contrib.auth import forms as auth_forms
from django.contrib.auth import get_user_model
from django.contrib.auth import views as auth_views
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.translation import gettext as _

from plumbing.errors import ServiceError

from .mail import mail_send_later
from .services import email_is_verified, user_password_reset
from .throttles import PasswordResetThrottle, SignInThrottle, throttle_wait, too_many_page, wait_words


class ResetRequestForm(auth_forms.PasswordResetForm):
    def get_users(self, email: str) -> Iterator[Any]:
        for user in get_user_model().objects.filter(email__iexact=email, is_active=True):
            if user.has_usable_password() and email_is_verified(user):
                yield user

    def send_mail(
        self,
        subject_template_name: str,
        email_template_name: str,
        context: dict[str, Any],
        from_email: str | None,
        to_email: str,
        html_email_template_name: str | None = None,
    ) -> None:
        subject = render_to_string(subject_template_name, context)
        mail_send_later(to=to_email, subject=subject, body=render_to_string(email_template_name, context))


class ResetPasswordForm(auth_forms.SetPasswordForm):
    def save(self, commit: bool = True) -> Any:
        try:
            user_password_reset(user=self.user, new_password=self.cleaned_data["new_password1"])
        except ServiceError as e:  # the form's validators ran the same checks: not expected
            raise ValueError(e.detail) from e
        return self.user


class ResetRequestView(auth_views.PasswordResetView):
    form_class = ResetRequestForm
    template_name = "accounts/reset_request.html"
    email_template_name = "accounts/mail/reset.txt"
    subject_template_name = "accounts/mail/reset_subject.txt"
    success_url = "/accounts/password/reset/sent/"
    throttle_classes = [PasswordResetThrottle]

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        wait = throttle_wait(PasswordResetThrottle, request)
        if wait is not None:
            form = self.get_form()
            form.is_valid()
            form.add_error(
                None, _("Too many attempts from here. Try again in %(wait)s.") % {"wait": wait_words(wait)}
            )
            response = render(request, self.template_name, {"form": form}, status=429)
            response["Retry-After"] = str(wait)
            return response
        return super().post(request, *args, **kwargs)


class ResetSentView(auth_views.PasswordResetDoneView):
    template_name = "accounts/reset_sent.html"


class ResetConfirmView(auth_views.PasswordResetConfirmView):
    form_class = ResetPasswordForm
    template_name = "accounts/reset_confirm.html"
    success_url = "/accounts/password/reset/done/"
    # A new password is hashed: counted as a sign-in is.
    throttle_classes = [SignInThrottle]

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        wait = throttle_wait(SignInThrottle, request)
        if wait is not None:
            return too_many_page(request, wait)
        return super().post(request, *args, **kwargs)


class ResetDoneView(auth_views.PasswordResetCompleteView):
    template_name = "accounts/reset_done.html"
