"""Notification emails end to end: the beat finds a decision awaited with no page open, the
worker decides the email (a verified address, chosen for the kind, one per game an hour) and
sends it, in the person's language, to a real mail server the test starts (aiosmtpd); the
message's List-Unsubscribe header is a one-click POST (RFC 8058) that needs no sign-in."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest
import requests

from accounts.models import Preference
from games.models import Game, GameSeat
from notifications.models import Kind, Notification, NotificationEmail, NotificationPreference
from tests.factories import play_out, start_table
from tests.support.mail import SMTP_ENV, Mailbox
from tests.support.stack import Stack

pytestmark = [
    pytest.mark.server,
    pytest.mark.django_db(transaction=True),
    pytest.mark.stack(redis_db=5, servers=1, worker=True, SITE_URL="https://harehra.example", **SMTP_ENV),
]


def _person(make_user: Any, name: str, language: str) -> Any:
    user = make_user(name)
    user.email = f"{name}@example.org"
    user.save(update_fields=["email"])
    Preference.objects.update_or_create(
        user=user, defaults={"email_verified": user.email, "language": language}
    )
    NotificationPreference.objects.create(user=user, kind=Kind.YOUR_TURN, channel="email", enabled=True)
    return user


def _wait(what: Any, timeout: float = 20) -> Any:
    deadline = time.monotonic() + timeout
    while not (got := what()):
        assert time.monotonic() < deadline, "waited in vain"
        time.sleep(0.2)
    return got


def _awaited(game: Game) -> tuple[int, str]:
    game.refresh_from_db()
    return GameSeat.objects.get(game=game, seat=game.awaiting_seat).user_id, game.deadline_at.isoformat()


def test_your_turn_is_emailed_once_per_game_an_hour_and_unsubscribed_in_one_click(
    stack: Stack, mailbox: Mailbox, make_user: Any
) -> None:
    dana, eva = _person(make_user, "dana", ""), _person(make_user, "eva", "cs")
    game = start_table([dana, eva], rated=False, turn_timer=90, reaction_timer=90, discard_timer=90)
    people = {dana.pk: dana, eva.pk: eva}

    # The first decision's person is told by the beat, then mailed by the worker.
    first, _ = _awaited(game)
    mail = mailbox.wait_for(people[first].email)
    assert Notification.objects.filter(kind=Kind.YOUR_TURN, user_id=first).count() == 1
    english = first == dana.pk
    body = mail.get_body(preferencelist=("plain",)).get_content()
    assert str(mail["Subject"]).strip() == (  # a long encoded subject is folded onto its next line
        "Harehra Online: Your move in a game you are not looking at"
        if english
        else "Harehra Online: Jste na tahu ve hře, kterou nemáte otevřenou"
    )
    assert (
        f"Your move at table {game.table_id}" if english else f"Jste na tahu u stolu {game.table_id}"
    ) in body
    assert f"https://harehra.example/games/{game.pk}/" in body
    unsubscribe = str(mail["List-Unsubscribe"]).strip().strip("<>")
    assert (
        unsubscribe.startswith("https://harehra.example/notifications/unsubscribe/") and unsubscribe in body
    )
    assert mail["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"

    # Moves until the same person's decision waits again: a new decision, told again, no new mail.
    rng = random.Random(5)
    seen = {_awaited(game)}
    while True:
        play_out(game, rng, moves=1)
        now = _awaited(game)
        if now[0] == first and now not in seen:
            break
        seen.add(now)
    _wait(lambda: Notification.objects.filter(kind=Kind.YOUR_TURN, user_id=first).count() == 2)
    time.sleep(3)  # the worker's turn to (not) mail it
    assert len([m for rcpt, m in mailbox.messages if people[first].email in rcpt]) == 1
    assert NotificationEmail.objects.filter(user_id=first, topic=f"game:{game.pk}").count() == 1

    # The mail client's one-click POST, with no cookie: that kind's email is off.
    path = unsubscribe[len("https://harehra.example") :]
    r = requests.post(stack.url() + path, data={"List-Unsubscribe": "One-Click"}, timeout=10)
    assert r.status_code == 200
    assert (
        NotificationPreference.objects.get(user_id=first, kind=Kind.YOUR_TURN, channel="email").enabled
        is False
    )
