"""Timers and bots, through the services the Celery tasks call."""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import timedelta
from functools import partial

import pytest
from django.utils import timezone

from games import followups, tasks
from games.models import Game, GameEvent, GameSeat
from games.services.autoplay import bot_command, game_bot_move, game_deadline_expire
from harehra import bots, make_ruleset, start_game, step, view_for
from harehra.bots import HeuristicBot, SearchBot
from tests.factories import seated_game, send

pytestmark = pytest.mark.django_db
CLIENTS: dict = {}  # seat -> API client of the current test's game


@pytest.fixture
def game(make_user, client_for):
    users = [make_user() for _ in range(2)]
    clients = [client_for(u) for u in users]
    g = Game.objects.get(pk=seated_game(clients))
    CLIENTS.clear()
    CLIENTS.update({gs.seat: clients[[u.pk for u in users].index(gs.user_id)] for gs in g.game_seats.all()})
    return g


def _expire(game: Game) -> None:
    Game.objects.filter(pk=game.pk).update(deadline_at=timezone.now() - timedelta(seconds=1))


def test_every_decision_carries_its_deadline(game):
    last = GameEvent.objects.filter(game=game).order_by("-seq").first()
    assert last.type == "TurnStarted" and "deadline" in last.payload
    assert game.deadline_at is not None and game.awaiting_kind == "turn"
    left = (game.deadline_at - timezone.now()).total_seconds()
    assert 20 < left <= 30


def test_a_passed_deadline_plays_the_autopilot_turn_once(game):
    seq = game.last_seq
    seat = game.awaiting_seat
    assert game_deadline_expire(game_id=game.pk, guard_seq=seq) is None  # not due yet
    assert Game.objects.get(pk=game.pk).last_seq == seq
    _expire(game)
    outcome = game_deadline_expire(game_id=game.pk, guard_seq=seq)
    assert outcome is not None and outcome.seat == seat
    played = GameEvent.objects.get(game=game, seq=seq + 1)
    assert played.type in ("CardsPlayed", "CardBurned") and played.actor_id is None
    assert GameSeat.objects.get(game=game, seat=seat).missed_deadlines == 1
    after = Game.objects.get(pk=game.pk).last_seq
    # The same timer again, late or duplicated: nothing changes.
    _expire(game)
    assert game_deadline_expire(game_id=game.pk, guard_seq=seq) is None
    assert Game.objects.get(pk=game.pk).last_seq == after


def test_a_volley_past_its_deadline_is_declined(game):
    for _ in range(400):
        g = Game.objects.get(pk=game.pk)
        legal = CLIENTS[g.awaiting_seat].get(f"/api/games/{g.pk}/").json()["legal"]
        volleys = [c for c in legal if c.get("play", [""])[0] == "cumi"]
        choice = volleys[0] if volleys and g.awaiting_kind == "turn" else legal[0]
        r = send(CLIENTS[g.awaiting_seat], g.pk, {k: v for k, v in choice.items() if k != "seat"})
        assert r.status_code == 200
        if Game.objects.get(pk=g.pk).awaiting_kind == "volley":
            break
    g = Game.objects.get(pk=game.pk)
    assert g.awaiting_kind == "volley"
    _expire(g)
    game_deadline_expire(game_id=g.pk, guard_seq=g.last_seq)
    declined = GameEvent.objects.get(game=g, seq=g.last_seq + 1)
    assert declined.type == "ReactionDeclined" and declined.payload["seat"] == g.awaiting_seat


