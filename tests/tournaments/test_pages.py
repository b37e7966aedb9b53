"""The tournaments' pages through Django's test client on PostgreSQL: navigation, the lobby's block,
the list, the event page's rules, buttons, standings, games and podium, in English and Czech."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from tests.factories import start_table
from tests.tournaments.test_services import event, play_open_tables
from tournaments import views
from tournaments.models import Entry, EventTable, Status, Tournament
from tournaments.publish import GAMES_ASKED_AT_MOST
from tournaments.services import tournament_join, tournament_seat_round, tournament_start

pytestmark = pytest.mark.django_db


def signed_in(user: Any) -> Client:
    c = Client()
    c.force_login(user)
    return c


def shown_state(html: str) -> str:
    """The entry panel's sentence shown (the others are on the page, hidden, for its socket)."""
    state = re.search(r'<div id="entry-state" data-state="(\w*)">', html)
    assert state is not None
    shown = re.findall(r'<p[^>]* data-entry="(\w+)">', html)
    assert shown == [state[1]], shown
    return state[1]


def shown(html: str, attribute: str) -> bool:
    """Whether the element with this attribute (`id="pause-form"`, `data-word="leave"`) is on the
    page and not hidden (the socket shows and hides the entry panel's parts)."""
    tag = re.search(rf"<\w+ [^>]*{re.escape(attribute)}[^>]*>", html)
    assert tag is not None, attribute
    return re.search(r"\shidden[\s>]", tag[0]) is None


def text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_navigation_lobby_and_list_show_events_by_state(staff: Any, make_user: Any) -> None:
    soon = event(staff, name="Soon cup")
    now = event(staff, name="Now arena", format="arena", table_size=2, min_table_size=2)
    for _ in range(2):
        tournament_join(tournament=now, user=make_user())
    tournament_start(tournament=now, user=staff)
    done = event(staff, name="Old cup")
    Tournament.objects.filter(pk=done.pk).update(status=Status.FINISHED, finished_at=timezone.now())
    home = Client().get("/").content.decode()
    assert '<a href="/tournaments/">Tournaments</a>' in home
    lobby = Client().get("/lobby/").content.decode()
    assert f'href="/tournaments/{soon.pk}/"' in lobby and f'href="/tournaments/{now.pk}/"' in lobby
    assert "Old cup" not in lobby  # the lobby shows what is running or coming
    page = text(Client().get("/tournaments/").content.decode())
    assert (
        page.index("Running Now arena")
        < page.index("Upcoming Soon cup")
        < page.index("Finished or cancelled Old cup")
    )
    assert "Arena, 30 minutes" in page and "Swiss, 5 rounds" in page and "2 players" in page


def test_the_event_page_words_the_rules(staff: Any) -> None:
    t = event(staff, name="Bots cup", table_size=4, min_table_size=3, rounds=3, rated=True, packs=[])
    page = text(Client().get(f"/tournaments/{t.pk}/").content.decode())
    assert "Swiss, 3 rounds: each round seats every player by score" in page
    assert "Tables of 3 to 4 players." in page
    assert "Bots fill a table that would have fewer than 3 players. A bot's seat scores for nobody." in page
    assert "Timers: 30 s a turn, 10 s to react, 10 s to discard." in page
    assert "Rated: every game changes the players' ratings" in page
    assert "Entry opens" in page and "closes at the start" in page
    assert "Ties: opposition" in page and "The base game, no bonus packs." in page
    assert "Seats Points for 1st, 2nd, … 3 12 6 0 4 12 8 4 0" in page
    arena = event(staff, format="arena", table_size=2, min_table_size=2, bots_fill=False, rated=False)
    page = text(Client().get(f"/tournaments/{arena.pk}/").content.decode())
    assert "Arena for 30 minutes" in page and "Streak: after two sole wins" in page
    assert "No bots: players wait until enough are free." in page and "scores for nobody" not in page
    assert "Casual: the games do not change anyone's rating." in page and "Ties: more sole wins" in page
    assert "Sign in or register to enter this tournament." in page


