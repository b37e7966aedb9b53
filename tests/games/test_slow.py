"""Slow tables: settings, deadlines kept in PostgreSQL only and fired by the sweep, missed
decisions played by a bot and told, the seat handed to a bot after SLOW_MISSES_IN_A_ROW, and each
decision told once. The clock is moved (plumbing/clock.py), never waited for."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from django.db import transaction
from django.test import TestCase

from bench.kit.broker import tasks_sent
from games.followups import BOT_THINK_TASK, DEADLINE_TASK, SLOW_DEADLINE_TASK
from games.models import SLOW_MISSES_IN_A_ROW, Game, GameEvent, GameSeat, GameStatus
from games.services.autoplay import SLOW_CLAIM_SECONDS, due_deadlines, slow_due
from games.services.presence import seats_gone_away
from games.services.seats import seat_hand_to_bot, seat_reclaim
from games.services.sweep import SweepReport, sweep_run
from games.services.turns import decisions_tell, your_turn_sweep
from games.tasks import slow_deadline
from notifications.models import Kind, Notification
from plumbing import clock
from tests.factories import create_table, seated_game, send

pytestmark = pytest.mark.django_db
DAY = 24 * 3600


def _slow_tasks() -> list[list[Any]]:
    """The slow deadline tasks the sweeps handed over since the last read (other tasks dropped)."""
    return [t.args for t in tasks_sent() if t.task == SLOW_DEADLINE_TASK]


def _swept(capture: Any) -> list[list[Any]]:
    """One sweep run, committed, and the slow deadline tasks it handed over (nothing sent before)."""
    tasks_sent()
    with capture(execute=True):
        sweep_run()
    return _slow_tasks()


def _run(tasks: list[list[Any]]) -> None:
    for args in tasks:  # as a worker would, each in its own transaction
        with TestCase.captureOnCommitCallbacks(execute=True):
            slow_deadline(*args)


def _sweep() -> SweepReport:
    """One beat's sweep (its hand-overs sent once it commits), then the tasks it sent run."""
    tasks_sent()
    with TestCase.captureOnCommitCallbacks(execute=True):
        report = sweep_run()
    _run(_slow_tasks())
    return report


@pytest.fixture(autouse=True)
def _real_clock() -> Iterator[None]:
    clock.reset()
    yield
    clock.reset()


@pytest.fixture
def people(make_user, client_for) -> list[tuple[Any, Any]]:
    users = [make_user() for _ in range(2)]
    return [(u, client_for(u)) for u in users]


def _slow_game(people: list[tuple[Any, Any]], capture: Any, seconds: int = DAY) -> Game:
    tasks_sent()  # what earlier tests left
    with capture(execute=True):
        game_id = seated_game([c for _, c in people], pace="slow", decision_seconds=seconds)
    return Game.objects.get(pk=game_id)


def _client(people: list[tuple[Any, Any]], game: Game, seat: int) -> Any:
    user_id = GameSeat.objects.get(game=game, seat=seat).user_id
    return next(c for u, c in people if u.pk == user_id)


def _play_first_legal(people: list[tuple[Any, Any]], game: Game) -> None:
    client = _client(people, game, game.awaiting_seat)
    legal = client.get(f"/api/games/{game.pk}/").json()["legal"]
    r = send(client, game.pk, {k: v for k, v in legal[-1].items() if k != "seat"})
    assert r.status_code == 200, r.content


# --- settings --------------------------------------------------------------------------------------


def test_a_slow_table_keeps_one_time_per_decision_and_may_be_rated(people):
    _, client = people[0]
    table = create_table(client, pace="slow", decision_seconds=8 * 3600, rated=True)
    assert table["pace"] == "slow" and table["rated"] is True
    assert table["turn_timer"] == table["reaction_timer"] == table["discard_timer"] == 8 * 3600


@pytest.mark.parametrize(
    "settings",
    [
        {"pace": "slow"},  # no time per decision
        {"pace": "slow", "decision_seconds": 1234},  # not one of the choices
        {"pace": "slow", "decision_seconds": DAY, "turn_timer": 60},  # timers are not a slow table's
        {"pace": "live", "decision_seconds": DAY},  # a live table gives its timers
        {"pace": "sometimes"},
    ],
)
def test_bad_pace_settings_are_refused_with_a_stable_code(people, settings):
    _, client = people[0]
    r = client.post("/api/tables/", settings, format="json")
    assert r.status_code == 400 and r.json()["code"] == "bad_pace", r.content


