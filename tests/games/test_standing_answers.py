"""Standing answers (docs/RULES.md, "Standing answers"): a seat's standing Hare Taptap or Strom, or
"never", played at the end of the same short window "answer for me" has, whatever the hand; set
by its own person only, and shown to nobody else.

The games here are dealt on purpose (three people; seat 1 starts):
  1: seat 1 aims one Hare Cumi at seat 0, who holds a Hare Taptap
  2: seat 2 plays Strom: seat 0, holding a Strom, is skipped; forwarded, the skip reaches seat 1,
     who holds none and loses the turn
  3: seat 2 (after the skipped seat 1) aims one Hare Cumi at seat 0, who holds no Taptap any more
"""

from __future__ import annotations

import json
import re
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from games.eventlog import events_with_seq, load_state
from games.models import Game, GameEvent, GameSeat, Pace, Table
from games.services.autoplay import game_deadline_expire, standing_command
from games.services.moves import game_abort
from games.services.turns import your_turn_sweep
from harehra import replay
from notifications.models import Notification
from tests.factories import next_game, seated_game, send
from tests.support.decks import STACKED, stacked_deck

pytestmark = pytest.mark.django_db

HANDS = (
    ("taptap", "strom", "zada", "zada", "zada"),
    ("cumi", "right", "right", "left", "left"),
    ("strom", "cumi", "house", "house", "house"),
)
DRAWS = ("house", "house", "zada", "zada", "zada", "left", "cumi", "cumi")  # within the deck's counts


@pytest.fixture
def dealt(make_user, client_for, monkeypatch, settings) -> tuple[Game, dict[int, Any]]:
    settings.GAME_SHUFFLE = STACKED
    settings.AUTO_ANSWER_SECONDS = 3  # the table's reaction timer is 10 s
    monkeypatch.setenv("DECK_TOP", ",".join(stacked_deck(HANDS, DRAWS, first=1)))
    users = [make_user() for _ in range(3)]
    clients = [client_for(u) for u in users]
    game = Game.objects.get(pk=seated_game(clients))
    by_user = {u.pk: c for u, c in zip(users, clients, strict=True)}
    seats = {gs.seat: by_user[gs.user_id] for gs in game.game_seats.all()}
    assert load_state(game).hands[0] == HANDS[0]  # the deal this file is about
    return game, seats


def _standing(client: Any, game: Game, **answers: str) -> Any:
    return client.post(f"/api/games/{game.pk}/standing-answers/", answers, format="json")


def _now(game: Game) -> Game:
    return Game.objects.select_related("table").get(pk=game.pk)


def _left(game: Game) -> float:
    return (_now(game).deadline_at - timezone.now()).total_seconds()


def _expire(game: Game) -> None:
    """The window's end comes (the countdown task or the sweep calls game_deadline_expire then)."""
    g = _now(game)
    Game.objects.filter(pk=g.pk).update(deadline_at=timezone.now() - timedelta(seconds=1))
    assert game_deadline_expire(game_id=g.pk, guard_seq=g.last_seq) is not None


def _last(game: Game) -> GameEvent:
    return GameEvent.objects.filter(game=game).order_by("-seq").first()


def _events_after(game: Game, seq: int) -> list[GameEvent]:
    return list(GameEvent.objects.filter(game=game, seq__gt=seq).order_by("seq"))


def _ok(r: Any) -> Any:
    assert r.status_code == 200, r.content
    return r


def test_a_standing_taptap_answers_the_volley_at_the_end_of_the_short_window(dealt):
    game, seats = dealt
    assert _ok(_standing(seats[0], game, volley="taptap")).json() == {"volley": "taptap", "skip": "ask"}
    _ok(send(seats[1], game.pk, {"play": ["cumi"], "target": 0}))
    g = _now(game)
    assert (g.awaiting_seat, g.awaiting_kind) == (0, "volley")
    assert 1 < _left(game) <= 3  # the short window, not the table's 10 s
    # Not played as the window opens: before its end nothing happens (its timing tells nothing).
    assert game_deadline_expire(game_id=g.pk, guard_seq=g.last_seq) is None
    assert _now(game).last_seq == g.last_seq
    _expire(game)
    played = _events_after(game, g.last_seq)
    assert played[0].type == "ReactionPlayed" and played[0].payload["card"] == "taptap"
    assert played[0].payload["seat"] == 0 and played[0].actor_id is None
    # An ordinary command in the log: the replay of the log is the game's state.
    g = _now(game)
    events = [e for _, e in events_with_seq(g, after=0, upto=g.last_seq)]
    assert replay(events).hands == load_state(_now(game)).hands
    assert "taptap" not in load_state(_now(game)).hands[0]
    assert GameSeat.objects.get(game=game, seat=0).missed_deadlines == 0


