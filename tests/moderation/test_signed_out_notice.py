"""A banned or suspended person is told why at once: the next page their browser loads (the page
they were on loses its sockets) says they were signed out, the sanction's reason and its end."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.test import Client

from moderation import services

pytestmark = pytest.mark.django_db


def _signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    assert client.get("/").wsgi_request.user == user
    return client


def test_a_banned_persons_next_page_says_they_were_signed_out_and_why(moderator: Any, make_user: Any) -> None:
    banned = make_user()
    browsers = [_signed_in(banned), _signed_in(banned)]  # two browsers: each is told
    services.user_ban(moderator=moderator, user=banned, reason="abusive chat at table 7")
    for browser in browsers:
        page = browser.get("/")
        assert page.status_code == 200
        assert not page.wsgi_request.user.is_authenticated  # signed out all the same
        html = page.content.decode()
        assert "You have been signed out." in html
        assert "This account is banned. Reason: abusive chat at table 7" in html
        assert "You have been signed out." not in browser.get("/").content.decode()  # said once


def test_a_suspended_persons_page_says_until_when_in_their_language(moderator: Any, make_user: Any) -> None:
    suspended = make_user()
    browser = _signed_in(suspended)
    until = (datetime.now(UTC) + timedelta(days=30)).replace(second=0, microsecond=0)
    services.user_suspend(moderator=moderator, user=suspended, reason="spam", until=until)
    # A page that needs a signed-in person sends them to sign in; that page says why.
    page = browser.get("/accounts/password/", follow=True, HTTP_ACCEPT_LANGUAGE="cs")
    html = page.content.decode()
    assert f"{until:%Y-%m-%d %H:%M} UTC" in html and "spam" in html
    assert "Byli jste odhlášeni." in html


def test_the_end_of_a_suspension_is_a_moment_the_page_shows_in_the_readers_zone(
    moderator: Any, make_user: Any
) -> None:
    suspended = make_user()
    browser = _signed_in(suspended)
    until = datetime(2031, 1, 15, 18, 0, tzinfo=UTC)
    services.user_suspend(moderator=moderator, user=suspended, reason="<b>spam</b> & more", until=until)
    html = browser.get("/accounts/password/", follow=True).content.decode()
    moment = '<time datetime="2031-01-15T18:00:00Z" data-when="datetime">2031-01-15 18:00 UTC</time>'
    assert f"This account is suspended until {moment}. Reason: &lt;b&gt;spam&lt;/b&gt; &amp; more" in html


def test_a_sanction_lifted_before_the_next_page_says_nothing(moderator: Any, make_user: Any) -> None:
    person = make_user()
    browser = _signed_in(person)
    services.user_suspend(moderator=moderator, user=person, reason="spam", period=timedelta(days=1))
    services.user_sanction_lift(moderator=moderator, user=person, reason="a mistake")
    page = browser.get("/")
    assert not page.wsgi_request.user.is_authenticated
    assert "You have been signed out." not in page.content.decode()
