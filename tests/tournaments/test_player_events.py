"""Players' own events: created from the tournaments page's form or the API, within limits (429
and 400 with stable codes), cancelled by their host before the start; staff's are featured."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from tests.tournaments.test_services import event
from tournaments import limits
from tournaments.models import Format, Status, Tournament
from tournaments.services import tournament_join, tournament_start

pytestmark = pytest.mark.django_db


def signed_in(user: Any) -> Client:
    c = Client()
    c.force_login(user)
    return c


def spec(**over: Any) -> dict[str, Any]:
    return {
        "name": "Ana's arena",
        "format": "arena",
        "table_size": 2,
        "starts_at": (timezone.now() + timedelta(minutes=10)).isoformat(),
        "duration_minutes": 20,
        **over,
    }


def test_a_player_creates_an_arena_through_the_api_within_the_limits(make_user: Any, client_for: Any) -> None:
    ana = make_user("ana")
    api = client_for(ana)
    r = api.post("/api/tournaments/", spec(), format="json")
    assert r.status_code == 201, r.json()
    body = r.json()
    assert body["featured"] is False and body["host"] == "ana" and body["min_table_size"] == 2
    assert body["entry_open"] is True and body["duration_minutes"] == 20
    # Her event is on /tournaments/ with its host, not in the lobby (staff's featured events).
    assert "Hosted by ana" in Client().get("/tournaments/").content.decode()
    assert "Ana&#x27;s arena" not in Client().get("/lobby/").content.decode()

    for bad, code, status in (
        ({"starts_at": (timezone.now() + timedelta(days=8)).isoformat()}, "bad_dates", 400),
        ({"starts_at": (timezone.now() - timedelta(minutes=5)).isoformat()}, "bad_dates", 400),
        ({"duration_minutes": 5}, "bad_settings", 400),
        ({"format": "swiss", "rounds": 12}, "bad_settings", 400),
        ({"table_size": 6}, "bad_settings", 400),  # 6 need the Big Warren pack
        ({"featured": True}, "not_staff", 403),
    ):
        r = api.post("/api/tournaments/", spec(**bad), format="json")
        assert (r.status_code, r.json()["code"]) == (status, code), bad

    # Two not ended at once: the third waits (429) until one ends or is cancelled.
    assert api.post("/api/tournaments/", spec(format="swiss", rounds=3), format="json").status_code == 201
    r = api.post("/api/tournaments/", spec(), format="json")
    assert r.status_code == 429 and r.json()["code"] == "too_many_events"
    assert Tournament.objects.filter(created_by=ana).count() == limits.PLAYER_EVENTS_AT_ONCE
    first = Tournament.objects.filter(created_by=ana).order_by("id").first()
    assert first is not None
    assert api.post(f"/api/tournaments/{first.pk}/cancel/").json()["status"] == "cancelled"
    # Five created in a day, cancelled ones counted: then 429 with the wait until one ages out.
    for _ in range(limits.PLAYER_EVENTS_PER_DAY - 2):
        r = api.post("/api/tournaments/", spec(), format="json")
        assert r.status_code == 201, r.json()
        api.post(f"/api/tournaments/{r.json()['id']}/cancel/")
    r = api.post("/api/tournaments/", spec(), format="json")
    assert r.status_code == 429 and r.json()["code"] == "too_often"
    assert 0 < int(r["Retry-After"]) <= 24 * 3600
    assert Tournament.objects.filter(created_by=ana).count() == limits.PLAYER_EVENTS_PER_DAY


def test_only_the_host_cancels_and_only_before_the_start(make_user: Any, client_for: Any, staff: Any) -> None:
    ana, bo = make_user("ana"), make_user("bo")
    t = Tournament.objects.get(
        pk=client_for(ana).post("/api/tournaments/", spec(), format="json").json()["id"]
    )
    r = client_for(bo).post(f"/api/tournaments/{t.pk}/cancel/")
    assert r.status_code == 403 and r.json()["code"] == "not_host"
    for u in (ana, bo):
        tournament_join(tournament=t, user=u)
    tournament_start(tournament=t)
    r = client_for(ana).post(f"/api/tournaments/{t.pk}/cancel/")
    assert r.status_code == 409 and r.json()["code"] == "started"
    # The host's page offers it before the start only; staff's event is not the player's to cancel.
    mine = Tournament.objects.get(
        pk=client_for(ana).post("/api/tournaments/", spec(), format="json").json()["id"]
    )
    assert 'id="cancel-form"' in signed_in(ana).get(f"/tournaments/{mine.pk}/").content.decode()
    assert 'id="cancel-form"' not in signed_in(bo).get(f"/tournaments/{mine.pk}/").content.decode()
    assert 'id="cancel-form"' not in signed_in(ana).get(f"/tournaments/{t.pk}/").content.decode()
    r = signed_in(ana).post(f"/tournaments/{mine.pk}/cancel/", follow=True)
    assert "The tournament is cancelled." in r.content.decode()
    assert Tournament.objects.get(pk=mine.pk).status == Status.CANCELLED
    featured = event(staff)
    assert featured.featured is True
    r = client_for(ana).post(f"/api/tournaments/{featured.pk}/cancel/")
    assert r.status_code == 403 and r.json()["code"] == "not_host"


def _ids(html: str, pattern: str) -> list[str]:
    return re.findall(pattern, html)


def test_the_form_is_accessible_and_creates_an_arena(make_user: Any) -> None:
    ana = make_user("ana")
    c = signed_in(ana)
    assert 'href="/tournaments/new/"' in c.get("/tournaments/").content.decode()
    html = c.get("/tournaments/new/").content.decode()
    form = html[html.index('<form method="post" action="/tournaments/new/"') :]
    form = form[: form.index("</form>")]
    ids = set(_ids(form, r'\sid="([^"]+)"'))
    for target in _ids(form, r'<label for="([^"]*)"'):
        assert target in ids, f"a label for {target!r}, no such input"
    for named in _ids(form, r'aria-describedby="([^"]+)"'):
        assert all(i in ids for i in named.split()), f"aria-describedby {named!r} names no element"
    # Every control has a label (or, a group of radios or checkboxes, a legend over them).
    for input_id in _ids(form, r'<(?:input|select)[^>]* id="([^"]+)"'):
        assert f'for="{input_id}"' in form, input_id
    assert form.count('aria-describedby="id_duration_minutes_helptext"') == 1
    assert (
        'type="checkbox" name="packs" value="big-warren"' in form and "<legend>Bonus packs</legend>" in form
    )
    assert "A game takes about 3.5 minutes at a table of 2" in form  # where the length is chosen

    r = c.post(
        "/tournaments/new/",
        {"name": "Quick one", "format": "arena", "table_size": "2", "starts_in": "0",
         "duration_minutes": "10", "bots_after_seconds": "10", "rounds": "5", "turn_timer": "20",
         "bots_fill": "on"},
    )  # fmt: skip
    t = Tournament.objects.get(name="Quick one")
    assert r.status_code == 302 and r["Location"] == f"/tournaments/{t.pk}/"
    assert (t.format, t.table_size, t.min_table_size, t.duration_minutes, t.bots_after_seconds) == (
        Format.ARENA, 2, 2, 10, 10
    )  # fmt: skip
    assert (t.rated, t.featured, t.packs, t.turn_timer, t.created_by) == (False, False, [], 20, ana)
    assert abs((t.starts_at - timezone.now()).total_seconds()) < 30

    # Bad settings and the limits come back on the form with the reason, nothing written.
    r = c.post("/tournaments/new/", {"name": "Six", "format": "arena", "table_size": "6", "starts_in": "10",
                                     "duration_minutes": "30", "turn_timer": "30"})  # fmt: skip
    assert r.status_code == 400 and "5 or 6 players need the Big Warren pack." in r.content.decode()
    good = {
        "name": "Two",
        "format": "swiss",
        "table_size": "4",
        "starts_in": "60",
        "rounds": "3",
        "turn_timer": "30",
    }
    assert c.post("/tournaments/new/", good).status_code == 302
    r = c.post("/tournaments/new/", {**good, "name": "Three"})
    assert (
        r.status_code == 429 and "You already host 2 tournaments that have not ended." in r.content.decode()
    )
    assert not Tournament.objects.filter(name__in=("Six", "Three")).exists()


def test_the_form_in_czech_addresses_people_formally(make_user: Any) -> None:
    c = signed_in(make_user())
    c.cookies["django_language"] = "cs"
    html = c.get("/tournaments/new/", HTTP_ACCEPT_LANGUAGE="cs").content.decode()
    assert "Vytvořit turnaj" in html and "Bonusové balíčky" in html
    assert "Hra trvá" in html


def test_signed_out_people_are_sent_to_sign_in() -> None:
    r = Client().get("/tournaments/new/")
    assert r.status_code == 302 and r["Location"].startswith("/accounts/login/")