def test_enter_pause_come_back_and_withdraw_through_the_buttons(staff: Any, make_user: Any) -> None:
    t = event(staff, format="arena", table_size=2, min_table_size=2, bots_fill=False)
    ana = make_user("ana")
    c = signed_in(ana)
    url = f"/tournaments/{t.pk}/"
    page = c.get(url).content.decode()
    assert f'action="{url}join/"' in page and "Enter the tournament" in page
    # Not in: the entry form; the entry's sentences and buttons are there for the socket, hidden.
    assert shown(page, 'id="entry-form"')
    assert not shown(page, 'id="entry-state"') and not shown(page, 'id="entry-actions"')
    r = c.post(url + "join/", follow=True)
    assert r.redirect_chain == [(url, 302)]
    page = r.content.decode()
    assert "You are in. Keep this page open: it takes you to your table as soon as you are seated." in page
    assert shown_state(page) == "entered"
    assert not shown(page, 'id="entry-form"') and shown(page, 'id="entry-actions"')
    assert f'action="{url}pause/"' in page and f'action="{url}withdraw/"' in page
    assert shown(page, 'id="pause-form"') and not shown(page, 'id="come-back-form"')
    assert shown(page, 'data-word="leave"') and not shown(page, 'data-word="withdraw"')  # before the start
    assert '<tr data-rank="1" data-player="ana" class="mine">' in page
    assert not shown(page, 'id="games-section"')  # no game played yet: no list of games
    assert 'data-player="ana" data-entry="' in page and 'data-count="0"' in page  # for the socket
    page = c.post(url + "join/", follow=True).content.decode()
    assert "You are already in this tournament." in page
    page = c.post(url + "pause/", follow=True).content.decode()
    assert shown_state(page) == "paused"
    assert shown(page, 'id="come-back-form"') and not shown(page, 'id="pause-form"')
    assert "Come back" in page
    page = c.post(url + "join/", follow=True).content.decode()
    assert shown_state(page) == "entered"
    bo = make_user("bo")
    tournament_join(tournament=t, user=bo)
    tournament_start(tournament=t, user=staff)
    page = c.get(url).content.decode()
    game = Entry.objects.get(user=ana).seats.get().event_table.game_id
    assert shown_state(page) == "playing" and f'id="my-game" href="/games/{game}/"' in page
    assert shown(page, 'data-word="withdraw"') and not shown(page, 'data-word="leave"')
    page = c.post(url + "withdraw/", follow=True).content.decode()
    assert "You have left the tournament." in page and shown_state(page) == "withdrawn"
    assert not shown(page, 'id="entry-actions"')
    assert 'data-player="ana" class="mine"><td>1</td><td><a href="#games-' in page and "withdrew" in page
    assert c.post(url + "nonsense/").status_code == 404
    assert c.get(url + "join/").status_code == 405
    r = Client().post(url + "join/")
    assert r.status_code == 302 and r["Location"].startswith("/accounts/login/")
    assert Client().get("/tournaments/999999/").status_code == 404


def test_standings_games_replays_and_podium_of_a_finished_event(staff: Any, make_user: Any) -> None:
    t = event(staff, rounds=2, rated=False)
    people = [make_user() for _ in range(5)]
    for u in people:
        tournament_join(tournament=t, user=u)
    tournament_start(tournament=t, user=staff)
    rng = random.Random(11)
    for _ in range(2):
        play_open_tables(t, rng)
        tournament_seat_round(tournament=t)
    page = Client().get(f"/tournaments/{t.pk}/").content.decode()
    rows = re.findall(r'<tr data-rank="(\d+)" data-player="([^"]+)"', page)
    entries = {e.user.username: e for e in Entry.objects.filter(tournament=t).select_related("user")}
    assert sorted(name for _, name in rows) == sorted(entries)
    scores = [entries[name].score for _, name in rows]
    assert scores == sorted(scores, reverse=True) and rows[0][0] == "1"
    assert shown(page, 'id="games-section"') and 'aria-labelledby="podium-heading">' in page
    assert '<span class="step-name">' not in page
    first = rows[0][1]
    assert re.search(rf'class="step step-1" data-rank="1">.*?>{first}</a>', page)
    games = [r.game_id for r in entries[first].results.all()]
    for g in games:
        assert f'href="/replays/{g}/"' in page
    assert text(page).count("Round 1:") == 5 and text(page).count("Round 2:") == 5
    # Each player's own page of the finished event says where they finished.
    for rank, name in rows:
        mine = signed_in(entries[name].user).get(f"/tournaments/{t.pk}/").content.decode()
        assert shown_state(mine) == "played"
        points = entries[name].score
        unit = "point" if points == 1 else "points"
        said = f"You played in this tournament. Your place: {rank} of 5, with {points} {unit}."
        assert said in text(mine)


