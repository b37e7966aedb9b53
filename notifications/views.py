"""The notifications page (the newest first; opening it shows which were new, then marks them
read), the settings page (each kind's channels), and the emails' unsubscribe link."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from accounts.services import email_is_verified
from plumbing.errors import ServiceError

from .email import notification_email_unsubscribe, unsubscribe_read
from .models import Channel, Kind
from .selectors import CHOOSABLE, channel_label, kind_label, notifications_of, preferences_of
from .services import notification_mark_read, notification_preferences_set


@login_required
def notifications_page(request: HttpRequest) -> HttpResponse:
    rows = notifications_of(request.user.pk)
    notification_mark_read(user=request.user)
    return render(request, "notifications/list.html", {"notifications": rows, "unread_notifications": 0})


@login_required
@require_http_methods(["GET", "POST"])
def settings_page(request: HttpRequest) -> HttpResponse:
    """A table: kinds as rows, channels as columns, a checkbox each (the site's always on). A
    box not sent in the POST is off, as HTML forms send only the ticked ones."""
    if request.method == "POST":
        choices = {
            kind: {channel: f"{kind}:{channel}" in request.POST for channel in CHOOSABLE}
            for kind in Kind.values
        }
        notification_preferences_set(user=request.user, choices=choices)
        messages.success(request, _("Your notification settings are saved."))
        return redirect("notification-settings")
    chosen = preferences_of(request.user.pk)
    rows = [
        {
            "kind": kind,
            "label": kind_label(kind),
            "cells": [
                {"channel": c, "label": channel_label(c), "on": chosen[kind][c], "fixed": c == Channel.SITE}
                for c in Channel.values
            ],
        }
        for kind in Kind.values
    ]
    columns = [channel_label(c) for c in Channel.values]
    context = {"rows": rows, "columns": columns, "email_verified": email_is_verified(request.user)}
    return render(request, "notifications/settings.html", context)


# A mail client's one-click POST (RFC 8058) carries no cookie and no CSRF token: the signed token
# in the address is what allows it. A GET only shows the button (link scanners open links).
@csrf_exempt
@require_http_methods(["GET", "POST"])
def unsubscribe_page(request: HttpRequest, token: str) -> HttpResponse:
    try:
        if request.method == "POST":
            _user_id, kind = notification_email_unsubscribe(token=token)
            done = True
        else:
            _user_id, kind = unsubscribe_read(token)
            done = False
    except ServiceError as e:
        context = {"error": _("This link is not valid.")}
        return render(request, "notifications/unsubscribe.html", context, status=e.status)
    return render(request, "notifications/unsubscribe.html", {"kind": kind_label(kind), "done": done})
