"""The report form page: /report/?user=<name>&game=<id>."""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_http_methods

from games.invites import request_invite
from plumbing.errors import ServiceError

from .models import ReportReason
from .services import REPORT_TEXT_MAX, report_create


class ReportForm(forms.Form):
    user = forms.CharField(label="Player", required=False, max_length=150)
    game = forms.IntegerField(label="Game", required=False, min_value=1, widget=forms.NumberInput)
    reason = forms.ChoiceField(label="What happened", choices=ReportReason.choices)
    text = forms.CharField(
        label="Details",
        required=False,
        max_length=REPORT_TEXT_MAX,
        widget=forms.Textarea(attrs={"rows": 5}),
    )


@require_http_methods(["GET", "POST"])
def report_page(request: HttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path(), settings.LOGIN_URL)
    if request.method == "GET":
        form = ReportForm(initial={"user": request.GET.get("user", ""), "game": request.GET.get("game")})
        return render(request, "moderation/report.html", {"form": form})
    form = ReportForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            report = report_create(
                reporter=request.user,
                reason=data["reason"],
                text=data["text"],
                target_username=data["user"] or None,
                game_id=data["game"],
                invite_of=lambda table_id: request_invite(request, table_id),
            )
        except ServiceError as e:
            form.add_error(None, e.detail)
            status = 429 if e.code == "rate_limited" else 400
            return render(request, "moderation/report.html", {"form": form, "code": e.code}, status=status)
        return render(request, "moderation/report.html", {"report": report})
    return render(request, "moderation/report.html", {"form": form}, status=400)
