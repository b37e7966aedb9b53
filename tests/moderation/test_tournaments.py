"""Moderators remove a player from a tournament or cancel one, through moderation's services (the
admin's actions with their confirm page, and the API), each with its audit entry; nobody else can.
A removed player's game in progress goes on with a bot and counts as lost; a cancelled event seats
nothing more, and its games in progress are played to their end and count."""

from __future__ import annotations

import random
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client

from games.eventlog import events_with_seq
from games.models import Game, GameSeat, GameStatus, Seat, TableStatus
from games.services.seats import seat_reclaim
from harehra import EventType
from moderation import services
from moderation.models import AuditEntry
from plumbing.errors import ServiceError
from tests.factories import play_out
from tests.tournaments.test_services import event, play_open_tables
from tournaments.models import Entry, EventSeat, EventTable, Result, Status
from tournaments.selectors import tournament_detail
from tournaments.services import tournament_join, tournament_seat_round, tournament_start, tournament_tick

pytestmark = pytest.mark.django_db
ENTRANTS = "/admin/moderation/moderatedentry/"
TOURNAMENTS = "/admin/moderation/moderatedtournament/"


def _browser(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _act(client: Client, url: str, action: str, ids: list[int], **form: str) -> Any:
    return client.post(url, {"action": action, "_selected_action": ids, "apply": "1", **form})


def _running_arena(staff: Any, make_user: Any, people: int = 4) -> tuple[Any, list[Any]]:
    t = event(staff, format="arena", table_size=4, min_table_size=4, bots_fill=False, rated=False)
    users = [make_user() for _ in range(people)]
    for u in users:
        tournament_join(tournament=t, user=u)
    tournament_start(tournament=t, user=staff)
    return t, users


def test_a_removed_players_game_goes_on_with_a_bot_and_counts_as_lost(
    staff: Any, make_user: Any, moderator: Any
) -> None:
    t, _ = _running_arena(staff, make_user, people=5)  # four at a table, one waiting
    (table,) = EventTable.objects.filter(tournament=t)
    game = Game.objects.get(pk=table.game_id)
    cheat = EventSeat.objects.filter(event_table=table).first().entry.user
    play_out(game, random.Random(1), moves=6)  # under way
    entry = Entry.objects.get(tournament=t, user=cheat)
    services.tournament_player_remove(moderator=moderator, entry=entry, reason="colluding")

    entry.refresh_from_db()
    assert entry.withdrawn and entry.removed_at is not None and not entry.paused
    seat = GameSeat.objects.get(game=game, user=cheat)
    assert seat.bot_playing and not Seat.objects.filter(table_id=table.table_id, user=cheat).exists()
    _, last = events_with_seq(game, after=Game.objects.get(pk=game.pk).last_seq - 1)[-1]
    assert last == {"type": EventType.SEAT_TAKEN_BY_BOT, "version": 1, "seat": seat.seat, "reason": "left"}
    with pytest.raises(ServiceError) as e:
        seat_reclaim(game=game, user=cheat)
    assert e.value.code == "left_table"
    audit = AuditEntry.objects.get(action="remove_player")
    assert (audit.actor, audit.target_type, audit.target_id) == (
        moderator,
        "tournaments.entry",
        str(entry.pk),
    )
    assert cheat.username in audit.target and f"(#{t.pk})" in audit.target and audit.reason == "colluding"

    play_out(Game.objects.get(pk=game.pk), random.Random(2))
    lost = Result.objects.get(entry=entry, game=game)
    assert (lost.place, lost.points, lost.bot_played, lost.won) == (4, 0, True, False)
    made = tournament_seat_round(tournament=t)  # the other four, never the removed one
    assert len(made) == 1 and not EventSeat.objects.filter(event_table=made[0], entry=entry).exists()
    play_open_tables(t, random.Random(3))
    standings = tournament_detail(t, cheat)["standings"]
    assert standings[-1]["player"] == cheat.username and standings[-1]["removed"] is True
    assert all(r["rank"] < standings[-1]["rank"] for r in standings[:-1])  # after everyone still in
    out = StringIO()
    call_command("rebuild_tournament", str(t.pk), stdout=out)
    assert out.getvalue().endswith(" 0 differences\n")
    with pytest.raises(ServiceError) as e:
        tournament_join(tournament=t, user=cheat)
    assert (e.value.code, e.value.status) == ("removed", 403)
    with pytest.raises(ServiceError) as e:
        services.tournament_player_remove(moderator=moderator, entry=entry, reason="again")
    assert e.value.code == "already_removed"
    assert AuditEntry.objects.filter(action="remove_player").count() == 1


def test_a_removed_player_is_never_on_the_podium(staff: Any, make_user: Any, moderator: Any) -> None:
    t = event(staff, rounds=1, rated=False)  # Swiss, one table of 3
    users = [make_user() for _ in range(3)]
    for u in users:
        tournament_join(tournament=t, user=u)
    tournament_start(tournament=t, user=staff)
    play_open_tables(t, random.Random(4))
    leader = tournament_detail(t, staff)["standings"][0]["player"]
    entry = Entry.objects.get(tournament=t, user__username=leader)
    services.tournament_player_remove(moderator=moderator, entry=entry, reason="cheated")
    tournament_seat_round(tournament=t)  # the last round is over: finished
    t.refresh_from_db()
    d = tournament_detail(t, staff)
    assert d["status"] == Status.FINISHED
    assert leader not in [r["player"] for r in d["podium"]] and len(d["podium"]) == 2
    assert d["standings"][-1]["player"] == leader
    with pytest.raises(ServiceError) as e:  # a finished event's standings are final
        services.tournament_player_remove(moderator=moderator, entry=entry, reason="x")
    assert e.value.code == "ended"


def test_a_cancelled_event_seats_nothing_more_and_its_running_games_still_count(
    staff: Any, make_user: Any, moderator: Any
) -> None:
    t, _ = _running_arena(staff, make_user)
    (table,) = EventTable.objects.filter(tournament=t)
    services.tournament_cancel(moderator=moderator, tournament=t, reason="server trouble")
    t.refresh_from_db()
    assert t.status == Status.CANCELLED and t.finished_at is not None
    audit = AuditEntry.objects.get(action="cancel_event")
    assert (audit.target_type, audit.target_id, audit.reason) == (
        "tournaments.tournament",
        str(t.pk),
        "server trouble",
    )
    game = Game.objects.get(pk=table.game_id)
    assert game.status == GameStatus.RUNNING  # nothing is ended for them
    play_out(game, random.Random(5))
    assert Result.objects.filter(tournament=t, game=game).count() == 4  # and it counts
    assert tournament_seat_round(tournament=t) == []
    assert tournament_detail(t, staff)["podium"] == []
    tournament_tick(tournament_id=t.pk)  # the beat lets the people leave the ended game's table
    assert EventTable.objects.get(pk=table.pk).table.status == TableStatus.CLOSED
    with pytest.raises(ServiceError) as e:
        services.tournament_cancel(moderator=moderator, tournament=t, reason="twice")
    assert e.value.code == "ended"
    listed = Client().get("/api/tournaments/").json()["finished"]
    assert [(s["id"], s["status"]) for s in listed] == [(t.pk, "cancelled")]
    page = Client().get(f"/tournaments/{t.pk}/").content.decode()
    assert 'data-status="cancelled"' in page and "This tournament was cancelled." in page


def test_the_admin_asks_then_acts_and_the_api_does_the_same(
    staff: Any, make_user: Any, moderator: Any, client_for: Any
) -> None:
    t, users = _running_arena(staff, make_user)
    c = _browser(moderator)
    for url in (
        ENTRANTS,
        f"{ENTRANTS}?tournament__id__exact={t.pk}",
        TOURNAMENTS,
        f"{TOURNAMENTS}{t.pk}/change/",
    ):
        assert c.get(url).status_code == 200, url
    entry = Entry.objects.get(tournament=t, user=users[0])
    page = c.post(ENTRANTS, {"action": "remove_entrants", "_selected_action": [entry.pk]})  # the confirm page
    assert (
        page.status_code == 200
        and b'name="reason"' in page.content
        and b"recorded in the audit log" in page.content
    )
    assert Entry.objects.get(pk=entry.pk).removed_at is None
    assert _act(c, ENTRANTS, "remove_entrants", [entry.pk], reason="abuse").status_code == 302
    assert Entry.objects.get(pk=entry.pk).removed_at is not None
    page = c.get(f"/admin/auth/user/{users[0].pk}/change/").content.decode()
    assert "Remove from tournament by" in page and "abuse" in page  # the user's history shows it
    event_page = c.get(f"/tournaments/{t.pk}/").content.decode()
    assert f'href="/admin/moderation/moderatedentry/?tournament__id__exact={t.pk}"' in event_page
    assert "remove a player" not in _browser(users[1]).get(f"/tournaments/{t.pk}/").content.decode()

    api = client_for(moderator)
    url = f"/api/moderation/tournaments/{t.pk}/"
    r = api.post(url + f"players/{users[1].username}/remove/", {"reason": "stalling"}, format="json")
    assert r.status_code == 200 and r.json() == {
        "tournament": t.pk, "player": users[1].username, "removed": True, "withdrawn": True
    }  # fmt: skip
    r = api.post(url + "players/nobody/remove/", {"reason": "x"}, format="json")
    assert r.status_code == 404 and r.json()["code"] == "not_entered"
    r = api.post(url + "cancel/", {}, format="json")
    assert r.status_code == 400  # a reason is required
    other = client_for(users[2])
    for path, body in (
        ("cancel/", {"reason": "x"}),
        (f"players/{users[3].username}/remove/", {"reason": "x"}),
    ):
        r = other.post(url + path, body, format="json")
        assert r.status_code == 403 and r.json()["code"] == "permission_denied", path
    assert _browser(users[2]).get(TOURNAMENTS).status_code == 302  # no admin for players
    r = api.post(url + "cancel/", {"reason": "double booked"}, format="json")
    assert r.status_code == 200 and r.json() == {"tournament": t.pk, "status": "cancelled"}
    assert _act(c, TOURNAMENTS, "cancel_tournaments", [t.pk], reason="again").status_code == 302
    assert AuditEntry.objects.filter(action="cancel_event").count() == 1  # the second was refused
    assert AuditEntry.objects.filter(action="remove_player").count() == 2