def test_two_missed_deadlines_hand_the_seat_to_a_bot_and_the_player_reclaims_it(game):
    seat = game.awaiting_seat
    _expire(game)
    game_deadline_expire(game_id=game.pk, guard_seq=game.last_seq)
    g = Game.objects.get(pk=game.pk)
    while (g.awaiting_seat != seat or g.awaiting_kind not in ("turn", "discard")) and g.status != "finished":
        if g.awaiting_seat == seat:
            # A reaction window of the first seat times out: a decision, which neither counts as
            # a missed deadline nor, as a command of its person would, clears the count.
            _expire(g)
            game_deadline_expire(game_id=g.pk, guard_seq=g.last_seq)
            assert GameSeat.objects.get(game=g, seat=seat).missed_deadlines == 1
        else:
            # The other player answers whatever they are asked, so the first seat's turn comes round.
            legal = CLIENTS[g.awaiting_seat].get(f"/api/games/{g.pk}/").json()["legal"]
            send(CLIENTS[g.awaiting_seat], g.pk, {k: v for k, v in legal[0].items() if k != "seat"})
        g = Game.objects.get(pk=game.pk)
    _expire(g)
    game_deadline_expire(game_id=g.pk, guard_seq=g.last_seq)
    assert GameSeat.objects.get(game=g, seat=seat).bot_playing is True
    taken = GameEvent.objects.filter(game=g, type="SeatTakenByBot").get()
    assert taken.payload == {"seat": seat, "reason": "timeout"}
    # While the bot holds the seat, the person's own commands are refused until they reclaim it.
    r = send(CLIENTS[seat], g.pk, {"burn": None})
    assert r.status_code == 409 and r.json()["code"] == "seat_away"  # whoever's turn it is
    r = CLIENTS[seat].post(f"/api/games/{g.pk}/reclaim/")
    assert r.status_code == 200
    assert GameEvent.objects.filter(game=g, type="SeatReclaimed").count() == 1
    row = GameSeat.objects.get(game=g, seat=seat)
    assert row.bot_playing is False and row.missed_deadlines == 0  # two more misses before away again


def test_one_missed_deadline_warns_the_seats_person_before_a_bot_takes_it(game, client_for):
    """After one missed turn the seat's view says `away_warning` (a second hands it to a bot);
    no one else's does, and the person's next move of their own ends it."""
    from rest_framework.test import APIClient

    seat = game.awaiting_seat
    other = 1 - seat

    def warned(client) -> bool:
        return client.get(f"/api/games/{game.pk}/").json()["away_warning"]

    assert not warned(CLIENTS[seat]) and not warned(CLIENTS[other])
    _expire(game)
    game_deadline_expire(game_id=game.pk, guard_seq=game.last_seq)
    assert warned(CLIENTS[seat]) is True
    assert warned(CLIENTS[other]) is False and warned(APIClient()) is False  # a spectator neither
    g = Game.objects.get(pk=game.pk)
    while g.awaiting_seat != seat:  # the other player answers whatever they are asked
        legal = CLIENTS[other].get(f"/api/games/{g.pk}/").json()["legal"]
        send(CLIENTS[other], g.pk, {k: v for k, v in legal[0].items() if k != "seat"})
        g = Game.objects.get(pk=game.pk)
        assert warned(CLIENTS[seat]) is True  # the others' moves leave it standing
    legal = CLIENTS[seat].get(f"/api/games/{g.pk}/").json()["legal"]
    assert send(CLIENTS[seat], g.pk, {k: v for k, v in legal[0].items() if k != "seat"}).status_code == 200
    assert warned(CLIENTS[seat]) is False


def test_the_sweep_applies_deadlines_already_past(game):
    seq = game.last_seq
    _expire(game)
    tasks.sweep_deadlines()
    assert Game.objects.get(pk=game.pk).last_seq > seq


def test_a_bot_moves_only_for_its_own_seat_and_only_at_its_seq(game):
    seq = game.last_seq
    assert game_bot_move(game_id=game.pk, guard_seq=seq) is None  # a person holds the seat
    GameSeat.objects.filter(game=game, seat=game.awaiting_seat).update(bot_playing=True)
    assert game_bot_move(game_id=game.pk, guard_seq=seq - 1) is None  # stale wake-up
    assert game_bot_move(game_id=game.pk, guard_seq=seq) is not None
    assert game_bot_move(game_id=game.pk, guard_seq=seq) is None  # duplicate wake-up


