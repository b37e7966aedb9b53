"""The kinds that tell a person something happened: their decision awaited in a game whose page
they do not have open, a tournament they entered about to start, a moderator's decision."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone, translation

from games.models import Game, GameSeat
from games.services.turns import your_turn_sweep
from notifications.models import Kind, Notification
from notifications.selectors import notification_text, notification_url
from tests.factories import play_out, start_table
from tests.moderation.conftest import make_moderator

pytestmark = pytest.mark.django_db


def _turns() -> list[tuple[int, dict[str, Any]]]:
    return list(
        Notification.objects.filter(kind=Kind.YOUR_TURN).order_by("pk").values_list("user_id", "data")
    )


def _awaited(game: Game) -> GameSeat:
    game.refresh_from_db()
    return GameSeat.objects.get(game=game, seat=game.awaiting_seat)


def test_your_turn_is_told_once_per_decision_to_a_person_whose_page_is_not_open(make_user: Any) -> None:
    import random

    ann, bob = make_user("ann"), make_user("bob")
    game = start_table([ann, bob], rated=False, turn_timer=60, reaction_timer=60, discard_timer=60)
    seat = _awaited(game)
    # Nobody has the game's page open: the awaited person is told, with no card in it.
    assert your_turn_sweep() == 1
    assert your_turn_sweep() == 0  # the same decision: not again
    [(user_id, data)] = _turns()
    assert user_id == seat.user_id
    assert set(data) == {"game", "table", "deadline"} and data["game"] == game.pk
    n = Notification.objects.get(kind=Kind.YOUR_TURN)
    assert notification_url(n) == f"/games/{game.pk}/"
    assert notification_text(n).startswith(f"Your move at table {game.table_id} (game {game.pk})")
    with translation.override("cs"):
        assert notification_text(n).startswith(f"Jste na tahu u stolu {game.table_id} (hra {game.pk})")

    # The next decision is a new one: told again, to whoever it awaits.
    play_out(game, random.Random(1), moves=1)
    nxt = _awaited(game)
    assert your_turn_sweep() == 1
    assert [u for u, _ in _turns()] == [seat.user_id, nxt.user_id]

    # A page open on the game (a socket counted on the seat): nothing for its decision.
    play_out(game, random.Random(2), moves=1)
    open_seat = _awaited(game)
    GameSeat.objects.filter(pk=open_seat.pk).update(connections=1)
    assert your_turn_sweep() == 0
    # ... nor a second after it closed (a reload), but once it has stayed closed.
    GameSeat.objects.filter(pk=open_seat.pk).update(connections=0, disconnected_at=timezone.now())
    assert your_turn_sweep() == 0
    GameSeat.objects.filter(pk=open_seat.pk).update(disconnected_at=timezone.now() - timedelta(seconds=5))
    assert your_turn_sweep() == 1
    # A seat a bot plays for its person is not told.
    play_out(game, random.Random(3), moves=1)
    GameSeat.objects.filter(pk=_awaited(game).pk).update(bot_playing=True)
    assert your_turn_sweep() == 0
    assert len(_turns()) == 3


def test_your_turn_is_not_told_for_a_short_decision_nor_one_nearly_over(make_user: Any) -> None:
    ann, bob = make_user("ann"), make_user("bob")
    short = start_table([ann, bob], rated=False, turn_timer=20, reaction_timer=20, discard_timer=20)
    assert your_turn_sweep() == 0
    long = start_table(
        [make_user(), make_user()], rated=False, turn_timer=60, reaction_timer=60, discard_timer=60
    )
    Game.objects.filter(pk=long.pk).update(deadline_at=timezone.now() + timedelta(seconds=8))
    assert your_turn_sweep() == 0
    Game.objects.filter(pk=long.pk).update(deadline_at=timezone.now() + timedelta(seconds=40))
    assert your_turn_sweep() == 1
    assert short.pk not in [d["game"] for _, d in _turns()]


def test_your_turn_reads_each_decision_by_its_own_window(make_user: Any) -> None:
    """A discard at a table whose discards are short is not told though its turns are long; a
    reaction is, when the table's reactions are long (its seat holds no answer)."""
    game = start_table(
        [make_user(), make_user()], rated=False, turn_timer=60, reaction_timer=60, discard_timer=10
    )
    Game.objects.filter(pk=game.pk).update(
        awaiting_kind="discard", deadline_at=timezone.now() + timedelta(seconds=40)
    )
    assert your_turn_sweep() == 0
    Game.objects.filter(pk=game.pk).update(awaiting_kind="volley")
    assert your_turn_sweep() == 1
    short = start_table(
        [make_user(), make_user()], rated=False, turn_timer=60, reaction_timer=10, discard_timer=60
    )
    Game.objects.filter(pk=short.pk).update(
        awaiting_kind="skip", deadline_at=timezone.now() + timedelta(seconds=40)
    )
    assert your_turn_sweep() == 0


