"""The /report/ page and the include-able Report link."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser
from django.template.loader import render_to_string
from django.test import Client, RequestFactory

from moderation.models import Report

pytestmark = pytest.mark.django_db


def test_the_report_page_needs_a_sign_in_and_files_a_report(make_user, two_player_game):
    game, players = two_player_game
    r = Client().get(f"/report/?user={players[0].username}")
    assert r.status_code == 302 and r["Location"].startswith("/accounts/login/?next=/report/")
    reporter = make_user()
    c = Client()
    c.force_login(reporter)
    page = c.get(f"/report/?user={players[0].username}&game={game.pk}")
    assert page.status_code == 200
    assert (
        f'value="{players[0].username}"'.encode() in page.content
        and f'value="{game.pk}"'.encode() in page.content
    )
    r = c.post(
        "/report/", {"user": players[0].username, "game": game.pk, "reason": "cheating", "text": "peeked"}
    )
    assert r.status_code == 200 and b"data-report-id" in r.content
    report = Report.objects.get(reporter=reporter)
    assert (report.target_user, report.game, report.text) == (players[0], game, "peeked")
    r = c.post("/report/", {"user": reporter.username, "reason": "abuse"})
    assert r.status_code == 400 and b"cannot report yourself" in r.content


def test_the_page_shows_the_rate_limit(make_user):
    reporter = make_user()
    c = Client()
    c.force_login(reporter)
    for _ in range(5):
        assert c.post("/report/", {"user": make_user().username, "reason": "spam"}).status_code == 200
    r = c.post("/report/", {"user": make_user().username, "reason": "spam"})
    assert r.status_code == 429 and b'data-code="rate_limited"' in r.content


def test_the_report_link_snippet(make_user):
    request = RequestFactory().get("/")
    request.user = make_user("viewer")
    html = render_to_string(
        "moderation/_report_link.html", {"report_user": "bad bunny", "report_game": 7}, request=request
    )
    assert 'href="/report/?user=bad%20bunny&amp;game=7"' in html and ">Report<" in html
    html = render_to_string("moderation/_report_link.html", {"report_game": 7}, request=request)
    assert 'href="/report/?game=7"' in html
    assert "href" not in render_to_string(
        "moderation/_report_link.html", {"report_user": "viewer"}, request=request
    )  # not on your own profile
    request.user = AnonymousUser()
    assert "href" not in render_to_string(
        "moderation/_report_link.html", {"report_user": "x"}, request=request
    )
