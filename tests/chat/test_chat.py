"""The table chat through its REST API and its services: channels, limits, the host's switch, and
moderation (report, hide, mute) through the moderation services and the audit log."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from chat.models import ChatHide, ChatMessage
from games.models import Game, Table
from moderation.models import AuditEntry, Report
from moderation.services import chat_message_hide, user_mute, user_unmute
from plumbing.text import BIDI_CONTROLS
from tests.factories import post, seated_game, send
from tests.moderation.conftest import make_moderator

pytestmark = pytest.mark.django_db
HOSTILE = '<script>alert("x")</script><img src=x onerror=alert(1)>&amp;'


@pytest.fixture
def table(make_user: Any, client_for: Any) -> dict[str, Any]:
    """A running game's table: two players (the first hosts), a spectator and clients for each."""
    players = [make_user(), make_user()]
    clients = [client_for(u) for u in players]
    game = Game.objects.get(pk=seated_game(clients))
    watcher = make_user()
    return {
        "id": game.table_id,
        "game": game,
        "players": players,
        "clients": clients,
        "watcher": watcher,
        "watcher_client": client_for(watcher),
    }


def say(client: APIClient, table_id: int, text: str) -> Any:
    return client.post(f"/api/tables/{table_id}/chat/", {"text": text}, format="json")


def test_players_and_spectators_have_separate_channels_and_history_survives(table: dict[str, Any]) -> None:
    tid = table["id"]
    r = say(table["clients"][0], tid, "good luck")
    assert r.status_code == 201 and r.json()["channel"] == "players"
    r = say(table["watcher_client"], tid, "go bob")
    assert r.status_code == 201 and r.json()["channel"] == "spectators"
    mine = table["clients"][1].get(f"/api/tables/{tid}/chat/").json()
    assert mine["channel"] == "players" and [m["text"] for m in mine["messages"]] == ["good luck"]
    theirs = table["watcher_client"].get(f"/api/tables/{tid}/chat/").json()
    assert theirs["channel"] == "spectators" and [m["text"] for m in theirs["messages"]] == ["go bob"]
    anonymous = APIClient().get(f"/api/tables/{tid}/chat/").json()
    assert anonymous["can_send"] is False and anonymous["why_not"] == "not_authenticated"
    assert [m["text"] for m in anonymous["messages"]] == ["go bob"]
    assert say(APIClient(), tid, "hi").status_code == 401


def test_text_is_plain_one_line_and_at_most_300_characters(table: dict[str, Any]) -> None:
    c, tid = table["clients"][0], table["id"]
    assert say(c, tid, "x" * 300).status_code == 201
    too_long = say(c, tid, "x" * 301)
    assert too_long.status_code == 400 and too_long.json()["code"] == "chat_too_long"
    assert say(c, tid, "   ").json()["code"] == "chat_empty"
    assert say(c, tid, "two\nlines").json()["code"] == "chat_bad_text"
    hostile = say(c, tid, HOSTILE)
    assert hostile.status_code == 201 and hostile.json()["text"] == HOSTILE  # stored as typed, shown as text


def test_bidirectional_controls_are_removed_so_a_line_cannot_read_as_someone_elses(
    table: dict[str, Any],
) -> None:
    c, tid = table["clients"][0], table["id"]
    # U+202E shows what follows backwards: "I resign" + RLO + "bob says: " reads as bob's words.
    r = say(c, tid, "gg \u202e:syas bob\u202c \u2066isolated\u2069 \u200fmark\u061c")
    assert r.status_code == 201 and r.json()["text"] == "gg :syas bob isolated mark"
    stored = ChatMessage.objects.get(pk=r.json()["id"]).text
    assert len(BIDI_CONTROLS) == 12 and not BIDI_CONTROLS & set(stored)
    assert say(c, tid, "\u202e\u202e ").json()["code"] == "chat_empty"  # nothing left to say
    assert say(c, tid, "שלום חברים").json()["text"] == "שלום חברים"  # right-to-left letters stay


def test_five_messages_in_ten_seconds_then_a_clear_error(table: dict[str, Any]) -> None:
    c, tid = table["clients"][0], table["id"]
    for i in range(5):
        assert say(c, tid, f"m{i}").status_code == 201
    r = say(c, tid, "one too many")
    assert r.status_code == 429 and r.json()["code"] == "chat_rate_limited"
    assert "5 messages in 10 seconds" in r.json()["detail"]
    assert say(table["clients"][1], tid, "I may").status_code == 201  # the limit is per person


def test_the_host_turns_the_chat_off(table: dict[str, Any]) -> None:
    tid = table["id"]
    guest = table["clients"][1]
    r = guest.post(f"/api/tables/{tid}/chat/settings/", {"enabled": False}, format="json")
    assert r.status_code == 403 and r.json()["code"] == "not_host"
    r = table["clients"][0].post(f"/api/tables/{tid}/chat/settings/", {"enabled": False}, format="json")
    assert r.status_code == 200 and r.json() == {"enabled": False}
    assert Table.objects.get(pk=tid).chat_enabled is False
    r = say(guest, tid, "hello?")
    assert r.status_code == 409 and r.json()["code"] == "chat_off"
    assert guest.get(f"/api/tables/{tid}/chat/").json()["enabled"] is False