# The hard bot's search at a tenth of its playouts: the same code (worlds dealt from the view, the
# same seeding, at least MIN_PER_MOVE worlds per candidate), so the same property, found faster.
HARD_PLAYOUTS = 60


@pytest.mark.parametrize("level,decisions", [("easy", 3000), ("normal", 3000), ("hard", 60)])
def test_the_bot_never_reads_hidden_state(level, decisions, monkeypatch):
    """States that look the same from the bot's seat get the same choice, whatever is hidden:
    at every level, a bot's randomness is seeded from what its seat can see."""
    if level == "hard":
        monkeypatch.setitem(bots._BOTS, "hard", partial(SearchBot, playouts=HARD_PLAYOUTS))
        assert isinstance(bots.get_bot("hard"), SearchBot) and bots.get_bot("hard").playouts == HARD_PLAYOUTS
    rng = random.Random(7)
    shuffle = lambda cards: rng.sample(list(cards), len(cards))  # noqa: E731
    checked = 0
    for game_no in range(30):
        state = None
        for e in start_game(make_ruleset(), 4, game_no % 4, shuffle):
            from harehra import apply

            state = apply(state, e)
        while not state.over and checked < decisions:
            seat = state.awaiting.seat
            hidden_variant = _shuffle_hidden(state, seat, rng)
            assert view_for(hidden_variant, seat) == view_for(state, seat)
            choice = bot_command(state, seat, level)
            assert bot_command(hidden_variant, seat, level) == choice
            checked += 1
            _, state = step(state, choice, shuffle)
    assert checked >= min(decisions, 500)


def _shuffle_hidden(state, seat, rng):
    """Swap cards among the other hands and the draw pile, keeping every count the seat can see."""
    others = [s for s in range(state.players) if s != seat]
    pool = [c for s in others for c in state.hands[s]] + list(state.draw_pile)
    rng.shuffle(pool)
    hands = list(state.hands)
    for s in others:
        hands[s], pool = tuple(pool[: len(state.hands[s])]), pool[len(state.hands[s]) :]
    return replace(state, hands=tuple(hands), draw_pile=tuple(pool))


def test_heuristic_bot_prefers_the_weakest_target_and_keeps_taptap():
    bot = HeuristicBot()
    view = {
        "seat": 0,
        "awaiting": {"seat": 0, "kind": "turn"},
        "players": [{"damage": 0}, {"damage": 1}, {"damage": 3}],
    }
    legal = [
        {"seat": 0, "play": ["cumi"], "target": 1},
        {"seat": 0, "play": ["cumi"], "target": 2},
        {"seat": 0, "play": ["cumi", "cumi"], "target": 2},
        {"seat": 0, "play": ["house"]},
    ]
    assert bot.choose(view, legal) == {"seat": 0, "play": ["cumi", "cumi"], "target": 2}
    view["awaiting"]["kind"] = "volley"
    assert bot.choose(view, [{"react": "none"}, {"react": "taptap"}]) == {"react": "taptap"}
    view["awaiting"]["kind"] = "discard"
    choice = bot.choose(view, [{"discard": ["taptap"]}, {"discard": ["left"]}])
    assert choice == {"discard": ["left"]}


# --- one countdown per game -------------------------------------------------------------------


@pytest.fixture
def armed(monkeypatch) -> list[tuple[int, object]]:
    """The countdowns armed once transactions commit: (seq, when it fires)."""
    calls: list[tuple[int, object]] = []

    def record(game_id: int, seq: int, *, bot_to_move: bool, timer_at: object) -> None:
        if timer_at is not None:
            calls.append((seq, timer_at))

    monkeypatch.setattr(followups, "followups_send", record)
    return calls


