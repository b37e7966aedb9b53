"""The account's email address: set, confirmed by its link, refused links, removed."""

from __future__ import annotations

import time
from typing import Any

import pytest
from django.core import signing
from django.test import Client

from accounts.services import EMAIL_LINK_SALT, email_is_verified, user_email_set, user_email_verify

pytestmark = pytest.mark.django_db


def _token(user: Any, address: str) -> str:
    return signing.TimestampSigner(salt=EMAIL_LINK_SALT).sign_object({"user": user.pk, "email": address})


def test_a_link_confirms_only_the_address_it_was_sent_for(make_user: Any) -> None:
    dana = make_user("dana")
    links: list[str] = []
    user_email_set(user=dana, email="dana@example.org", link=links.append)  # type: ignore[arg-type]
    assert len(links) == 1 and not email_is_verified(dana)
    old = links[0]
    user_email_set(user=dana, email="dana@example.com", link=links.append)  # type: ignore[arg-type]
    with pytest.raises(Exception, match="email_changed"):
        user_email_verify(token=old)
    user_email_verify(token=links[1])
    dana.refresh_from_db()
    assert email_is_verified(dana)
    # A new address is not confirmed until its own link is opened.
    user_email_set(user=dana, email="dana@example.net", link=lambda t: t)
    dana.refresh_from_db()
    assert not email_is_verified(dana)


def test_refused_links_say_why(make_user: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    dana = make_user("dana")
    dana.email = "dana@example.org"
    dana.save()
    page = Client()
    r = page.get("/accounts/email/verify/not-a-token/")
    assert r.status_code == 400 and "This link is not valid." in r.content.decode()
    # Signed four days ago: past EMAIL_LINK_SECONDS (three days).
    now = time.time()
    monkeypatch.setattr(signing.time, "time", lambda: now - 4 * 24 * 3600)
    stale = _token(dana, "dana@example.org")
    monkeypatch.setattr(signing.time, "time", lambda: now)
    r = page.get(f"/accounts/email/verify/{stale}/")
    assert r.status_code == 400 and "This link has expired" in r.content.decode()
    r = page.get(f"/accounts/email/verify/{_token(dana, 'dana@example.org')}/")
    assert r.status_code == 200 and "dana@example.org is confirmed" in r.content.decode()


def test_the_email_page_sets_and_removes_the_address(make_user: Any) -> None:
    dana = make_user("dana")
    page = Client()
    page.force_login(dana)
    assert 'data-verified="false"' in page.get("/accounts/email/").content.decode()
    r = page.post("/accounts/email/", {"action": "set", "email": "not an address"})
    assert r.status_code == 200 and "Enter a valid email address." in r.content.decode()
    r = page.post("/accounts/email/", {"action": "set", "email": "dana@example.org"}, follow=True)
    assert "We sent a link to dana@example.org" in r.content.decode()
    dana.refresh_from_db()
    assert dana.email == "dana@example.org"
    page.post("/accounts/email/", {"action": "remove"})
    dana.refresh_from_db()
    assert dana.email == "" and not email_is_verified(dana)
    assert Client().get("/accounts/email/").status_code == 302  # signed out: to the sign-in page