def test_the_table_page_and_lobby_show_the_pace(people):
    _, client = people[0]
    table = create_table(client, pace="slow", decision_seconds=DAY)
    page = client.get(f"/tables/{table['id']}/").content.decode()
    assert "slow: 1 day per decision" in page
    lobby = client.get("/lobby/").content.decode()
    assert "slow: 1 day per decision" in lobby


# --- deadlines -------------------------------------------------------------------------------------


def test_no_countdown_task_for_a_slow_table_and_the_sweep_fires_its_deadline(
    people, django_capture_on_commit_callbacks
):
    game = _slow_game(people, django_capture_on_commit_callbacks)
    assert not [t for t in tasks_sent() if t.task == DEADLINE_TASK]
    assert game.slow and game.timer_armed_for is None
    assert game.slow_deadline_at == game.deadline_at
    assert (game.deadline_at - clock.now()).total_seconds() > DAY - 60
    with django_capture_on_commit_callbacks(execute=True):
        _play_first_legal(people, game)
    assert not [t for t in tasks_sent() if t.task == DEADLINE_TASK]
    game.refresh_from_db()
    seq, seat = game.last_seq, game.awaiting_seat
    assert slow_due() == [] and _sweep().done["slow_handed"] == 0  # not due: nothing happens
    clock.shift(timedelta(seconds=DAY + 1))
    assert slow_due() == [(game.pk, seq)]
    assert due_deadlines() == []  # the live sweep's list passes slow games over
    report = _sweep()
    assert report.done["slow_handed"] == 1, report.line()
    game.refresh_from_db()
    assert game.last_seq > seq
    assert GameEvent.objects.get(game=game, seq=seq + 1).actor_id is None  # played by the autopilot
    # The next decision's deadline counts from the moved clock.
    assert game.slow_deadline_at is not None and game.slow_deadline_at > clock.now()
    if game.awaiting_seat == seat:
        return
    assert GameSeat.objects.get(game=game, seat=seat).missed_deadlines == 1


def _due(people: list[tuple[Any, Any]], capture: Any) -> Game:
    game = _slow_game(people, capture)
    clock.shift(game.deadline_at - clock.now() + timedelta(seconds=1))
    return game


def _log(game: Game) -> list[tuple[int, str, int | None]]:
    return list(GameEvent.objects.filter(game=game).order_by("seq").values_list("seq", "type", "actor_id"))


def test_the_sweep_hands_a_due_game_to_one_task_and_a_second_sweep_does_not_again(
    people, django_capture_on_commit_callbacks
):
    game = _due(people, django_capture_on_commit_callbacks)
    seq = game.last_seq
    handed = []
    for _ in range(2):  # the task has not run yet: the second sweep finds the game claimed
        tasks_sent()
        with django_capture_on_commit_callbacks(execute=True):
            sweep_run()
        handed.append(_slow_tasks())
    assert [a[:2] for a in handed[0]] == [[game.pk, seq]] and handed[1] == []
    assert slow_due() == []  # claimed
    first = handed[0]
    _run(first)
    game.refresh_from_db()
    assert game.last_seq > seq
    assert GameEvent.objects.get(game=game, seq=seq + 1).actor_id is None


def test_two_tasks_for_one_deadline_apply_it_once(people, django_capture_on_commit_callbacks):
    game = _due(people, django_capture_on_commit_callbacks)
    seat, seq = game.awaiting_seat, game.last_seq
    tasks = _swept(django_capture_on_commit_callbacks)
    assert len(tasks) == 1
    _run(tasks)
    after = _log(game)
    missed = GameSeat.objects.get(game=game, seat=seat).missed_deadlines
    told = Notification.objects.filter(kind=Kind.DECISION_MISSED).count()
    assert len(after) > seq and missed in (0, 1)
    _run(tasks)  # the same task again (delivered twice): the game moved on, nothing changes
    game.refresh_from_db()
    assert _log(game) == after
    assert GameSeat.objects.get(game=game, seat=seat).missed_deadlines == missed
    assert Notification.objects.filter(kind=Kind.DECISION_MISSED).count() == told