def test_a_game_keeps_one_countdown_pending_not_one_per_decision(
    game, armed, django_capture_on_commit_callbacks
):
    g = Game.objects.get(pk=game.pk)
    assert g.timer_armed_for == g.deadline_at  # armed when the game started
    moves = 0
    for _ in range(12):
        before = Game.objects.get(pk=game.pk)
        legal = CLIENTS[before.awaiting_seat].get(f"/api/games/{before.pk}/").json()["legal"]
        with django_capture_on_commit_callbacks(execute=True):
            r = send(
                CLIENTS[before.awaiting_seat], before.pk, {k: v for k, v in legal[0].items() if k != "seat"}
            )
        assert r.status_code == 200
        moves += 1
        g = Game.objects.get(pk=game.pk)
        if g.status != "running":
            break
        # A countdown always covers the deadline, and a new one is armed only for an earlier one.
        assert g.timer_armed_for is not None and g.timer_armed_for <= g.deadline_at
        if g.deadline_at < before.timer_armed_for:
            assert armed[-1] == (g.last_seq, g.deadline_at) and g.timer_armed_for == g.deadline_at
        else:
            assert g.timer_armed_for == before.timer_armed_for
            assert not armed or armed[-1][0] != g.last_seq
    assert len(armed) < moves


def test_the_pending_countdown_arms_itself_again_for_a_moved_deadline_once(
    game, armed, django_capture_on_commit_callbacks
):
    from games.services.autoplay import game_timer_fired

    first = Game.objects.get(pk=game.pk)
    seq, fires_at = first.last_seq, first.timer_armed_for
    # A move whose next deadline is later than the pending countdown's: no new countdown.
    for _ in range(50):
        g = Game.objects.get(pk=game.pk)
        legal = CLIENTS[g.awaiting_seat].get(f"/api/games/{g.pk}/").json()["legal"]
        send(CLIENTS[g.awaiting_seat], g.pk, {k: v for k, v in legal[0].items() if k != "seat"})
        g = Game.objects.get(pk=game.pk)
        if g.deadline_at >= fires_at:
            break
        fires_at = g.timer_armed_for
        seq = g.last_seq
    assert g.last_seq != seq and g.timer_armed_for == fires_at < g.deadline_at
    with django_capture_on_commit_callbacks(execute=True):
        assert game_timer_fired(game_id=g.pk, guard_seq=seq, armed_for=fires_at) is None
    now = Game.objects.get(pk=g.pk)
    assert now.last_seq == g.last_seq  # nothing played: that decision is no longer awaited
    assert now.timer_armed_for == now.deadline_at and armed[-1] == (now.last_seq, now.deadline_at)
    # The same task again, duplicated or late: it is no longer the pending one, so nothing happens.
    count = len(armed)
    with django_capture_on_commit_callbacks(execute=True):
        assert game_timer_fired(game_id=g.pk, guard_seq=seq, armed_for=fires_at) is None
    assert len(armed) == count and Game.objects.get(pk=g.pk).timer_armed_for == now.deadline_at


def test_a_countdown_that_finds_its_deadline_passed_applies_the_default(game):
    from games.services.autoplay import game_timer_fired

    g = Game.objects.get(pk=game.pk)
    _expire(g)
    outcome = game_timer_fired(game_id=g.pk, guard_seq=g.last_seq, armed_for=g.timer_armed_for)
    assert outcome is not None and outcome.seat == g.awaiting_seat
    assert Game.objects.get(pk=g.pk).last_seq > g.last_seq


def _play_until_reaction(game: Game, kinds: tuple[str, ...] = ("volley", "skip"), budget: int = 600) -> Game:
    """Both people play (aiming Hare Cumi and Strom first) until one must answer a reaction."""
    for _ in range(budget):
        g = Game.objects.get(pk=game.pk)
        if g.awaiting_kind in kinds:
            return g
        assert g.status == "running", "the game ended before a reaction window"
        legal = CLIENTS[g.awaiting_seat].get(f"/api/games/{g.pk}/").json()["legal"]
        wanted = [c for c in legal if c.get("play", [""])[0] in ("cumi", "strom")]
        choice = wanted[0] if wanted and g.awaiting_kind == "turn" else legal[0]
        r = send(CLIENTS[g.awaiting_seat], g.pk, {k: v for k, v in choice.items() if k != "seat"})
        assert r.status_code == 200
    raise AssertionError("no reaction window")