def test_the_pages_speak_czech(staff: Any, make_user: Any) -> None:
    t = event(staff, name="Pohár")
    c = Client(HTTP_ACCEPT_LANGUAGE="cs")
    assert '<a href="/tournaments/">Turnaje</a>' in c.get("/").content.decode()
    html = c.get(f"/tournaments/{t.pk}/").content.decode()
    page = text(html)
    assert "Švýcarský systém, 5 kol" in page and "Body za místo bota nedostane nikdo." in page
    assert "Pravidla" in page and 'aria-labelledby="podium-heading" hidden>' in html  # no podium yet
    assert "Chystané Pohár" in text(c.get("/tournaments/").content.decode())


def test_a_players_results_appear_on_their_profile(staff: Any, make_user: Any, client_for: Any) -> None:
    t = event(staff, name="Spring cup", rounds=1, rated=False)
    people = [make_user() for _ in range(3)]
    for u in people:
        tournament_join(tournament=t, user=u)
    tournament_start(tournament=t, user=staff)
    play_open_tables(t, random.Random(2))
    tournament_seat_round(tournament=t)
    loner = make_user()
    for u in people:
        entry = Entry.objects.get(tournament=t, user=u)
        rank = next(
            r["rank"]
            for r in client_for(u).get(f"/api/tournaments/{t.pk}/").json()["standings"]
            if r["player"] == u.username
        )
        page = text(Client().get(f"/players/{u.username}/").content.decode())
        assert f"Tournament results Spring cup — rank {rank} of 3 · {entry.score} points · 1 game" in page
        mine = client_for(u).get("/api/accounts/me/").json()["tournaments"]
        assert mine == [
            {
                "id": t.pk, "name": "Spring cup", "format": "swiss", "status": "finished", "rank": rank,
                "of": 3, "points": entry.score, "games": 1, "wins": entry.wins, "withdrawn": False,
                "url": f"/tournaments/{t.pk}/",
            }
        ]  # fmt: skip
    assert "Tournament results" not in Client().get(f"/players/{loner.username}/").content.decode()
    cs = text(Client(HTTP_ACCEPT_LANGUAGE="cs").get(f"/players/{people[0].username}/").content.decode())
    assert "Výsledky v turnajích Spring cup" in cs


def test_a_tournament_games_page_leads_back_to_the_event(staff: Any, make_user: Any) -> None:
    t = event(staff, name="Back cup", format="arena", table_size=2, min_table_size=2, rated=False)
    ana, bo = make_user(), make_user()
    for u in (ana, bo):
        tournament_join(tournament=t, user=u)
    tournament_start(tournament=t, user=staff)
    game = EventTable.objects.get(tournament=t).game_id
    page = signed_in(ana).get(f"/games/{game}/").content.decode()
    config = json.loads(
        re.search(r'<script id="game-config" type="application/json">(.*?)</script>', page)[1]
    )
    assert config["event"] == {
        "id": t.pk, "name": "Back cup", "format": "arena", "status": "running", "url": f"/tournaments/{t.pk}/"
    }  # fmt: skip
    back = f'href="/tournaments/{t.pk}/?from={game}">Back to the tournament</a>'
    assert f'id="event-link" {back}' in page and f'id="out-event" {back}' in page
    assert "Stay on this page" in page
    # The header leads to the event, not to the table the event made.
    assert (
        f'<a href="/tournaments/{t.pk}/" class="nav-event" id="nav-event" title="Back cup">Back cup</a>'
        in page
    )
    assert f'href="/tables/{EventTable.objects.get(tournament=t).table_id}/">Table' not in page
    other = start_table([ana, bo], rated=False)  # an ordinary table's game: no event
    page = signed_in(ana).get(f"/games/{other.pk}/").content.decode()
    assert '"event": null' in page and "Back to the tournament" not in page
    assert (
        f'<a href="/tables/{other.table_id}/">Table {other.table_id}</a>' in page and "nav-event" not in page
    )
    cs = signed_in(ana)
    cs.cookies.load({"django_language": "cs"})
    assert "Zpět na turnaj" in cs.get(f"/games/{game}/").content.decode()


def test_the_event_page_asks_for_as_many_lists_as_the_socket_takes(
    staff: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """How many players' lists of games the page asks for in one request has one owner, the
    socket's bound (tournaments/publish.py): the page's script reads it from its config."""
    t = event(staff, name="Asking cup")

    def config() -> dict[str, Any]:
        page = Client().get(f"/tournaments/{t.pk}/").content.decode()
        found = re.search(r'<script id="tournament-config" type="application/json">(.*?)</script>', page)
        assert found is not None
        return json.loads(found[1])

    assert config()["games_asked_at_most"] == GAMES_ASKED_AT_MOST == 50
    monkeypatch.setattr(views, "GAMES_ASKED_AT_MOST", 7)
    assert config()["games_asked_at_most"] == 7