def test_a_decision_made_after_the_sweep_read_the_game_is_not_touched(
    people, django_capture_on_commit_callbacks
):
    game = _due(people, django_capture_on_commit_callbacks)
    seat, seq = game.awaiting_seat, game.last_seq
    tasks = _swept(django_capture_on_commit_callbacks)
    assert [a[:2] for a in tasks] == [[game.pk, seq]]
    # The person decides (late, but before the task runs): the move is theirs.
    with django_capture_on_commit_callbacks(execute=True):
        _play_first_legal(people, game)
    game.refresh_from_db()
    moved = _log(game)
    assert GameEvent.objects.get(game=game, seq=seq + 1).actor_id is not None  # the person's move
    waits_until = game.slow_deadline_at
    _run(tasks)
    game.refresh_from_db()
    assert _log(game) == moved
    assert game.slow_deadline_at == waits_until  # the next decision's deadline, untouched
    assert GameSeat.objects.get(game=game, seat=seat).missed_deadlines == 0
    assert not Notification.objects.filter(kind=Kind.DECISION_MISSED).exists()


def test_a_lost_task_is_handed_over_again_once_the_claim_runs_out(people, django_capture_on_commit_callbacks):
    game = _due(people, django_capture_on_commit_callbacks)
    seq = game.last_seq
    tasks_sent()
    with django_capture_on_commit_callbacks(execute=True):
        sweep_run()
    assert len(_slow_tasks()) == 1  # and lost: never run
    clock.shift(timedelta(seconds=SLOW_CLAIM_SECONDS - 5))
    assert _sweep().done["slow_handed"] == 0
    clock.shift(timedelta(seconds=10))
    assert _sweep().done["slow_handed"] == 1
    game.refresh_from_db()
    assert game.last_seq > seq


def test_a_live_table_keeps_its_countdown_task(people, django_capture_on_commit_callbacks):
    tasks_sent()
    with django_capture_on_commit_callbacks(execute=True):
        game_id = seated_game([c for _, c in people])
    game = Game.objects.get(pk=game_id)
    armed = [t for t in tasks_sent() if t.task == DEADLINE_TASK]
    assert len(armed) == 1 and armed[0].eta == game.deadline_at
    assert not game.slow and game.slow_deadline_at is None and not game.slow_tell


# --- missed decisions ------------------------------------------------------------------------------


def _miss(game: Game) -> None:
    clock.shift(game.deadline_at - clock.now() + timedelta(seconds=1))
    report = _sweep()
    assert report.done["slow_handed"] >= 1, report.line()


def test_a_miss_is_played_by_a_bot_and_told_and_three_in_a_row_hand_the_seat_to_a_bot(
    people, django_capture_on_commit_callbacks
):
    game = _slow_game(people, django_capture_on_commit_callbacks)
    away_seat = game.awaiting_seat
    away = GameSeat.objects.get(game=game, seat=away_seat)
    for _ in range(400):
        game.refresh_from_db()
        if game.status != GameStatus.RUNNING:
            pytest.skip("the deal ended before the seat missed three decisions")
        row = GameSeat.objects.get(pk=away.pk)
        if row.bot_playing:
            break
        if game.awaiting_seat == away_seat:
            before = row.missed_deadlines
            kind = game.awaiting_kind
            _miss(game)
            after = GameSeat.objects.get(pk=away.pk).missed_deadlines
            # A reaction the seat could not answer declined after a few seconds: no miss.
            assert after in (before + 1, before) and (after == before + 1 or kind in ("volley", "skip"))
        else:
            _play_first_legal(people, game)
    row = GameSeat.objects.get(pk=away.pk)
    assert row.bot_playing and row.missed_deadlines == SLOW_MISSES_IN_A_ROW
    taken = GameEvent.objects.filter(game=game, type="SeatTakenByBot").get()
    assert taken.payload["reason"] == "timeout"
    told = list(Notification.objects.filter(user_id=away.user_id, kind=Kind.DECISION_MISSED).order_by("pk"))
    assert [n.data["missed"] for n in told] == [1, 2, 3]
    assert [n.data["taken"] for n in told] == [False, False, True]
    # The person takes the seat back, as at a live table, and the count starts again.
    user = next(u for u, _ in people if u.pk == away.user_id)
    seat_reclaim(game=game, user=user)
    row = GameSeat.objects.get(pk=away.pk)
    assert not row.bot_playing and row.missed_deadlines == 0


def test_a_decision_made_resets_the_count(people, django_capture_on_commit_callbacks):
    game = _slow_game(people, django_capture_on_commit_callbacks)
    seat = game.awaiting_seat
    _miss(game)
    assert GameSeat.objects.get(game=game, seat=seat).missed_deadlines == 1
    for _ in range(400):
        game.refresh_from_db()
        if game.status != GameStatus.RUNNING:
            pytest.skip("the deal ended first")
        if game.awaiting_seat == seat:
            break
        _play_first_legal(people, game)
    _play_first_legal(people, game)
    assert GameSeat.objects.get(game=game, seat=seat).missed_deadlines == 0


