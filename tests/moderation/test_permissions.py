"""Moderators can do every action through the admin; nobody else can, by any route."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from accounts.models import Sanction
from accounts.standing import user_is_sanctioned
from games.models import Game, GameSeat, GameStatus
from moderation import services
from moderation.models import AuditEntry, Report, ReportStatus
from plumbing.errors import ServiceError

pytestmark = pytest.mark.django_db

USERS = "/admin/auth/user/"
GAMES = "/admin/moderation/moderatedgame/"
REPORTS = "/admin/moderation/report/"
AUDIT = "/admin/moderation/auditentry/"


def _browser(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _act(client: Client, url: str, action: str, ids: list[int], follow: bool = False, **form: str) -> Any:
    return client.post(url, {"action": action, "_selected_action": ids, "apply": "1", **form}, follow=follow)


def _reports(make_user: Any, n: int) -> list[Report]:
    reporter = make_user()
    return [
        services.report_create(reporter=reporter, reason="abuse", target_username=make_user().username)
        for _ in range(n)
    ]


def test_a_moderator_does_every_action_through_the_admin(moderator, make_user, two_player_game):
    game, players = two_player_game
    c = _browser(moderator)
    for url in (USERS, GAMES, REPORTS + "?status__exact=open", AUDIT, "/admin/accounts/sanction/"):
        assert c.get(url).status_code == 200, url
    assert c.get(f"{USERS}?q={players[0].username}").status_code == 200
    assert c.get(f"{USERS}{players[0].pk}/change/").status_code == 200

    # The first POST (no "apply") shows the form that asks for the reason.
    page = c.post(USERS, {"action": "suspend_users", "_selected_action": [players[0].pk]})
    assert page.status_code == 200 and b'name="reason"' in page.content and b'name="period"' in page.content
    r = _act(c, USERS, "suspend_users", [players[0].pk], period="24", reason="flooding")
    assert r.status_code == 302 and user_is_sanctioned(players[0])
    assert GameSeat.objects.get(game=game, user=players[0]).bot_playing
    _act(c, USERS, "lift_sanctions", [players[0].pk], reason="sorry")
    assert not user_is_sanctioned(players[0])
    _act(c, USERS, "ban_users", [players[1].pk], reason="cheating")
    assert Sanction.objects.get(user=players[1], lifted_at=None).kind == "ban"
    services.report_create(reporter=players[0], reason="cheating", target_username=players[1].username)
    page = c.get(f"{USERS}{players[1].pk}/change/").content.decode()
    assert "banned: cheating" in page and "Cheating or collusion" in page  # sanction, reports
    assert f"Game {game.pk}</a>" in page and "Ban by" in page  # their games, past actions
    assert "pbkdf2" not in page  # moderators don't see password hashes

    _act(c, GAMES, "hide_replays", [game.pk], reason="names")
    assert Game.objects.get(pk=game.pk).replay_hidden
    _act(c, GAMES, "unhide_replays", [game.pk], reason="fine now")
    assert not Game.objects.get(pk=game.pk).replay_hidden
    _act(c, GAMES, "abort_games", [game.pk], reason="broken")
    assert Game.objects.get(pk=game.pk).status == GameStatus.ABORTED
    assert c.get(f"{GAMES}{game.pk}/change/").status_code == 200

    one, two = _reports(make_user, 2)
    _act(c, REPORTS + "?status__exact=open", "resolve_reports", [one.pk], reason="warned")
    _act(c, REPORTS, "dismiss_reports", [two.pk], reason="nothing wrong")
    assert Report.objects.get(pk=one.pk).status == ReportStatus.RESOLVED
    assert Report.objects.get(pk=two.pk).status == ReportStatus.DISMISSED

    actions = list(AuditEntry.objects.order_by("id").values_list("action", flat=True))
    assert actions == ["suspend", "lift", "ban", "hide", "unhide", "abort", "resolve", "dismiss"]
    assert set(AuditEntry.objects.values_list("actor", flat=True)) == {moderator.pk}


def test_a_moderator_mutes_unmutes_and_hides_chat_through_the_admin(moderator, client_for, two_player_game):
    from accounts.models import Mute
    from accounts.standing import user_is_muted
    from chat.models import ChatHide, ChatMessage

    game, players = two_player_game
    c = _browser(moderator)

    page = c.post(USERS, {"action": "mute_users", "_selected_action": [players[0].pk]})
    assert b'name="period"' in page.content and b"until lifted" in page.content
    _act(c, USERS, "mute_users", [players[0].pk], period="", reason="flooding")
    mute = Mute.objects.get(user=players[0])
    assert mute.until is None and user_is_muted(players[0])
    _act(c, USERS, "mute_users", [players[1].pk], period="24", reason="rude")
    assert Mute.objects.get(user=players[1]).until is not None
    # A refusal is told per object, and the others still go through.
    r = _act(c, USERS, "unmute_users", [players[0].pk, moderator.pk], reason="served", follow=True)
    said = [str(m) for m in r.context["messages"]]
    assert f"{moderator}: {moderator.get_username()} is not muted" in said and "Unmuted: 1" in said
    assert not user_is_muted(players[0]) and user_is_muted(players[1])

    r = client_for(players[0]).post(f"/api/tables/{game.table_id}/chat/", {"text": "hello"}, format="json")
    message = ChatMessage.objects.get(pk=r.json()["id"])
    _act(c, "/admin/moderation/moderatedchatmessage/", "hide_messages", [message.pk], reason="rude")
    assert ChatHide.objects.get(message=message).reason == "rude"

    entries = AuditEntry.objects.order_by("id").values_list("action", "reason")
    assert [a for a, _ in entries] == ["mute", "mute", "unmute", "hide_message"]
    assert entries[0][1] == "flooding" and entries[1][1].startswith("until ")


def test_a_missing_reason_changes_nothing(moderator, make_user):
    user = make_user()
    r = _act(_browser(moderator), USERS, "ban_users", [user.pk], reason="")
    assert r.status_code == 200 and b"This field is required" in r.content
    assert not user_is_sanctioned(user) and not AuditEntry.objects.exists()


def test_the_report_queue_defaults_to_open_reports(moderator, make_user):
    c = _browser(moderator)
    r = c.get(REPORTS)
    assert r.status_code == 302 and r["Location"].endswith("?status__exact=open")


def test_the_audit_log_is_never_editable_in_the_admin(moderator, make_user):
    target = make_user()
    services.user_ban(moderator=moderator, user=target, reason="spam")
    entry = AuditEntry.objects.get()
    superuser = get_user_model().objects.create_superuser("root", "root@example.com", "correct-horse-battery")
    for who in (moderator, superuser):
        c = _browser(who)
        page = c.get(f"{AUDIT}{entry.pk}/change/")
        assert page.status_code == 200 and b'name="reason"' not in page.content  # read-only
        assert c.post(f"{AUDIT}{entry.pk}/change/", {"reason": "edited"}).status_code == 403
        assert c.post(f"{AUDIT}{entry.pk}/delete/", {"post": "yes"}).status_code == 403
        assert c.get(f"{AUDIT}add/").status_code == 403
        c.post(AUDIT, {"action": "delete_selected", "_selected_action": [entry.pk], "post": "yes"})
    entry.refresh_from_db()
    assert entry.reason == "spam" and AuditEntry.objects.count() == 1


@pytest.mark.parametrize("kind", ["player", "staff_not_moderator"])
def test_nobody_else_can_moderate_through_the_admin(kind, make_user, moderator, two_player_game):
    game, players = two_player_game
    outsider = make_user()
    if kind == "staff_not_moderator":
        outsider.is_staff = True
        outsider.save(update_fields=["is_staff"])
    (report,) = _reports(make_user, 1)
    c = _browser(outsider)
    for url in (USERS, GAMES, REPORTS + "?status__exact=open", AUDIT):
        r = c.get(url)
        assert r.status_code in (302, 403), url
    crafted = [
        (USERS, "suspend_users", players[0].pk, {"period": "24"}),
        (USERS, "ban_users", players[0].pk, {}),
        (GAMES, "hide_replays", game.pk, {}),
        (GAMES, "abort_games", game.pk, {}),
        (REPORTS, "resolve_reports", report.pk, {}),
        (REPORTS, "dismiss_reports", report.pk, {}),
    ]
    for url, action, pk, extra in crafted:
        r = _act(c, url, action, [pk], reason="crafted", **extra)
        assert r.status_code in (302, 403), (url, action)
        if r.status_code == 302:
            assert "/admin/login/" in r["Location"]
    services.user_ban(moderator=moderator, user=players[1], reason="real")
    r = _act(c, USERS, "lift_sanctions", [players[1].pk], reason="crafted")
    assert r.status_code in (302, 403)
    assert not user_is_sanctioned(players[0]) and user_is_sanctioned(players[1])
    game.refresh_from_db()
    assert game.status == GameStatus.RUNNING and not game.replay_hidden
    assert Report.objects.get(pk=report.pk).status == ReportStatus.OPEN
    assert list(AuditEntry.objects.values_list("action", flat=True)) == ["ban"]


def test_a_staff_member_with_view_rights_only_cannot_run_actions(make_user, two_player_game):
    """Actions need their own permission: seeing the games is not enough to abort one."""
    from django.contrib.auth.models import Permission

    game, _ = two_player_game
    viewer = make_user()
    viewer.is_staff = True
    viewer.save(update_fields=["is_staff"])
    viewer.user_permissions.add(Permission.objects.get(codename="view_moderatedgame"))
    c = _browser(viewer)
    assert c.get(GAMES).status_code == 200
    r = _act(c, GAMES, "abort_games", [game.pk], reason="crafted")
    assert r.status_code in (200, 302)  # the action is not offered to them, so nothing runs
    assert Game.objects.get(pk=game.pk).status == GameStatus.RUNNING
    assert not AuditEntry.objects.exists()


def test_no_service_accepts_an_ordinary_user(make_user, two_player_game):
    game, players = two_player_game
    (report,) = _reports(make_user, 1)
    staff = make_user()
    staff.is_staff = True
    staff.save(update_fields=["is_staff"])
    for who in (players[0], make_user(), staff):
        calls = [
            (services.user_suspend, {"user": players[1], "period": timedelta(days=1), "reason": "x"}),
            (services.user_ban, {"user": players[1], "reason": "x"}),
            (services.user_sanction_lift, {"user": players[1], "reason": "x"}),
            (services.game_abort, {"game": game, "reason": "x"}),
            (services.replay_hide, {"game": game, "reason": "x"}),
            (services.replay_unhide, {"game": game, "reason": "x"}),
            (services.report_resolve, {"report": report, "note": "x"}),
            (services.report_dismiss, {"report": report, "note": "x"}),
        ]
        for service, kwargs in calls:
            with pytest.raises(ServiceError) as e:
                service(moderator=who, **kwargs)
            assert e.value.code == "permission_denied" and e.value.status == 403
    assert not AuditEntry.objects.exists()


def test_the_api_offers_ordinary_users_no_moderation(make_user, client_for, two_player_game):
    game, players = two_player_game
    c = client_for(players[0])
    assert c.get("/api/reports/").status_code == 405  # reports are filed, never listed
    for method in ("put", "patch", "delete"):
        assert getattr(c, method)("/api/reports/", {}, format="json").status_code == 405
    r = c.post(f"/api/games/{game.pk}/abort/", {"reason": "x"}, format="json")
    assert r.status_code in (404, 405)
    assert Game.objects.get(pk=game.pk).status == GameStatus.RUNNING


def test_a_reports_admin_page_links_the_message_the_game_then_and_the_actions(
    moderator, make_user, client_for, two_player_game
):
    from chat.models import ChatMessage

    game, players = two_player_game
    said = client_for(players[0]).post(
        f"/api/tables/{game.table_id}/chat/", {"text": "you cheat"}, format="json"
    )
    message = ChatMessage.objects.get(pk=said.json()["id"])
    r = client_for(players[1]).post(
        f"/api/chat/messages/{message.pk}/report/", {"reason": "abuse"}, format="json"
    )
    report = Report.objects.get(pk=r.json()["id"])
    c = _browser(moderator)
    page = c.get(f"{REPORTS}{report.pk}/change/").content.decode()
    assert (
        f'href="/admin/moderation/moderatedchatmessage/{message.pk}/change/"' in page and "you cheat" in page
    )
    assert f'href="/watch/{game.pk}/"' in page  # the game at the message's table, still running
    links = [
        f"/admin/moderation/moderatedchatmessage/?id__exact={message.pk}",
        f"/admin/auth/user/?id__exact={players[0].pk}",
        f"{REPORTS}?id__exact={report.pk}",
    ]
    for link in links:
        assert f'href="{link}"' in page, link
        listed = c.get(link)
        rows = listed.content.decode().count('class="action-select"')
        assert listed.status_code == 200 and rows == 1, link  # that one row, its actions at hand
    assert c.get(f"/admin/moderation/moderatedchatmessage/{message.pk}/change/").status_code == 200
    # The confirm page of an action names the message by what it says, not "... object (2)".
    confirm = c.post(
        "/admin/moderation/moderatedchatmessage/",
        {"action": "hide_messages", "_selected_action": [message.pk]},
    )
    text = confirm.content.decode()
    assert (
        f"Message {message.pk} by {players[0].get_username()} at table {game.table_id}: &quot;you cheat&quot;"
        in text
    )
    assert "object (" not in text
    confirm = c.post(REPORTS, {"action": "dismiss_reports", "_selected_action": [report.pk]})
    assert (
        f"Report {report.pk} (Abusive or harassing behaviour) about {players[0].get_username()}"
        in confirm.content.decode()
    )


def test_a_game_reports_admin_page_opens_the_replay_where_the_game_stood(moderator, make_user):
    import random

    from games.models import GameEvent
    from tests.factories import play_out, start_table

    people = [make_user(), make_user()]
    game = start_table(people, rated=False)
    game = play_out(game, random.Random(5), moves=6)
    report = services.report_create(reporter=people[0], reason="stalling", game_id=game.pk)
    then = GameEvent.objects.filter(game=game).order_by("-seq").first().seq
    game = play_out(game, random.Random(5))
    assert game.status == GameStatus.FINISHED and game.last_seq > then
    c = _browser(moderator)
    page = c.get(f"{REPORTS}{report.pk}/change/").content.decode()
    step = then - 1
    assert f'href="/replays/{game.pk}/?step={step}"' in page
    assert f'href="{GAMES}?id__exact={game.pk}"' in page
    replay = c.get(f"/replays/{game.pk}/?step={step}")
    assert replay.status_code == 200 and f'"step": {step}' in replay.content.decode()