def test_the_entrants_of_a_tournament_starting_in_5_minutes_are_told_once(make_user: Any, staff: Any) -> None:
    from tournaments.models import Entry, Tournament
    from tournaments.services import tournaments_starting_notify

    now = timezone.now()
    ann, bob, carl, dora = make_user("ann"), make_user("bob"), make_user("carl"), make_user("dora")

    def event(name: str, minutes: float, *people: Any) -> Tournament:
        t = Tournament.objects.create(
            name=name, format="arena", entry_opens_at=now - timedelta(hours=1),
            starts_at=now + timedelta(minutes=minutes), created_by=staff,
        )  # fmt: skip
        for p in people:
            Entry.objects.create(tournament=t, user=p)
        return t

    soon = event("Friday arena", 4, ann, bob)
    event("Later", 10, carl)
    Entry.objects.create(tournament=soon, user=dora, withdrawn=True)
    assert tournaments_starting_notify() == 2
    assert tournaments_starting_notify() == 0
    told = Notification.objects.filter(kind=Kind.TOURNAMENT_STARTING).order_by("user_id")
    assert [n.user_id for n in told] == [ann.pk, bob.pk]
    n = told[0]
    assert notification_url(n) == f"/tournaments/{soon.pk}/"
    assert notification_text(n).startswith("Friday arena, a tournament you entered, starts at ")


def test_a_moderators_decision_is_told_to_the_person_it_is_about(make_user: Any) -> None:
    from moderation.models import Report
    from moderation.services import report_create, report_dismiss, report_resolve, user_ban, user_suspend

    moderator = make_moderator(make_user)
    ann, bob, carl = make_user("ann"), make_user("bob"), make_user("carl")
    first = report_create(reporter=ann, reason="abuse", text="rude", target_username="bob")
    second = report_create(reporter=carl, reason="spam", target_username="bob")
    report_resolve(moderator=moderator, report=Report.objects.get(pk=first.pk), note="warned him")
    report_dismiss(moderator=moderator, report=Report.objects.get(pk=second.pk), note="nothing there")
    user_suspend(moderator=moderator, user=bob, reason="Abuse in the chat", period=timedelta(days=3))
    user_ban(moderator=moderator, user=carl, reason="Spam again")

    def told(user: Any) -> list[dict[str, Any]]:
        return list(
            Notification.objects.filter(user=user, kind=Kind.MODERATION)
            .order_by("pk")
            .values_list("data", flat=True)
        )

    assert told(ann) == [{"action": "report_resolved", "report": first.pk}]  # the note is not sent
    [bob_told] = told(bob)  # a report about him being handled is not told to him
    assert bob_told["action"] == "suspend" and bob_told["reason"] == "Abuse in the chat"
    assert [d["action"] for d in told(carl)] == ["report_dismissed", "ban"]
    texts = [notification_text(n) for n in Notification.objects.filter(kind=Kind.MODERATION).order_by("pk")]
    assert texts[0] == f"Your report #{first.pk} was handled: a moderator acted on it. Thank you."
    assert texts[1] == f"Your report #{second.pk} was looked at: a moderator found nothing to act on."
    assert texts[2].startswith("A moderator suspended your account until ") and texts[2].endswith(
        "Reason: Abuse in the chat"
    )
    assert texts[3] == "A moderator banned your account. Reason: Spam again"
    with translation.override("cs"):
        assert notification_text(Notification.objects.get(user=carl, data__action="ban")) == (
            "Moderátor zablokoval váš účet. Důvod: Spam again"
        )
    # The reporter reads it on the notifications page.
    page = Client()
    page.force_login(ann)
    assert "was handled: a moderator acted on it" in page.get("/notifications/").content.decode()


@pytest.mark.django_db(transaction=True)  # real commits: each transaction's pushes are one task
def test_a_sweeps_notices_are_pushed_in_one_task_and_one_failure_stops_no_other(
    make_user: Any, settings: Any, monkeypatch: Any
) -> None:
    from notifications import services
    from webpush import followups
    from webpush.management.commands.vapid_keys import vapid_key_pair
    from webpush.models import PushSubscription

    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = vapid_key_pair()
    sent: list[list[int]] = []
    games = []
    for i in range(3):
        people = [make_user(f"p{i}a"), make_user(f"p{i}b")]
        games.append(start_table(people, rated=False, turn_timer=60, reaction_timer=60, discard_timer=60))
    awaited = [_awaited(g).user_id for g in games]
    for k, user_id in enumerate(awaited):
        PushSubscription.objects.create(
            user_id=user_id, endpoint=f"https://push.example.net/{k}", p256dh="x", auth="y"
        )
    failing = awaited[1]
    real = services.notification_send

    def send_task(name: str, args: Any = (), **kwargs: Any) -> None:
        if name == followups.PUSH_TASK:  # the game's own tasks (timers) are not this test's
            sent.append(args[0])

    monkeypatch.setattr(followups.app, "send_task", send_task)

    def send(**kwargs: Any) -> Any:
        if kwargs["user_id"] == failing:
            raise RuntimeError("a broken notice")
        return real(**kwargs)

    monkeypatch.setattr("games.services.turns.notification_send", send)

    assert your_turn_sweep() == 2

    told = [u for u, _ in _turns()]
    assert sorted(told) == sorted([awaited[0], awaited[2]])
    assert sent == [
        list(Notification.objects.filter(kind=Kind.YOUR_TURN).order_by("pk").values_list("pk", flat=True))
    ]