def test_a_slow_table_never_marks_a_closed_page_away(people, django_capture_on_commit_callbacks):
    game = _slow_game(people, django_capture_on_commit_callbacks)
    GameSeat.objects.filter(game=game).update(connections=0, disconnected_at=clock.now() - timedelta(hours=5))
    assert seats_gone_away() == []


# --- telling whose decision it is ------------------------------------------------------------------


def test_each_decision_is_told_once_to_its_person(people, django_capture_on_commit_callbacks):
    game = _slow_game(people, django_capture_on_commit_callbacks)
    first = GameSeat.objects.get(game=game, seat=game.awaiting_seat).user_id
    assert game.slow_tell
    assert your_turn_sweep() == 0  # the live sweep leaves slow games to decisions_tell
    assert decisions_tell() == 1
    assert decisions_tell() == 0  # told once
    n = Notification.objects.get(user_id=first, kind=Kind.SLOW_TURN)
    assert n.data == {"game": game.pk, "table": game.table_id, "deadline": game.deadline_at.isoformat()}
    game.refresh_from_db()
    assert not game.slow_tell
    # The next decision (a seat that could not react declines after a few seconds, untold) is told.
    told = 1
    for _ in range(20):
        _play_first_legal(people, game)
        game.refresh_from_db()
        told += decisions_tell()
        assert decisions_tell() == 0
        if told >= 3:
            break
    notices = Notification.objects.filter(kind=Kind.SLOW_TURN, once__startswith=f"turn:{game.pk}:")
    assert notices.count() == told and len({n.once for n in notices}) == told


def test_an_open_page_is_told_once_it_closes(people, django_capture_on_commit_callbacks):
    game = _slow_game(people, django_capture_on_commit_callbacks)
    GameSeat.objects.filter(game=game, seat=game.awaiting_seat).update(connections=1)
    assert decisions_tell() == 0
    GameSeat.objects.filter(game=game, seat=game.awaiting_seat).update(connections=0)
    assert decisions_tell() == 1


def test_a_bot_to_move_at_a_slow_table_has_its_wakeup_and_the_sweep_behind_it(
    people, django_capture_on_commit_callbacks
):
    game = _slow_game(people, django_capture_on_commit_callbacks)
    user = GameSeat.objects.get(game=game, seat=game.awaiting_seat).user
    tasks_sent()
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        seat_hand_to_bot(game=game, seat=game.awaiting_seat, reason="away")
    assert [t.task for t in tasks_sent()] == [BOT_THINK_TASK]  # its wake-up, and no countdown task
    game.refresh_from_db()
    # The bot's wake-up is lost here (no worker): the sweep moves it seconds later, not a day.
    assert (game.slow_deadline_at - clock.now()).total_seconds() < 60
    seq = game.last_seq
    clock.shift(timedelta(seconds=60))
    assert _sweep().done["slow_handed"] == 1
    game.refresh_from_db()
    assert game.last_seq > seq and user is not None
    assert GameEvent.objects.get(game=game, seq=seq + 1).actor_id is None


# --- challenges and Swiss events -------------------------------------------------------------------


def test_a_challenge_makes_a_slow_rated_table(make_user, client_for, django_capture_on_commit_callbacks):
    alena, bedrich = make_user("alena"), make_user("bedrich")
    a, b = client_for(alena), client_for(bedrich)
    for x, y in ((a, "bedrich"), (b, "alena")):
        assert x.post(f"/api/relations/follows/{y}/").status_code == 200
    bad = a.post("/api/challenges/", {"to": ["bedrich"], "seats": 2, "pace": "slow"}, format="json")
    assert (bad.status_code, bad.json()["code"]) == (400, "bad_pace")
    body = {"to": ["bedrich"], "seats": 2, "pace": "slow", "decision_seconds": 3 * DAY, "rated": True}
    cid = a.post("/api/challenges/", body, format="json").json()["id"]
    with django_capture_on_commit_callbacks(execute=True):
        r = b.post(f"/api/challenges/{cid}/accept/")
    game = Game.objects.select_related("table").get(pk=r.json()["game"])
    assert game.slow and game.table.is_slow and game.table.rated
    assert game.table.turn_timer == game.table.reaction_timer == 3 * DAY