def test_a_muted_player_cannot_chat_but_still_plays(table: dict[str, Any], make_user: Any) -> None:
    moderator = make_moderator(make_user)
    player = table["players"][0]
    user_mute(moderator=moderator, user=player, reason="spamming the chat")
    r = say(table["clients"][0], table["id"], "let me talk")
    assert r.status_code == 403 and r.json()["code"] == "muted"
    game: Game = table["game"]
    game.refresh_from_db()
    seat = game.game_seats.get(user=player).seat
    client = table["clients"][0] if game.awaiting_seat == seat else table["clients"][1]
    view = client.get(f"/api/games/{game.pk}/").json()
    command = {k: v for k, v in view["legal"][0].items() if k != "seat"}
    assert send(client, game.pk, command).status_code == 200  # muting stops chat, not play
    user_unmute(moderator=moderator, user=player, reason="served")
    assert say(table["clients"][0], table["id"], "thanks").status_code == 201
    actions = list(AuditEntry.objects.filter(target_id=str(player.pk)).values_list("action", flat=True))
    assert sorted(actions) == ["mute", "unmute"]


def test_report_hide_and_the_audit_log(table: dict[str, Any], make_user: Any) -> None:
    tid = table["id"]
    sent = say(table["clients"][0], tid, HOSTILE).json()
    # A spectator cannot see (so cannot report) the players' channel.
    r = table["watcher_client"].post(f"/api/chat/messages/{sent['id']}/report/", {}, format="json")
    assert r.status_code == 404 and r.json()["code"] == "no_such_message"
    r = table["clients"][0].post(f"/api/chat/messages/{sent['id']}/report/", {}, format="json")
    assert r.status_code == 400 and r.json()["code"] == "bad_target"  # not one's own
    r = table["clients"][1].post(
        f"/api/chat/messages/{sent['id']}/report/", {"reason": "abuse"}, format="json"
    )
    assert r.status_code == 201
    report = Report.objects.get(pk=r.json()["id"])
    assert report.target_user == table["players"][0] and report.chat_message_id == sent["id"]
    assert HOSTILE in report.text  # the message quoted as it was
    moderator = make_moderator(make_user)
    message = ChatMessage.objects.get(pk=sent["id"])
    client = APIClient()
    client.force_authenticate(table["players"][1])
    r = client.post(f"/api/moderation/chat-messages/{message.pk}/hide/", {"reason": "abuse"}, format="json")
    assert r.status_code == 403  # players are not moderators
    mod = APIClient()
    mod.force_authenticate(moderator)
    r = mod.post(f"/api/moderation/chat-messages/{message.pk}/hide/", {"reason": "abusive"}, format="json")
    assert r.status_code == 200
    hide = ChatHide.objects.get(message=message)
    assert hide.hidden_by == moderator and hide.reason == "abusive"
    assert ChatMessage.objects.filter(pk=message.pk).exists()  # kept, for the audit log
    history = table["clients"][1].get(f"/api/tables/{tid}/chat/").json()["messages"]
    assert sent["id"] not in [m["id"] for m in history]
    entry = AuditEntry.objects.get(action="hide_message")
    assert entry.actor == moderator and entry.target_id == str(message.pk) and entry.reason == "abusive"
    with pytest.raises(Exception, match="already hidden"):
        chat_message_hide(moderator=moderator, message=message, reason="again")
    # The report queue in the admin shows the quoted text escaped.
    admin = Client()
    admin.force_login(moderator)
    page = admin.get(f"/admin/moderation/report/{report.pk}/change/").content.decode()
    assert "<script>alert" not in page and "&lt;script&gt;" in page
    assert f"message {message.pk}</a> (hidden)" in page
    listed = admin.get(f"/admin/moderation/moderatedchatmessage/?q={message.pk}").content.decode()
    assert "&lt;script&gt;" in listed and "<script>alert" not in listed
    r = mod.post("/api/moderation/users/nobody/mute/", {"reason": "x"}, format="json")
    assert r.status_code == 404


def test_the_chat_log_is_append_only(table: dict[str, Any]) -> None:
    from django.db import DatabaseError, transaction

    sent = say(table["clients"][0], table["id"], "original").json()
    with pytest.raises(DatabaseError), transaction.atomic():
        ChatMessage.objects.filter(pk=sent["id"]).update(text="rewritten")


def test_sitting_down_moves_a_person_to_the_players_channel(make_user: Any, client_for: Any) -> None:
    host, guest = make_user(), make_user()
    hc, gc = client_for(host), client_for(guest)
    t = hc.post("/api/tables/", {"seats": 2}, format="json").json()
    assert say(gc, t["id"], "may I join?").json()["channel"] == "spectators"
    assert post(gc, f"/api/tables/{t['id']}/join/").status_code == 200
    assert say(gc, t["id"], "joined").json()["channel"] == "players"