def test_a_standing_strom_forwards_the_skip_and_a_seat_without_one_waits_as_today(dealt):
    game, seats = dealt
    _ok(_standing(seats[0], game, volley="taptap", skip="strom"))
    _ok(send(seats[1], game.pk, {"play": ["cumi"], "target": 0}))
    _expire(game)  # seat 0's Taptap
    _ok(send(seats[2], game.pk, {"play": ["strom"]}))
    g = _now(game)
    assert (g.awaiting_seat, g.awaiting_kind) == (0, "skip") and _left(game) <= 3
    _expire(game)
    forwarded = _events_after(game, g.last_seq)[0]
    assert forwarded.type == "ReactionPlayed" and forwarded.payload == {
        **forwarded.payload,
        "seat": 0,
        "card": "strom",
    }
    # Seat 1 holds no Strom and has no standing answer: the table's whole reaction window, and
    # nothing is played for it before that window ends.
    g = _now(game)
    assert (g.awaiting_seat, g.awaiting_kind) == (1, "skip") and _left(game) > 5
    assert game_deadline_expire(game_id=g.pk, guard_seq=g.last_seq) is None
    _ok(send(seats[1], game.pk, {"react": "none"}))


def test_a_standing_taptap_without_the_card_declines_at_the_same_moment(dealt):
    game, seats = dealt
    _ok(_standing(seats[0], game, volley="taptap", skip="strom"))
    _ok(send(seats[1], game.pk, {"play": ["cumi"], "target": 0}))
    _expire(game)
    _ok(send(seats[2], game.pk, {"play": ["strom"]}))
    _expire(game)
    _ok(send(seats[1], game.pk, {"react": "none"}))
    _ok(send(seats[2], game.pk, {"play": ["cumi"], "target": 0}))
    g = _now(game)
    assert (g.awaiting_seat, g.awaiting_kind) == (0, "volley")
    assert "taptap" not in load_state(g).hands[0]
    # The same short window as when it held one: the others cannot tell the two apart by time.
    assert 1 < _left(game) <= 3
    assert game_deadline_expire(game_id=g.pk, guard_seq=g.last_seq) is None
    _expire(game)
    declined = _events_after(game, g.last_seq)[0]
    assert declined.type == "ReactionDeclined" and declined.payload["seat"] == 0


def test_never_declines_at_the_end_of_the_short_window_even_holding_a_taptap(dealt):
    game, seats = dealt
    _ok(_standing(seats[0], game, volley="never"))
    _ok(send(seats[1], game.pk, {"play": ["cumi"], "target": 0}))
    g = _now(game)
    assert 1 < _left(game) <= 3 and "taptap" in load_state(g).hands[0]
    _expire(game)
    assert _events_after(game, g.last_seq)[0].type == "ReactionDeclined"
    # Its person may still answer for themselves within the window, as ever: "never" only decides
    # what the window's end plays.
    assert _now(game).awaiting_kind == "discard"  # 1 damage: five cards over a limit of four


def test_the_person_answering_first_wins_over_the_standing_answer(dealt):
    game, seats = dealt
    _ok(_standing(seats[0], game, volley="taptap"))
    _ok(send(seats[1], game.pk, {"play": ["cumi"], "target": 0}))
    g = _now(game)
    _ok(send(seats[0], game.pk, {"react": "none"}))
    assert _events_after(game, g.last_seq)[0].type == "ReactionDeclined"
    # The countdown armed for the window finds the game moved on and plays nothing.
    Game.objects.filter(pk=g.pk).update(deadline_at=timezone.now() - timedelta(seconds=1))
    assert game_deadline_expire(game_id=g.pk, guard_seq=g.last_seq) is None


def test_without_a_standing_answer_the_volley_waits_the_whole_window(dealt):
    game, seats = dealt
    _ok(send(seats[1], game.pk, {"play": ["cumi"], "target": 0}))
    g = _now(game)
    assert 8 < _left(game) <= 10
    assert game_deadline_expire(game_id=g.pk, guard_seq=g.last_seq) is None
    _expire(game)  # the window ran out: declined, as today
    assert _events_after(game, g.last_seq)[0].type == "ReactionDeclined"


def test_a_bot_playing_the_seat_ignores_its_standing_answer(dealt):
    game, seats = dealt
    _ok(_standing(seats[0], game, volley="never"))
    GameSeat.objects.filter(game=game, seat=0).update(bot_playing=True)
    _ok(send(seats[1], game.pk, {"play": ["cumi"], "target": 0}))
    assert _left(game) > 5  # the bot moves by its own delay; the window is the table's
    state = load_state(_now(game))
    assert standing_command(state, 0, "taptap") == {"react": "taptap"}
    assert standing_command(state, 0, "never") == {"react": "none"}
    assert standing_command(state, 1, "taptap") == {"react": "none"}  # not the awaited seat


