"""Who may enter: a suspended or banned person is refused with a stable code (service and API) and
a message (page), a muted one may play; a player sanctioned after entering is not seated."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from accounts.models import Mute, Sanction, SanctionKind
from games.models import GameSeat
from plumbing.errors import ServiceError
from tests.tournaments.test_services import event
from tournaments.models import Entry, EventSeat, EventTable, Round
from tournaments.services import tournament_join, tournament_start

pytestmark = pytest.mark.django_db


def suspend(user: Any, by: Any, hours: int = 24) -> None:
    # Written directly, not through moderation's service: that one also ends the person's sessions
    # and tokens, and these tests ask what tournaments itself refuses.
    Sanction.objects.create(
        user=user,
        kind=SanctionKind.SUSPEND,
        until=timezone.now() + timedelta(hours=hours),
        reason="x",
        created_by=by,
    )


def ban(user: Any, by: Any) -> None:
    Sanction.objects.create(user=user, kind=SanctionKind.BAN, until=None, reason="x", created_by=by)


def test_a_suspended_or_banned_person_cannot_enter_a_muted_one_can(staff: Any, make_user: Any) -> None:
    t = event(staff)
    suspended, banned, muted, lifted = (make_user() for _ in range(4))
    suspend(suspended, staff)
    ban(banned, staff)
    Mute.objects.create(user=muted, until=None, reason="x", created_by=staff)
    Sanction.objects.create(
        user=lifted, kind=SanctionKind.BAN, reason="x", created_by=staff, lifted_at=timezone.now()
    )
    with pytest.raises(ServiceError) as e:
        tournament_join(tournament=t, user=suspended)
    assert (e.value.code, e.value.status) == ("suspended", 403) and "until" in e.value.detail
    with pytest.raises(ServiceError) as e:
        tournament_join(tournament=t, user=banned)
    assert (e.value.code, e.value.status) == ("banned", 403)
    tournament_join(tournament=t, user=muted)  # a mute stops chatting, not playing
    tournament_join(tournament=t, user=lifted)  # a lifted ban is no ban
    assert sorted(Entry.objects.filter(tournament=t).values_list("user_id", flat=True)) == sorted(
        [muted.pk, lifted.pk]
    )


def test_the_api_answers_the_code_and_the_page_says_why(staff: Any, make_user: Any, client_for: Any) -> None:
    t = event(staff)
    ana, bo = make_user("ana"), make_user("bo")
    api = client_for(ana)  # the token was made before the suspension: the service still refuses
    suspend(ana, staff)
    r = api.post(f"/api/tournaments/{t.pk}/join/")
    assert r.status_code == 403 and r.json()["code"] == "suspended"
    page = Client()
    page.force_login(bo)
    ban(bo, staff)
    r = page.post(f"/tournaments/{t.pk}/join/", follow=True)
    assert "Your account is banned: you cannot enter tournaments." in r.content.decode()
    page = Client(headers={"accept-language": "cs"})
    page.force_login(bo)
    r = page.post(f"/tournaments/{t.pk}/join/", follow=True)
    assert "Váš účet je zablokován" in r.content.decode()
    assert not Entry.objects.filter(tournament=t).exists()


def test_a_player_suspended_after_entering_is_not_seated(staff: Any, make_user: Any) -> None:
    swiss = event(staff, table_size=3, min_table_size=3, rounds=2, bots_fill=False, rated=False)
    arena = event(staff, format="arena", table_size=3, min_table_size=3, bots_fill=False, rated=False)
    # Different people in each (a person plays at one table at a time: see test_services).
    groups = {swiss.pk: [make_user() for _ in range(4)], arena.pk: [make_user() for _ in range(4)]}
    for t in (swiss, arena):
        for u in groups[t.pk]:
            tournament_join(tournament=t, user=u)
        suspend(groups[t.pk][0], staff)
    for t in (swiss, arena):
        people = groups[t.pk]
        tournament_start(tournament=t, user=staff)
        (table,) = EventTable.objects.filter(tournament=t)  # the three others, at one table
        seated = set(EventSeat.objects.filter(event_table=table).values_list("entry__user_id", flat=True))
        assert seated == {u.pk for u in people[1:]}
        assert not GameSeat.objects.filter(game_id=table.game_id, user=people[0]).exists()
    assert Round.objects.get(tournament=swiss).number == 1
    assert not Entry.objects.get(tournament=swiss, user=groups[swiss.pk][0]).results.exists()  # and no bye
