"""One 4-seat slow game over three days of moved clock, with the real stack: a server, a worker and
its beat (the sweep and the notices), a local mail server and a local push service. The clock is
moved through CLOCK_SHIFT_FILE, which the test process and the stack's processes read alike
(plumbing/clock.py); the beat runs its sweep and its notices every second (BEAT_EVERY_SECONDS).

The people play through the server's API. Every decision that waits for its person is told to
that person once, by the beat: on the site, by a push their subscribed browser receives, and by
email. Ada's standing answer plays her Hare Taptap at the end of its few seconds, and nothing
wakes her for it; Cid's holiday of a day moves his awaited deadline by a day, tells the table, and
nothing fires while it runs; one of Bea's deadlines is let pass, the sweep plays it by the
autopilot and she is told. The finished game's replay opens and its analysis is asked for and
made like any other game's.

The deal (tests/support/decks.py) makes the first moves sure and the game short: Ada (seat 0)
holds the one Hare Taptap dealt, the draw pile is Hare Cumi, and seat 1 starts.
"""

from __future__ import annotations

import json
import os
import tempfile
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
import requests
from django.test import override_settings

from accounts.models import Preference
from accounts.services import user_token
from analysis.tasks import analyse_game
from chat.models import ChatMessage
from games.eventlog import load_state
from games.models import Game, GameEvent, GameSeat, GameStatus
from harehra import legal_commands
from harehra.analysis import ANALYSIS_VERSION
from notifications.models import Kind, Notification
from notifications.selectors import notification_text
from plumbing import clock
from tests.factories import start_table
from tests.support.decks import STACKED, stacked_deck
from tests.support.mail import SMTP_ENV, Mailbox, body_of
from tests.support.pushservice import BrowserKeys, PushService, push_service
from tests.support.stack import Stack
from webpush.management.commands.vapid_keys import vapid_key_pair

# One file per test run: the stack's processes and this one add the seconds written there.
SHIFT_FILE = Path(f"/tmp/harehra-test-clock-{os.getpid()}")
# The stack's processes share their metrics here: the test counts the beat's sweeps.
METRICS_DIR = tempfile.mkdtemp(prefix="harehra-slow-metrics-")
PUBLIC_KEY, PRIVATE_KEY = vapid_key_pair()
pytestmark = [
    pytest.mark.server,
    pytest.mark.django_db(transaction=True),
    pytest.mark.stack(
        redis_db=10,
        servers=1,
        worker=True,
        SITE_URL="https://harehra.example",
        CLOCK_SHIFT_FILE=str(SHIFT_FILE),
        BEAT_EVERY_SECONDS="1",
        PROMETHEUS_MULTIPROC_DIR=METRICS_DIR,
        VAPID_PUBLIC_KEY=PUBLIC_KEY,
        VAPID_PRIVATE_KEY=PRIVATE_KEY,
        VAPID_SUBJECT="mailto:push@harehra.test",
        PUSH_SERVICE_HOSTS="127.0.0.1",
        PUSH_SERVICE_HTTP="1",
        **SMTP_ENV,
    ),
]
HOUR = 3600
DECISION = 8 * HOUR  # the table's time for each decision
BETWEEN = timedelta(minutes=90)  # the clock moves this much after each decision a person makes
HOLIDAY_AT, MISSED_AT = 2, 4  # the decisions (told, in order) taken on holiday and let pass
HANDS = (
    ("taptap", "right", "right", "house", "left"),
    ("cumi", "left", "left", "house", "strom"),
    ("cumi", "strom", "strom", "right", "house"),
    ("right", "left", "house", "zada", "strom"),
)
DRAWS = ("cumi",) * 18  # every other Hare Cumi of the deck


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
        time.sleep(0.1)
    return got


def _once(game: Game) -> str:
    """The occasion a decision's notice names (games/services/turns.py)."""
    return f"turn:{game.pk}:{int(game.deadline_at.timestamp() * 1000)}"


def _seq(game_id: int) -> int:
    return Game.objects.values_list("last_seq", flat=True).get(pk=game_id)


def _sweeps() -> float:
    """The beat's sweeps run so far, from the stack's shared metrics."""
    from prometheus_client import CollectorRegistry
    from prometheus_client.multiprocess import MultiProcessCollector

    registry = CollectorRegistry()
    MultiProcessCollector(registry, METRICS_DIR)
    return registry.get_sample_value("harehra_sweeps_total") or 0.0