def test_reaction_windows_that_time_out_are_decisions_not_missed_deadlines(game):
    """A person with the page open who cannot answer is never marked away for it: only missed
    turns and discards count (two prompts they could not answer used to hand the seat to a bot)."""
    timed_out = 0
    for _ in range(3):
        g = _play_until_reaction(game)
        seat = g.awaiting_seat
        _expire(g)
        game_deadline_expire(game_id=g.pk, guard_seq=g.last_seq)
        assert GameEvent.objects.get(game=g, seq=g.last_seq + 1).type == "ReactionDeclined"
        row = GameSeat.objects.get(game=g, seat=seat)
        assert row.missed_deadlines == 0 and not row.bot_playing
        timed_out += 1
        if Game.objects.get(pk=g.pk).status != "running":
            break
    assert timed_out >= 2 or Game.objects.get(pk=game.pk).status != "running"


def test_answer_for_me_gives_the_same_short_window_whatever_the_hand(game, settings):
    settings.AUTO_ANSWER_SECONDS = 3
    for client in CLIENTS.values():
        r = client.post(f"/api/games/{game.pk}/auto-answer/", {"on": True}, format="json")
        assert r.status_code == 200 and r.json() == {"on": True}
    bad = CLIENTS[0].post(f"/api/games/{game.pk}/auto-answer/", {"on": "maybe"}, format="json")
    assert bad.status_code == 400 and bad.json()["code"] == "invalid"
    assert GameSeat.objects.filter(game=game, auto_answer=True).count() == 2
    for _ in range(2):
        g = _play_until_reaction(game)
        left = (g.deadline_at - timezone.now()).total_seconds()
        assert 1 < left <= 3, left  # the short window, held answer or not
        last = GameEvent.objects.filter(game=g).order_by("-seq").first()
        assert "deadline" in last.payload
        _expire(g)
        game_deadline_expire(game_id=g.pk, guard_seq=g.last_seq)  # declined at the window's end
        if Game.objects.get(pk=g.pk).status != "running":
            break
    # Turned off, the table's own reaction timer applies again.
    for client in CLIENTS.values():
        client.post(f"/api/games/{game.pk}/auto-answer/", {"on": False}, format="json")
    if Game.objects.get(pk=game.pk).status == "running":
        g = _play_until_reaction(game)
        assert (g.deadline_at - timezone.now()).total_seconds() > 5


def test_only_a_seated_person_sets_answer_for_me(game, make_user, client_for):
    stranger = client_for(make_user())
    r = stranger.post(f"/api/games/{game.pk}/auto-answer/", {"on": True}, format="json")
    assert r.status_code == 403 and r.json()["code"] == "not_seated"


@pytest.mark.django_db(transaction=True)  # no test-wide transaction: what is open is the code's
def test_a_hard_bot_thinks_outside_any_transaction(game, monkeypatch):
    """The seat's level picks the bot; the search starts with no transaction (and no lock) open
    (it runs in a child process: tests/games/test_bot_thinking.py)."""
    from django.db import connection

    from games.services import autoplay

    seen: list[tuple[bool, str, int]] = []
    think = autoplay.think

    def spy(level, view, legal):
        seen.append((connection.in_atomic_block, level, view["seat"]))
        return think(level, view, legal)

    monkeypatch.setattr(autoplay, "think", spy)
    seat = game.awaiting_seat
    GameSeat.objects.filter(game=game, seat=seat).update(bot_playing=True, bot_level="hard")
    assert game_bot_move(game_id=game.pk, guard_seq=game.last_seq) is not None
    assert seen == [(False, "hard", seat)]
