"""Sanctions, aborted games, hidden replays, reports and the audit log, through the services."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import DatabaseError, connection, transaction
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.standing import user_is_sanctioned
from games.access import access_finished_game
from games.eventlog import events_with_seq, fold_from_log
from games.models import Game, GameSeat, GameStatus, Seat, TableStatus
from games.services.tables import TableSettings, table_create, table_join
from harehra import Result
from moderation import services
from moderation.models import AuditEntry, Report, ReportStatus
from plumbing.errors import ServiceError
from tests.moderation.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def _sign_in(username: str) -> tuple[int, dict]:
    r = APIClient().post("/api/accounts/token/", {"username": username, "password": PASSWORD}, format="json")
    return r.status_code, r.json()


# --- sanctions -------------------------------------------------------------------------------


def test_a_suspended_user_cannot_sign_in_or_sit_and_is_told_why_until_lifted(moderator, make_user):
    user = make_user()
    services.user_suspend(moderator=moderator, user=user, period=timedelta(days=3), reason="spamming chat")
    assert user_is_sanctioned(user)
    code, body = _sign_in(user.username)
    assert code == 403 and body["code"] == "suspended" and "spamming chat" in body["detail"]
    session = APIClient().post(
        "/api/accounts/login/", {"username": user.username, "password": PASSWORD}, format="json"
    )
    assert session.status_code == 403 and session.json()["code"] == "suspended"
    table = table_create(host=make_user(), settings=TableSettings(seats=2))
    with pytest.raises(ServiceError) as refused:
        table_join(table=table, user=user)
    assert refused.value.code == "sanctioned"
    entry = AuditEntry.objects.get(action="suspend")
    assert entry.actor == moderator and entry.target_id == str(user.pk) and "spamming chat" in entry.reason

    services.user_sanction_lift(moderator=moderator, user=user, reason="appeal accepted")
    assert not user_is_sanctioned(user)
    assert _sign_in(user.username)[0] == 200
    table_join(table=table, user=user)
    assert AuditEntry.objects.filter(action="lift", target_id=str(user.pk)).exists()


def test_a_suspension_runs_out_by_itself(moderator, make_user):
    user = make_user()
    sanction = services.user_suspend(
        moderator=moderator, user=user, period=timedelta(hours=1), reason="cool off"
    )
    assert user_is_sanctioned(user)
    type(sanction).objects.filter(pk=sanction.pk).update(until=timezone.now() - timedelta(seconds=1))
    assert not user_is_sanctioned(user) and _sign_in(user.username)[0] == 200


def test_a_ban_hands_running_seats_to_bots_and_frees_the_chair(moderator, two_player_game):
    game, users = two_player_game
    banned = users[1]
    seat = GameSeat.objects.get(game=game, user=banned).seat
    services.user_ban(moderator=moderator, user=banned, reason="cheating")
    assert GameSeat.objects.get(game=game, seat=seat).bot_playing is True
    last = events_with_seq(game)[-1][1]
    assert last == {"type": "SeatTakenByBot", "version": 1, "seat": seat, "reason": "banned"}
    assert not Seat.objects.filter(user=banned).exists()
    code, body = _sign_in(banned.username)
    assert code == 403 and body["code"] == "banned" and "cheating" in body["detail"]
    with pytest.raises(ServiceError) as again:
        services.user_ban(moderator=moderator, user=banned, reason="twice")
    assert again.value.code == "already_banned"
    assert AuditEntry.objects.filter(action="ban").count() == 1


def test_sanction_inputs_are_checked(moderator, make_user):
    user = make_user()
    for kwargs, code in [
        ({"period": timedelta(days=1), "reason": "  "}, "reason_required"),
        ({"reason": "x"}, "bad_period"),
        ({"period": timedelta(seconds=-5), "reason": "x"}, "bad_period"),
    ]:
        with pytest.raises(ServiceError) as e:
            services.user_suspend(moderator=moderator, user=user, **kwargs)
        assert e.value.code == code
    with pytest.raises(ServiceError) as e:
        services.user_ban(moderator=moderator, user=moderator, reason="me")
    assert e.value.code == "bad_target"
    with pytest.raises(ServiceError) as e:
        services.user_sanction_lift(moderator=moderator, user=user, reason="nothing to lift")
    assert e.value.code == "not_sanctioned"
    assert not AuditEntry.objects.exists()


# --- aborted games and hidden replays --------------------------------------------------------


def test_an_aborted_game_ends_its_log_with_game_aborted_and_replays_as_aborted(moderator, two_player_game):
    game, _users = two_player_game
    before = game.last_seq
    seq = services.game_abort(moderator=moderator, game=game, reason="server trouble")
    game.refresh_from_db()
    assert seq == before + 1 == game.last_seq
    assert game.status == GameStatus.ABORTED and game.result == "aborted" and game.winner_seat is None
    assert game.deadline_at is None and game.finished_at is not None
    assert game.table.status == TableStatus.BETWEEN
    events = events_with_seq(game)
    assert events[-1] == (seq, {"type": "GameAborted", "version": 1})
    state = fold_from_log(game)
    assert state.result is Result.ABORTED and state.winner is None and state.over
    with pytest.raises(ServiceError) as again:
        services.game_abort(moderator=moderator, game=game, reason="again")
    assert again.value.code == "game_over"
    entry = AuditEntry.objects.get(action="abort")
    assert entry.target_type == "games.game" and entry.target_id == str(game.pk)


def _sees_replay(game: Game, user: Any) -> bool:
    try:
        access_finished_game(game, user)
    except ServiceError:
        return False
    return True


def test_hiding_and_unhiding_a_replay_flips_the_flag_and_is_audited(moderator, make_user, two_player_game):
    game, _users = two_player_game
    services.replay_hide(moderator=moderator, game=game, reason="slurs in names")
    game.refresh_from_db()
    assert game.replay_hidden is True
    with pytest.raises(ServiceError) as e:
        services.replay_hide(moderator=moderator, game=game, reason="again")
    assert e.value.code == "already_hidden"
    player, stranger = game.game_seats.first().user, make_user()
    assert not _sees_replay(game, AnonymousUser()) and not _sees_replay(game, stranger)
    assert _sees_replay(game, player) and _sees_replay(game, moderator)
    services.replay_unhide(moderator=moderator, game=game, reason="names changed")
    game.refresh_from_db()
    assert _sees_replay(game, stranger)
    assert Game.objects.get(pk=game.pk).replay_hidden is False
    assert list(AuditEntry.objects.order_by("id").values_list("action", "reason")) == [
        ("hide", "slurs in names"),
        ("unhide", "names changed"),
    ]


# --- reports ---------------------------------------------------------------------------------


def test_reports_through_the_api_are_checked_and_rate_limited(make_user, client_for, two_player_game):
    game, players = two_player_game
    reporter = make_user()
    c = client_for(reporter)
    r = c.post(
        "/api/reports/", {"user": players[0].username, "reason": "abuse", "text": "rude"}, format="json"
    )
    assert r.status_code == 201 and r.json()["status"] == "open"
    report = Report.objects.get(pk=r.json()["id"])
    assert report.reporter == reporter and report.target_user == players[0] and report.game is None
    bad = [
        ({"reason": "abuse"}, 400, "no_target"),
        ({"user": "nobody-here", "reason": "abuse"}, 404, "no_such_user"),
        ({"user": reporter.username, "reason": "abuse"}, 400, "bad_target"),
        ({"user": players[0].username, "reason": "weather"}, 400, "invalid"),
        ({"user": players[0].username, "reason": "other"}, 400, "bad_text"),
        ({"game": 999999, "reason": "cheating"}, 404, "no_such_game"),
        ({"user": players[0].username, "reason": "abuse"}, 409, "already_reported"),
    ]
    for body, status, code in bad:
        r = c.post("/api/reports/", body, format="json")
        assert (r.status_code, r.json()["code"]) == (status, code), body
    r = APIClient().post("/api/reports/", {"user": players[0].username, "reason": "abuse"}, format="json")
    assert r.status_code == 401 and r.json()["code"] == "not_authenticated"
    for i in range(4):
        body = {
            "game": game.pk,
            "user": players[1].username if i else "",
            "reason": "cheating",
            "text": str(i),
        }
        if i > 1:
            body["user"] = make_user().username
        r = c.post("/api/reports/", body, format="json")
        assert r.status_code == 201, r.content
    r = c.post("/api/reports/", {"user": make_user().username, "reason": "spam"}, format="json")
    assert r.status_code == 429 and r.json() == {
        "code": "rate_limited",
        "detail": "you can file 5 reports an hour: try again later",
    }
    assert Report.objects.filter(reporter=reporter).count() == 5


def test_a_private_game_cannot_be_reported_by_a_stranger(make_user, client_for):
    from tests.factories import seated_game

    players = [make_user() for _ in range(2)]
    game_id = seated_game([client_for(u) for u in players], visibility="private")
    r = client_for(make_user()).post("/api/reports/", {"game": game_id, "reason": "cheating"}, format="json")
    assert r.status_code == 404 and r.json()["code"] == "no_such_game"
    r = client_for(players[0]).post(
        "/api/reports/", {"game": game_id, "user": players[1].username, "reason": "cheating"}, format="json"
    )
    assert r.status_code == 201


def test_resolving_and_dismissing_reports(moderator, make_user):
    reporter, target = make_user(), make_user()
    one = services.report_create(reporter=reporter, reason="abuse", target_username=target.username)
    two = services.report_create(reporter=reporter, reason="name", target_username=make_user().username)
    services.report_resolve(moderator=moderator, report=one, note="warned them")
    services.report_dismiss(moderator=moderator, report=two, note="the name is fine")
    one.refresh_from_db()
    two.refresh_from_db()
    assert (one.status, one.resolution_note, one.resolved_by) == (
        ReportStatus.RESOLVED,
        "warned them",
        moderator,
    )
    assert two.status == ReportStatus.DISMISSED and two.resolved_at is not None
    with pytest.raises(ServiceError) as e:
        services.report_dismiss(moderator=moderator, report=one, note="again")
    assert e.value.code == "not_open"
    assert list(AuditEntry.objects.order_by("id").values_list("action", flat=True)) == ["resolve", "dismiss"]


# --- the audit log ---------------------------------------------------------------------------


def test_the_audit_log_refuses_update_and_delete_at_the_database(moderator, two_player_game):
    game, _ = two_player_game
    services.replay_hide(moderator=moderator, game=game, reason="original reason")
    entry = AuditEntry.objects.get()
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        AuditEntry.objects.filter(pk=entry.pk).update(reason="rewritten")
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic(), connection.cursor() as cur:
        cur.execute("UPDATE moderation_auditentry SET actor_id = actor_id WHERE id = %s", [entry.pk])
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        AuditEntry.objects.filter(pk=entry.pk).delete()
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic(), connection.cursor() as cur:
        cur.execute("DELETE FROM moderation_auditentry")
    entry.refresh_from_db()
    assert entry.reason == "original reason" and AuditEntry.objects.count() == 1