class Api:
    """A person's calls to the server's API, with their token."""

    def __init__(self, base: str, user: Any) -> None:
        self.base, self.session = base, requests.Session()
        self.session.headers["Authorization"] = f"Token {user_token(user=user)}"

    def post(self, path: str, body: dict[str, Any] | None = None) -> requests.Response:
        return self.session.post(self.base + path, json=body or {}, timeout=10)

    def get(self, path: str) -> requests.Response:
        return self.session.get(self.base + path, timeout=10)


def _subscribe(api: Api, pushes: PushService, name: str, keys: BrowserKeys) -> None:
    body = {
        "endpoint": pushes.endpoint(f"push/{name}"),
        "expirationTime": None,
        "keys": {"p256dh": keys.p256dh, "auth": keys.auth_b64},
    }
    r = api.post("/api/push/subscriptions/", body)
    assert r.status_code == 201, r.text


def _choice(game: Game, seat: int, first_turn: bool) -> dict[str, Any]:
    """What the awaited person decides: the first turn aims one Hare Cumi at Ada; then a turn aims
    every Hare Cumi held at the most hurt seat it may, or plays the first other card (or burns);
    a reaction declines; a discard keeps the Hare Cumi."""
    state = load_state(game)
    legal = [{k: v for k, v in c.items() if k != "seat"} for c in legal_commands(state, seat)]
    if game.awaiting_kind == "turn":
        cumi = [c for c in legal if c.get("play", [""])[0] == "cumi"]
        if first_turn:
            return next(c for c in cumi if c["target"] == 0 and len(c["play"]) == 1)
        if cumi:
            most = max(len(c["play"]) for c in cumi)
            return max(
                (c for c in cumi if len(c["play"]) == most),
                key=lambda c: (state.damage[c["target"]], -c["target"]),
            )
        return next((c for c in legal if "play" in c), legal[0])
    if game.awaiting_kind == "discard":
        return min(legal, key=lambda c: sum(card == "cumi" for card in c["discard"]))
    return {"react": "none"}