def test_at_a_slow_table_a_standing_taptap_answers_in_seconds_without_waking_its_seat(dealt, settings):
    game, seats = dealt
    day = 24 * 3600
    Table.objects.filter(pk=game.table_id).update(
        pace=Pace.SLOW, turn_timer=day, reaction_timer=day, discard_timer=day
    )
    settings.YOUR_TURN_MIN_SECONDS = 30
    _ok(_standing(seats[0], game, volley="taptap"))
    _ok(send(seats[1], game.pk, {"play": ["cumi"], "target": 0}))
    assert _left(game) <= 3  # not a day
    your_turn_sweep()
    assert not Notification.objects.filter(user_id=GameSeat.objects.get(game=game, seat=0).user_id).exists()
    _expire(game)
    assert _last(game).type != "ReactionDeclined"
    g = _now(game)
    assert GameEvent.objects.filter(game=game, type="ReactionPlayed", payload__seat=0).exists()
    # Seat 2's turn now: a day to play it, and its person is told.
    assert (g.awaiting_seat, g.awaiting_kind) == (2, "turn") and _left(game) > 3600
    your_turn_sweep()
    assert Notification.objects.filter(user_id=GameSeat.objects.get(game=game, seat=2).user_id).exists()


def test_only_the_seats_person_reads_or_sets_it_and_bad_values_are_refused(dealt, make_user, client_for):
    game, seats = dealt
    stranger = client_for(make_user())
    r = _standing(stranger, game, volley="taptap")
    assert r.status_code == 403 and r.json()["code"] == "not_seated"
    r = stranger.get(f"/api/games/{game.pk}/standing-answers/")
    assert r.status_code == 403 and r.json()["code"] == "not_seated"
    for body in ({"volley": "strom"}, {"skip": "taptap"}, {"volley": 1}, {"skip": "always"}):
        r = seats[0].post(f"/api/games/{game.pk}/standing-answers/", body, format="json")
        assert r.status_code == 400 and r.json()["code"] == "bad_standing_answer", body
    _ok(_standing(seats[0], game, skip="never"))
    assert seats[0].get(f"/api/games/{game.pk}/standing-answers/").json() == {
        "volley": "ask",
        "skip": "never",
    }
    assert seats[1].get(f"/api/games/{game.pk}/standing-answers/").json() == {"volley": "ask", "skip": "ask"}
    assert GameSeat.objects.get(game=game, seat=1).standing_skip == "ask"


def _page_config(user: Any, game: Game) -> dict[str, Any]:
    browser = Client()
    browser.force_login(user)
    html = browser.get(f"/games/{game.pk}/").content.decode()
    found = re.search(r'<script id="game-config" type="application/json">(.*?)</script>', html, re.S)
    assert found, "the game page has its config"
    return json.loads(found.group(1))


def test_the_setting_reaches_its_own_page_only_never_another_seats_or_a_spectators(
    dealt, make_user, client_for
):
    game, seats = dealt
    _ok(_standing(seats[0], game, volley="taptap", skip="never"))
    people = {gs.seat: gs.user for gs in GameSeat.objects.filter(game=game).select_related("user")}
    assert _page_config(people[0], game)["standing"] == {"volley": "taptap", "skip": "never"}
    assert _page_config(people[1], game)["standing"] == {"volley": "ask", "skip": "ask"}
    watcher = make_user()
    assert _page_config(watcher, game)["standing"] is None
    spectator = client_for(watcher)
    # Every read another viewer makes of the game, before and after the standing answer played.
    _ok(send(seats[1], game.pk, {"play": ["cumi"], "target": 0}))
    _expire(game)
    for client in (seats[1], seats[2], spectator):
        for url in (f"/api/games/{game.pk}/", f"/api/games/{game.pk}/events/?after=0"):
            body = client.get(url).content.decode()
            assert "standing" not in body and "never" not in body, url


def test_standing_answers_carry_over_to_the_tables_next_game_for_the_same_person(dealt):
    game, seats = dealt
    _ok(_standing(seats[0], game, volley="taptap", skip="strom"))
    _ok(_standing(seats[2], game, volley="never"))
    game_abort(game=game, actor_id=None)
    after = next_game(game)
    rows = {gs.user_id: (gs.standing_volley, gs.standing_skip) for gs in GameSeat.objects.filter(game=after)}
    before = {gs.user_id: gs.seat for gs in GameSeat.objects.filter(game=game)}
    by_seat = {seat: rows[user] for user, seat in before.items()}
    assert by_seat == {0: ("taptap", "strom"), 1: ("ask", "ask"), 2: ("never", "ask")}


def test_the_openapi_schema_documents_the_endpoint() -> None:
    from rest_framework.test import APIClient

    schema = APIClient().get("/api/schema/?format=json").json()
    path = schema["paths"]["/api/games/{id}/standing-answers/"]
    assert {"get", "post"} <= set(path)
    props = schema["components"]["schemas"]["StandingAnswers"]["properties"]
    enums = {name: schema["components"]["schemas"][name]["enum"] for name in ("VolleyEnum", "SkipEnum")}
    assert enums == {"VolleyEnum": ["ask", "taptap", "never"], "SkipEnum": ["ask", "strom", "never"]}
    assert set(props) == {"volley", "skip"}
