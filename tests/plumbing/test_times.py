"""Moments on pages: each written as <time datetime="…Z" data-when> around its UTC text (the page
script static/js/core/times.js shows it in the reader's zone), on the tournament, profile and
replay pages."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.template import Context, Template, TemplateSyntaxError
from django.test import Client

from tests.factories import play_out, start_table
from tests.tournaments.test_services import event
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

AT = datetime(2026, 12, 7, 18, 0, 30, tzinfo=UTC)


def _render(source: str, **context: Any) -> str:
    return Template(source).render(Context(context))


def test_a_moment_is_its_utc_text_in_a_time_element_the_page_script_rewrites():
    assert _render("{{ at|when }}", at=AT) == (
        '<time datetime="2026-12-07T18:00:30Z" data-when="datetime">2026-12-07 18:00 UTC</time>'
    )
    prague = AT.astimezone(datetime.fromisoformat("2026-01-01T00:00:00+01:00").tzinfo)
    assert _render('{{ at|when:"date" }}', at=prague) == (
        '<time datetime="2026-12-07T18:00:30Z" data-when="date">2026-12-07</time>'
    )
    assert _render("{{ at|when }}", at="2026-12-07T19:00:30+01:00") == _render("{{ at|when }}", at=AT)
    assert _render("[{{ at|when }}]", at=None) == "[]"
    with pytest.raises(TemplateSyntaxError):
        _render('{{ at|when:"hour" }}', at=AT)


def test_a_moment_inside_a_translated_sentence_is_an_element_not_escaped_text():
    html = _render(
        "{% load i18n %}{% blocktranslate with at=at|when %}Entry opens {{ at }}.{% endblocktranslate %}",
        at=AT,
    )
    element = '<time datetime="2026-12-07T18:00:30Z" data-when="datetime">2026-12-07 18:00 UTC</time>'
    assert html == f"Entry opens {element}."


def test_the_tournament_profile_and_replay_pages_write_their_moments_for_the_page_script(staff, make_user):
    t = event(staff, name="Evening cup")
    Tournament.objects.filter(pk=t.pk).update(starts_at=AT, entry_opens_at=AT - timedelta(hours=1))
    listed = Client().get("/tournaments/").content.decode()
    assert '<time datetime="2026-12-07T18:00:30Z" data-when="datetime">2026-12-07 18:00 UTC</time>' in listed
    detail = Client().get(f"/tournaments/{t.pk}/").content.decode()
    assert 'Entry opens <time datetime="2026-12-07T17:00:30Z" data-when="datetime">' in detail
    assert 'and closes at the start, <time datetime="2026-12-07T18:00:30Z"' in detail
    assert "static/js/core/times.js" in detail

    people = [make_user(), make_user()]
    game = play_out(start_table(people), random.Random(5))
    iso = game.finished_at.astimezone(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")
    client = Client()
    client.force_login(people[0])
    profile = client.get(f"/players/{people[0].username}/").content.decode()
    assert f'ended <time datetime="{iso}" data-when="datetime">' in profile
    replays = client.get("/replays/").content.decode()
    assert f'<time datetime="{iso}" data-when="datetime">' in replays