def test_one_slow_game_over_three_days_told_paused_missed_and_analysed(
    stack: Stack, mailbox: Mailbox, make_user: Any, shared_clock: Any, settings: Any, monkeypatch: Any
) -> None:
    base = stack.url()
    people = [_person(make_user, n) for n in ("ada", "bea", "cid", "dan")]
    keys = {p.pk: BrowserKeys() for p in people}
    apis = {p.pk: Api(base, p) for p in people}
    with push_service() as pushes:
        for p in people:
            _subscribe(apis[p.pk], pushes, p.username, keys[p.pk])
        monkeypatch.setenv("DECK_TOP", ",".join(stacked_deck(HANDS, DRAWS, first=1)))
        with override_settings(GAME_SHUFFLE=STACKED):
            game = start_table(people, rated=True, pace="slow", decision_seconds=DECISION)
        started, game_id = clock.now(), game.pk
        seated = {s.seat: s.user for s in GameSeat.objects.filter(game=game).select_related("user")}
        ada, bea, cid = seated[0], seated[1], seated[2]
        assert "taptap" in load_state(game).hands[0] and game.awaiting_seat == 1
        r = apis[ada.pk].post(f"/api/games/{game.pk}/standing-answers/", {"volley": "taptap"})
        assert r.json() == {"volley": "taptap", "skip": "ask"}

        told: list[tuple[str, int]] = []  # (occasion, person) of each decision awaited from a person
        standing: str | None = None  # the occasion Ada's standing answer had
        for step in range(200):
            game = Game.objects.get(pk=game_id)
            if game.status != GameStatus.RUNNING:
                break
            seat, seq = game.awaiting_seat, game.last_seq
            person = seated[seat]
            if game.deadline_at - clock.now() < timedelta(minutes=1):
                # A reaction answered within seconds whoever holds what: a standing answer, or a
                # seat with no answer to give. Its few seconds pass; the beat's sweep plays it.
                ada_standing = seat == 0 and game.awaiting_kind == "volley" and standing is None
                if ada_standing:
                    standing = _once(game)
                    assert "taptap" in load_state(game).hands[0]
                clock.shift(timedelta(minutes=1))
                _wait(lambda s=seq: _seq(game_id) != s)
                if ada_standing:
                    played = GameEvent.objects.get(game=game, seq=seq + 1)
                    assert (played.type, played.actor_id) == ("ReactionPlayed", None)
                    assert played.payload["seat"] == 0 and played.payload["card"] == "taptap"
                continue

            # A decision that waits for its person: the beat tells them, once, before they decide.
            once = _once(game)
            _wait(lambda o=once, u=person.pk: Notification.objects.filter(user_id=u, once=o).exists())
            assert list(Notification.objects.filter(once=once).values_list("user_id", "kind")) == [
                (person.pk, Kind.SLOW_TURN)
            ]
            told.append((once, person.pk))

            if len(told) == HOLIDAY_AT:
                # Cid goes on holiday for a day: his deadline moves by a day, the table is told.
                assert person == cid
                before = game.deadline_at
                r = apis[cid.pk].post("/api/holidays/", {"days": 1})
                assert r.status_code == 201, r.text
                ends = clock.now() + timedelta(days=1)
                game.refresh_from_db()
                assert game.deadline_at == before + timedelta(days=1)
                chat = apis[bea.pk].get(f"/api/tables/{game.table_id}/chat/").json()
                said = [m["user"] for m in chat["messages"] if m["notice"] == "holiday_started"]
                assert said == [cid.username]
                assert (
                    ChatMessage.objects.filter(table_id=game.table_id, notice="holiday_started").count() == 2
                )
                # The deadline it had passes: the beat sweeps (twice: one that began before the
                # clock moved may have read the time before) and plays nothing.
                clock.shift(before - clock.now() + timedelta(hours=1))
                sweeps = _sweeps()
                _wait(lambda n=sweeps: _sweeps() >= n + 2)
                assert _seq(game_id) == seq
                assert not Notification.objects.filter(kind=Kind.DECISION_MISSED).exists()
                # Back from the holiday, Cid plays within the time he had left.
                clock.shift(ends - clock.now() + timedelta(minutes=10))
            elif len(told) == MISSED_AT:
                # Bea lets this one pass: the beat's sweep plays it by the autopilot, and tells her.
                assert person == bea
                clock.shift(game.deadline_at - clock.now() + timedelta(minutes=1))
                _wait(lambda s=seq: _seq(game_id) != s)
                assert GameEvent.objects.get(game=game, seq=seq + 1).actor_id is None
                _wait(Notification.objects.filter(user_id=bea.pk, kind=Kind.DECISION_MISSED).exists)
                assert GameSeat.objects.get(game=game, seat=1).missed_deadlines == 1
                continue

            command = _choice(game, seat, first_turn=len(told) == 1)
            r = apis[person.pk].post(
                f"/api/games/{game.pk}/commands/", {"client_cmd_id": f"s{step}", **command}
            )
            assert r.status_code == 200, (command, r.text)
            clock.shift(BETWEEN)
        game = Game.objects.get(pk=game.pk)
        assert game.status == GameStatus.FINISHED, "the game did not end"
        assert clock.now() - started >= timedelta(days=3)
        assert standing is not None, "Ada's standing Taptap never answered"
        assert standing not in {once for once, _ in told}
        assert GameSeat.objects.get(game=game, seat=0).missed_deadlines == 0

        # Every decision told once, to its person, and nothing else; the missed one told too.
        notices = list(Notification.objects.order_by("pk"))
        assert sorted((n.once, n.user_id) for n in notices if n.kind == Kind.SLOW_TURN) == sorted(told)
        assert [(n.kind, n.user_id) for n in notices if n.kind != Kind.SLOW_TURN] == [
            (Kind.DECISION_MISSED, bea.pk)
        ]
        assert all(n.data["game"] == game.pk for n in notices)

        # ... by a push each, to that person's browser (which alone can read it) ...
        received = pushes.wait_for(len(notices), timeout=30)
        by_path = {f"/push/{p.username}": p.pk for p in people}
        pushed = []
        for r in received:
            user_id = by_path[r.path]
            message = json.loads(keys[user_id].decrypt(r.body))
            pushed.append((user_id, int(message["tag"].removeprefix("notification-"))))
        assert sorted(pushed) == sorted((n.user_id, n.pk) for n in notices)

        # ... and by an email each, in its person's words.
        for p in people:
            texts = sorted(notification_text(n) for n in notices if n.user_id == p.pk)
            if texts:
                mailbox.wait_for(p.email, count=len(texts))
            bodies = [body_of(m) for m in mailbox.to(p.email)]
            assert sorted(next((t for t in texts if t in b), b) for b in bodies) == texts, p.username

    # The replay of the finished game, and its analysis, like any other's.
    assert requests.get(f"{base}/replays/{game.pk}/", timeout=10).status_code == 200
    asked = apis[ada.pk].post(f"/api/replays/{game.pk}/analysis/")
    assert asked.status_code == 202 and asked.json()["status"] == "queued", asked.text
    settings.ANALYSIS_PLAYOUTS = 2
    analyse_game(game.pk)  # the analysis worker takes it from its queue
    body = apis[bea.pk].get(f"/api/replays/{game.pk}/analysis/").json()
    assert body["status"] == "done" and body["version"] == ANALYSIS_VERSION
    assert len(body["analysis"]["chances"]) == game.last_seq
    assert len(body["analysis"]["accuracy"]) == 4
