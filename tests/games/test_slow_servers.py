"""A 4-seat slow game over days of moved clock, with the real stack: servers, a worker and its
beat (the sweep and the notices), a local mail server. The clock is moved through
CLOCK_SHIFT_FILE, which the test process and the stack's processes read alike (plumbing/clock.py).

Each decision awaited is told once to its person by the beat (a site notification, and an email:
a slow game's decisions are emailed by default); one deadline is left to pass, the beat's sweep
plays it by the autopilot and its person is told; the finished game's replay opens like any other.
"""

from __future__ import annotations

import os
import random
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from django.test import Client

from accounts.models import Preference
from games.eventlog import load_state
from games.models import Game, GameEvent, GameSeat, GameStatus
from games.services.moves import game_command_submit
from harehra import legal_commands
from notifications.models import Kind, Notification
from plumbing import clock
from plumbing.errors import ServiceError
from tests.accounts.test_email_servers import Mailbox
from tests.factories import play_out, start_table
from tests.support.stack import Stack, free_port

SMTP_PORT = free_port()
# One file per test run: the stack's processes and this one add the seconds written there.
SHIFT_FILE = Path(f"/tmp/harehra-test-clock-{os.getpid()}")
pytestmark = [
    pytest.mark.server,
    pytest.mark.django_db(transaction=True),
    pytest.mark.stack(
        redis_db=10,
        servers=1,
        worker=True,
        EMAIL_BACKEND="django.core.mail.backends.smtp.EmailBackend",
        EMAIL_HOST="127.0.0.1",
        EMAIL_PORT=str(SMTP_PORT),
        SITE_URL="https://harehra.example",
        CLOCK_SHIFT_FILE=str(SHIFT_FILE),
        BEAT_EVERY_SECONDS="1",  # each decision's notice waits for a sweep: one a second, not every 5 s
    ),
]
HOUR = 3600


@pytest.fixture
def mailbox() -> Any:
    box = Mailbox()
    controller = Controller(box, hostname="127.0.0.1", port=SMTP_PORT)
    controller.start()
    yield box
    controller.stop()


@pytest.fixture
def shared_clock(settings: Any) -> Any:
    settings.CLOCK_SHIFT_FILE = str(SHIFT_FILE)
    clock.reset()
    yield
    clock.reset()


def _person(make_user: Any, name: str) -> Any:
    user = make_user(name)
    user.email = f"{name}@example.org"
    user.save(update_fields=["email"])
    Preference.objects.update_or_create(user=user, defaults={"email_verified": user.email, "language": ""})
    return user


def _wait(what: Any, timeout: float = 20) -> Any:
    deadline = time.monotonic() + timeout
    while not (got := what()):
        assert time.monotonic() < deadline, "waited in vain"
        time.sleep(0.2)
    return got


def _mail_saying(mailbox: Mailbox, to: str, words: str) -> bool:
    with mailbox.changed:
        mails = [m for rcpt, m in mailbox.messages if to in rcpt]
    return any(words in m.get_body(preferencelist=("plain",)).get_content() for m in mails)


def _once(game: Game) -> str:
    return f"turn:{game.pk}:{int(game.deadline_at.timestamp() * 1000)}"


def test_a_slow_game_over_days_tells_each_decision_once_and_plays_a_missed_one(
    stack: Stack, mailbox: Mailbox, make_user: Any, shared_clock: Any
) -> None:
    people = [_person(make_user, n) for n in ("ada", "bea", "cid", "dan")]
    by_id = {p.pk: p for p in people}
    game = start_table(people, rated=True, pace="slow", decision_seconds=HOUR)
    rng = random.Random(7)
    told = 0
    missed_user = None
    for step in range(400):
        game.refresh_from_db()
        if game.status != GameStatus.RUNNING:
            break
        state = load_state(game)
        seat = game.awaiting_seat
        row = GameSeat.objects.get(game=game, seat=seat)
        if step < 12 and game.slow_tell:
            # The beat tells the awaited person, once, before they decide.
            once = _once(game)
            _wait(lambda o=once, u=row.user_id: Notification.objects.filter(user_id=u, once=o).exists())
            notices = Notification.objects.filter(once=once)
            assert [(n.user_id, n.kind) for n in notices] == [(row.user_id, Kind.SLOW_TURN)]
            told += 1
            if told == 1:
                mail = mailbox.wait_for(by_id[row.user_id].email)
                body = mail.get_body(preferencelist=("plain",)).get_content()
                assert f"Your decision at table {game.table_id}" in body
        if missed_user is None and step >= 4 and game.awaiting_kind == "turn":
            # This one is left to pass: the clock moves past its deadline, the beat's sweep plays it.
            missed_user, seq = row.user_id, game.last_seq
            clock.shift(game.deadline_at - clock.now() + timedelta(seconds=2))
            _wait(lambda s=seq: Game.objects.get(pk=game.pk).last_seq != s)
            assert GameEvent.objects.get(game=game, seq=seq + 1).actor_id is None
            missed = Notification.objects.filter(user_id=missed_user, kind=Kind.DECISION_MISSED)
            _wait(missed.exists)
            _wait(lambda u=missed_user: _mail_saying(mailbox, by_id[u].email, "a bot played it for you"))
            assert GameSeat.objects.get(pk=row.pk).missed_deadlines == 1
            continue
        command = {k: v for k, v in rng.choice(legal_commands(state, seat)).items() if k != "seat"}
        try:
            game_command_submit(game=game, user=by_id[row.user_id], command=command, client_cmd_id=f"s{step}")
        except ServiceError:
            # A seat with no answer to give declines by itself a few seconds after it is asked
            # (the beat's sweep, on the moved clock), sometimes before its person would have.
            continue
        clock.shift(timedelta(minutes=25))  # decisions come over days, each well within its hour
    game.refresh_from_db()
    if game.status == GameStatus.RUNNING:  # the rest at once, for the replay
        game = play_out(game, rng)
    assert game.status == GameStatus.FINISHED and missed_user is not None and told >= 6
    # Told once per decision: every notice names a decision of its own.
    onces = list(Notification.objects.filter(kind=Kind.SLOW_TURN).values_list("once", flat=True))
    assert len(onces) == len(set(onces))
    assert Notification.objects.filter(kind=Kind.DECISION_MISSED).count() == 1
    # The replay of the finished game, like any other's.
    assert Client().get(f"/replays/{game.pk}/").status_code == 200