def test_a_swiss_event_may_be_slow_and_its_tables_are(staff, make_user):
    from django.utils import timezone

    from plumbing.errors import ServiceError
    from tournaments.models import EventTable
    from tournaments.services import tournament_create, tournament_join, tournament_start

    now = timezone.now()
    spec = {
        **{"name": "Slow", "table_size": 2, "min_table_size": 2, "rated": True, "rounds": 1},
        **{"entry_opens_at": now - timedelta(minutes=5), "starts_at": now + timedelta(minutes=5)},
    }
    for bad in (
        {"format": "arena", "pace": "slow", "decision_seconds": DAY},
        {"format": "swiss", "pace": "slow"},
    ):
        with pytest.raises(ServiceError) as e:
            tournament_create(user=staff, **spec, **bad)
        assert e.value.code == "bad_pace", bad
    t = tournament_create(user=staff, **spec, format="swiss", pace="slow", decision_seconds=8 * 3600)
    for _ in range(2):
        tournament_join(tournament=t, user=make_user())
    tournament_start(tournament=t, user=staff)
    et = EventTable.objects.select_related("table", "game").get(tournament=t)
    assert et.table.is_slow and et.game.slow and et.table.turn_timer == 8 * 3600


# --- reactions -------------------------------------------------------------------------------------


def test_a_slow_reaction_waits_only_for_a_seat_that_could_answer(people, django_capture_on_commit_callbacks):
    """Whoever is asked to react: a seat holding an answer gets the table's time, a seat with
    none declines after AUTO_ANSWER_SECONDS (as a seat with "answer for me" always does)."""
    from django.conf import settings

    from games.eventlog import load_state
    from harehra import legal_commands

    game = _slow_game(people, django_capture_on_commit_callbacks)
    seen = set()
    for _ in range(600):
        game.refresh_from_db()
        if game.status != GameStatus.RUNNING or len(seen) == 2:
            break
        if game.awaiting_kind in ("volley", "skip"):
            could = len(legal_commands(load_state(game), game.awaiting_seat)) > 1
            window = (
                game.deadline_at - GameEvent.objects.get(game=game, seq=game.last_seq).created_at
            ).total_seconds()
            if could:
                assert window > DAY - 60
            else:
                assert window <= settings.AUTO_ANSWER_SECONDS + 1
                assert not game.slow_tell  # nothing to tell: it declines by itself in seconds
            seen.add(could)
        client = _client(people, game, game.awaiting_seat)
        legal = client.get(f"/api/games/{game.pk}/").json()["legal"]
        volleys = [c for c in legal if c.get("play", [""])[0] == "cumi"]
        choice = volleys[0] if volleys and game.awaiting_kind == "turn" else legal[0]
        r = send(client, game.pk, {k: v for k, v in choice.items() if k != "seat"})
        assert r.status_code == 200, r.content
    assert seen, "no reaction was asked in the deal"


def test_one_decisions_failing_notice_stops_no_others(
    make_user, client_for, django_capture_on_commit_callbacks, monkeypatch
):
    import games.services.turns as turns

    tables = [[client_for(make_user()) for _ in range(2)] for _ in range(2)]
    games = []
    for clients in tables:
        with django_capture_on_commit_callbacks(execute=True):
            games.append(Game.objects.get(pk=seated_game(clients, pace="slow", decision_seconds=DAY)))
    broken = games[0]
    real = turns.notification_send

    def send(**kw: Any) -> Any:
        if kw["data"]["game"] == broken.pk:
            raise RuntimeError("the mail queue is down")
        return real(**kw)

    monkeypatch.setattr(turns, "notification_send", send)
    assert decisions_tell() == 1
    broken.refresh_from_db()
    games[1].refresh_from_db()
    assert broken.slow_tell and not games[1].slow_tell  # the failed one is tried again next time
    monkeypatch.setattr(turns, "notification_send", real)
    assert decisions_tell() == 1


def test_a_slow_game_whose_log_is_damaged_is_set_aside_by_its_task_not_moved(
    people, django_capture_on_commit_callbacks
):
    from games.models import GameFault

    game = _due(people, django_capture_on_commit_callbacks)
    seq = game.last_seq
    Game.objects.filter(pk=game.pk).update(last_seq=seq + 1)  # a row written past its log
    _sweep()
    assert GameFault.objects.get(game=game).set_aside_at is not None
    assert not GameEvent.objects.filter(game=game, seq__gt=seq).exists()
    clock.shift(timedelta(seconds=SLOW_CLAIM_SECONDS + 1))
    assert _sweep().done["slow_handed"] == 0  # set aside: not handed over again
