"""The notifications page: the newest first; opening it shows which were new, then marks them read."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from .selectors import notifications_of
from .services import notification_mark_read


@login_required
def notifications_page(request: HttpRequest) -> HttpResponse:
    rows = notifications_of(request.user.pk)
    notification_mark_read(user=request.user)
    return render(request, "notifications/list.html", {"notifications": rows, "unread_notifications": 0})
