"""Each kind's channels: the defaults, the settings page and the API that change them, `wants`
at delivery, and the email decision the worker makes (verified address, the hourly limit per
topic, the unsubscribe link and its one-click POST)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client

from accounts.models import Preference
from notifications import email as notification_email
from notifications.email import notification_email_send, unsubscribe_token
from notifications.models import Kind, NotificationEmail, NotificationPreference
from notifications.selectors import wants
from notifications.services import notification_send

pytestmark = pytest.mark.django_db


def _verified(user: Any, address: str, language: str = "") -> None:
    user.email = address
    user.save(update_fields=["email"])
    Preference.objects.update_or_create(user=user, defaults={"email_verified": address, "language": language})


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """The messages handed to the mail task (sent for real in test_email_servers.py)."""
    out: list[dict[str, Any]] = []
    monkeypatch.setattr(notification_email, "mail_send_later", lambda **message: out.append(message))
    return out


def test_defaults_site_always_push_on_email_off(make_user: Any) -> None:
    ann = make_user("ann")
    for kind in (Kind.YOUR_TURN, Kind.TOURNAMENT_STARTING, Kind.MODERATION, Kind.FOLLOWER):
        assert wants(ann.pk, kind, "site") and wants(ann.pk, kind, "push")
        assert not wants(ann.pk, kind, "email")
    assert wants(ann.pk, "challenge", "email")  # the one kind emailed by default, when it exists


def test_the_api_reads_and_changes_each_kinds_channels(make_user: Any, client_for: Any) -> None:
    ann, bob = make_user("ann"), make_user("bob")
    api = client_for(ann)
    got = api.get("/api/notifications/preferences/").json()["preferences"]
    assert got["your_turn"] == {"site": True, "push": True, "email": False}
    assert set(got) == set(Kind.values)
    r = api.put(
        "/api/notifications/preferences/",
        {"preferences": {"your_turn": {"email": True, "push": False}, "moderation": {"site": True}}},
        format="json",
    )
    assert r.status_code == 200, r.content
    assert r.json()["preferences"]["your_turn"] == {"site": True, "push": False, "email": True}
    assert wants(ann.pk, Kind.YOUR_TURN, "email") and not wants(ann.pk, Kind.YOUR_TURN, "push")
    assert not wants(bob.pk, Kind.YOUR_TURN, "email")  # another person's are their own
    # Back to the default: no row kept.
    api.put("/api/notifications/preferences/", {"preferences": {"your_turn": {"push": True}}}, format="json")
    assert list(NotificationPreference.objects.values_list("kind", "channel", "enabled")) == [
        ("your_turn", "email", True)
    ]
    for body, code in (
        ({"preferences": {"your_turn": {"site": False}}}, "bad_channel"),
        ({"preferences": {"nothing": {"push": True}}}, "invalid"),
        ({"preferences": {"your_turn": {"fax": True}}}, "invalid"),
        ({"preferences": {"your_turn": {"push": "maybe"}}}, "invalid"),
    ):
        r = api.put("/api/notifications/preferences/", body, format="json")
        assert r.status_code == 400, (body, r.content)
        assert r.json()["code"] == code, r.json()
    assert Client().get("/api/notifications/preferences/").status_code == 401
    assert "/api/notifications/preferences/" in Client().get("/api/schema/").content.decode()


def test_the_settings_page_is_a_table_of_kinds_and_channels(make_user: Any) -> None:
    ann = make_user("ann")
    page = Client()
    page.force_login(ann)
    html = page.get("/notifications/settings/").content.decode()
    assert '<tr data-kind="your_turn">' in html
    label = "Your move in a game you are not looking at"
    assert f'name="your_turn:site" aria-label="{label}: On the site" checked disabled' in html
    assert (
        'name="your_turn:push" aria-label="Your move in a game you are not looking at: Push" checked>' in html
    )
    assert 'name="your_turn:email" aria-label="Your move in a game you are not looking at: Email">' in html
    assert "Email goes only to a confirmed address" in html
    # Ticked boxes are on, the others off.
    r = page.post(
        "/notifications/settings/",
        {"your_turn:email": "on", "moderation:push": "on", "moderation:email": "on"},
    )
    assert r.status_code == 302
    assert wants(ann.pk, Kind.YOUR_TURN, "email") and not wants(ann.pk, Kind.YOUR_TURN, "push")
    assert wants(ann.pk, Kind.MODERATION, "email") and not wants(ann.pk, Kind.FOLLOWER, "push")
    html = page.get("/notifications/settings/").content.decode()
    assert "Your notification settings are saved." in html
    assert (
        'name="your_turn:email" aria-label="Your move in a game you are not looking at: Email" checked>'
        in html
    )
    page.cookies["django_language"] = "cs"
    Preference.objects.update_or_create(user=ann, defaults={"language": "cs"})
    html = page.get("/notifications/settings/").content.decode()
    assert "Nastavení upozornění" in html and "Jste na tahu ve hře, kterou nemáte otevřenou" in html
    assert Client().get("/notifications/settings/").status_code == 302


def test_email_goes_to_a_verified_address_once_per_game_an_hour(make_user: Any, sent: list[Any]) -> None:
    ann, bob, carl = make_user("ann"), make_user("bob"), make_user("carl")
    _verified(ann, "ann@example.org")
    bob.email = "bob@example.org"  # not verified
    bob.save(update_fields=["email"])
    _verified(carl, "carl@example.org")  # but email not chosen
    for person in (ann, bob):
        NotificationPreference.objects.create(user=person, kind=Kind.YOUR_TURN, channel="email", enabled=True)

    def turn(user: Any, game: int, at: int) -> int:
        data = {"game": game, "table": 7, "deadline": "2026-12-07T20:00:00+00:00"}
        n = notification_send(user_id=user.pk, kind=Kind.YOUR_TURN, data=data, once=f"turn:{game}:{at}")
        assert n is not None
        return n.pk

    assert notification_email_send(notification_id=turn(ann, 11, 1))
    assert not notification_email_send(notification_id=turn(ann, 11, 2))  # the same game this hour
    assert notification_email_send(notification_id=turn(ann, 12, 1))  # another game
    assert not notification_email_send(notification_id=turn(bob, 11, 1))
    assert not notification_email_send(notification_id=turn(carl, 11, 1))
    assert [m["to"] for m in sent] == ["ann@example.org", "ann@example.org"]
    # An hour later the game may email again.
    NotificationEmail.objects.filter(user=ann, topic="game:11").update(
        sent_at=NotificationEmail.objects.get(user=ann, topic="game:11").sent_at
        - timedelta(hours=1, seconds=1)
    )
    assert notification_email_send(notification_id=turn(ann, 11, 3))
    assert len(sent) == 3

    message = sent[0]
    assert message["subject"] == "Harehra Online: Your move in a game you are not looking at"
    assert "Hello ann," in message["body"] and "Your move at table 7 (game 11)" in message["body"]
    assert "http://localhost:8000/games/11/" in message["body"]
    link = f"http://localhost:8000/notifications/unsubscribe/{unsubscribe_token(ann.pk, Kind.YOUR_TURN)}/"
    assert link in message["body"]
    assert message["headers"] == {
        "List-Unsubscribe": f"<{link}>",
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    }


def test_email_is_in_the_persons_language(make_user: Any, sent: list[Any]) -> None:
    eva = make_user("eva")
    _verified(eva, "eva@example.org", language="cs")
    NotificationPreference.objects.create(user=eva, kind=Kind.MODERATION, channel="email", enabled=True)
    n = notification_send(user_id=eva.pk, kind=Kind.MODERATION, data={"action": "ban", "reason": "Spam"})
    assert n is not None and notification_email_send(notification_id=n.pk)
    [message] = sent
    assert message["subject"] == "Harehra Online: Rozhodnutí moderátora o vás"
    assert (
        "Dobrý den, eva," in message["body"]
        and "Moderátor zablokoval váš účet. Důvod: Spam" in message["body"]
    )


def test_the_unsubscribe_link_turns_that_kinds_email_off_without_a_sign_in(make_user: Any) -> None:
    ann, bob = make_user("ann"), make_user("bob")
    for person in (ann, bob):
        NotificationPreference.objects.create(user=person, kind=Kind.YOUR_TURN, channel="email", enabled=True)
    path = f"/notifications/unsubscribe/{unsubscribe_token(ann.pk, Kind.YOUR_TURN)}/"
    anyone = Client(enforce_csrf_checks=True)
    page = anyone.get(path)  # a GET (a link scanner's) only shows the button
    assert page.status_code == 200 and "Stop these emails" in page.content.decode()
    assert wants(ann.pk, Kind.YOUR_TURN, "email")
    r = anyone.post(path, "List-Unsubscribe=One-Click", content_type="application/x-www-form-urlencoded")
    assert r.status_code == 200
    assert (
        'You will get no more emails for "Your move in a game you are not looking at".' in r.content.decode()
    )
    assert not wants(ann.pk, Kind.YOUR_TURN, "email")
    assert wants(bob.pk, Kind.YOUR_TURN, "email") and wants(ann.pk, Kind.YOUR_TURN, "push")
    forged = unsubscribe_token(bob.pk, Kind.YOUR_TURN)[:-2] + "xx"
    for bad in (forged, "nonsense", unsubscribe_token(ann.pk, "nothing")):
        r = anyone.post(f"/notifications/unsubscribe/{bad}/")
        assert r.status_code == 400 and "This link is not valid." in r.content.decode()
    assert wants(bob.pk, Kind.YOUR_TURN, "email")
