"""Who may open a replay: public, link-only, players-only, hidden, and running games."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from games.models import Game, GameStatus
from replays.models import Watcher
from tests.factories import play_out, start_table
from tests.moderation.conftest import make_moderator

pytestmark = pytest.mark.django_db


def _game(users: list[Any], replay_access: str, finished: bool = True, visibility: str = "public") -> Game:
    """A game of `users` at a table with these settings; `finished`: played to its end."""
    game = start_table(users, rated=False, replay_access=replay_access, visibility=visibility)
    if finished:
        game = play_out(game, random.Random(7))
        assert game.status == GameStatus.FINISHED
    return game


def _as(user: Any | None) -> APIClient:
    c = APIClient()
    if user is not None:
        c.force_authenticate(user)
    return c


def _listed(game: Game, player: str | None = None) -> bool:
    url = "/api/replays/" + (f"?player={player}" if player else "")
    return game.pk in [r["id"] for r in _as(None).get(url).json()["results"]]


def test_public_replay_opens_for_anyone_and_is_listed(two: list[Any]) -> None:
    game = _game(two, "public")
    assert _as(None).get(f"/api/replays/{game.pk}/").status_code == 200
    assert _as(None).get(f"/api/replays/{game.replay_key}/").status_code == 200
    assert _listed(game) and _listed(game, "ann") and not _listed(game, "nobody")
    page = Client().get(f"/replays/{game.pk}/")
    assert page.status_code == 200
    assert b'property="og:title"' in page.content and b'name="description"' in page.content


def test_link_only_replay_opens_by_key_only(two: list[Any], make_user: Callable[..., Any]) -> None:
    game = _game(two, "link")
    stranger = make_user("eve")
    assert _as(stranger).get(f"/api/replays/{game.pk}/").status_code == 404
    assert _as(None).get(f"/api/replays/{game.pk}/frames/").status_code == 404
    assert _as(None).get(f"/api/replays/{game.replay_key}/frames/").status_code == 200
    assert Client().get(f"/replays/{game.replay_key}/").status_code == 200
    assert Client().get(f"/replays/{game.pk}/").status_code == 404
    assert _as(None).get("/api/replays/nOtTheRealKeyButLongEnough/").status_code == 404
    assert not _listed(game)
    # Its players get the key to share.
    assert _as(two[1]).get(f"/api/replays/{game.pk}/").json()["url"] == f"/replays/{game.replay_key}/"


def test_players_only_replay(two: list[Any], make_user: Callable[..., Any]) -> None:
    game = _game(two, "players")
    stranger = make_user("eve")
    for client in (_as(None), _as(stranger)):
        assert client.get(f"/api/replays/{game.pk}/").status_code == 404
        assert client.get(f"/api/replays/{game.replay_key}/").status_code == 404
        assert client.get(f"/api/replays/{game.pk}/export/").status_code == 404
    assert _as(two[1]).get(f"/api/replays/{game.pk}/frames/?perspective=seat:0").status_code == 200
    staff = make_user("staff")
    staff.is_staff = True
    staff.save()
    assert _as(staff).get(f"/api/replays/{game.pk}/").status_code == 404  # staff is not enough
    assert _as(make_moderator(make_user, "mod")).get(f"/api/replays/{game.pk}/").status_code == 200
    assert not _listed(game)


def test_hidden_replay_is_404_but_to_players_and_moderators(
    two: list[Any], make_user: Callable[..., Any]
) -> None:
    game = _game(two, "public")
    Game.objects.filter(pk=game.pk).update(replay_hidden=True)
    assert _as(None).get(f"/api/replays/{game.pk}/").status_code == 404
    assert _as(None).get(f"/api/replays/{game.replay_key}/").status_code == 404
    assert Client().get(f"/replays/{game.pk}/").status_code == 404
    assert not _listed(game)
    assert _as(two[0]).get(f"/api/replays/{game.pk}/").status_code == 200
    assert _as(make_moderator(make_user, "mod")).get(f"/api/replays/{game.pk}/").status_code == 200


def test_a_running_game_is_only_watched_as_a_spectator(two: list[Any], make_user: Callable[..., Any]) -> None:
    game = _game(two, "public", finished=False)
    stranger = _as(make_user("eve"))
    assert stranger.get(f"/api/replays/{game.pk}/frames/?perspective=spectator").status_code == 200
    for p in ("all", "seat:0"):
        r = stranger.get(f"/api/replays/{game.pk}/frames/?perspective={p}")
        assert r.status_code == 400 and r.json()["code"] == "bad_perspective"
    frames = stranger.get(f"/api/replays/{game.pk}/frames/").json()
    assert frames["perspective"] == "spectator"
    assert frames["frames"] and all(f["state"]["hand"] is None for f in frames["frames"])
    assert stranger.get(f"/api/replays/{game.pk}/export/").status_code == 409
    assert not _listed(game)
    page = Client().get(f"/replays/{game.pk}/")
    assert page.status_code == 302 and page["Location"] == f"/watch/{game.pk}/"
    assert Client().get(f"/watch/{game.pk}/").status_code == 200


def test_a_private_tables_running_game_is_not_watched_by_strangers(
    two: list[Any], make_user: Callable[..., Any]
) -> None:
    game = _game(two, "public", finished=False, visibility="private")
    assert _as(make_user("eve")).get(f"/api/replays/{game.pk}/frames/").status_code == 404
    assert Client().get(f"/watch/{game.pk}/").status_code == 404
    assert _as(two[0]).get(f"/api/replays/{game.pk}/frames/").status_code == 200


def test_spectator_count(two: list[Any]) -> None:
    game = _game(two, "public", finished=False)
    c = _as(None)
    url = f"/api/replays/{game.pk}/watchers/"
    assert c.post(url, {"client_id": "watcher-one"}, format="json").json()["count"] == 1
    # People are counted, not client ids: signed out, once per address.
    assert c.post(url, {"client_id": "watcher-two"}, format="json").json()["count"] == 1
    elsewhere = APIClient(REMOTE_ADDR="10.1.2.3")
    assert elsewhere.post(url, {"client_id": "watcher-three"}, format="json").json()["count"] == 2
    # Only the page that beat last ends a person's presence.
    assert c.post(url, {"client_id": "watcher-one", "leaving": True}, format="json").json()["count"] == 2
    assert c.post(url, {"client_id": "watcher-two", "leaving": True}, format="json").json()["count"] == 1
    assert c.post(url, {"client_id": "x"}, format="json").status_code == 400
    assert Watcher.objects.filter(viewer__contains="10.1.2.3").count() == 0  # no address is stored


def test_spectators_unseen_for_a_while_are_not_counted_and_long_gone_ones_are_removed(two: list[Any]) -> None:
    from datetime import timedelta

    from django.utils import timezone

    from replays.services import WATCHER_TTL

    game = _game(two, "public", finished=False)
    now = timezone.now()
    for viewer, ago in (
        ("user:900", timedelta(0)),
        ("user:901", WATCHER_TTL * 2),
        ("user:902", WATCHER_TTL * 5),
    ):
        Watcher.objects.create(game=game, viewer=viewer, client_id="page-of-" + viewer, last_seen=now - ago)
    url = f"/api/replays/{game.pk}/watchers/"
    # This page's person and the one seen just now; the one unseen for two TTLs is not counted.
    assert _as(None).post(url, {"client_id": "watcher-one"}, format="json").json()["count"] == 2
    assert _as(None).post(url, {"client_id": "watcher-one"}, format="json").json()["count"] == 2
    kept = set(Watcher.objects.filter(game=game).values_list("viewer", flat=True))
    assert "user:901" in kept and "user:902" not in kept and len(kept) == 3
    assert Game.objects.get(pk=game.pk).watched_until > now  # its pushes carry replay frames


def test_pages_and_schema(two: list[Any]) -> None:
    game = _game(two, "public")
    assert Client().get("/replays/").status_code == 200
    assert Client().get("/replays/import/").status_code == 200
    page = Client().get(f"/replays/{game.pk}/?step=1&perspective=seat:1")
    assert page.status_code == 200 and b"Step 1, turn" in page.content
    schema = _as(None).get("/api/schema/").content.decode()
    for path in (
        "/api/replays/",
        "/api/replays/{ref}/frames/",
        "/api/replays/{ref}/export/",
        "/api/replays/import/",
    ):
        assert path in schema


def test_the_hidden_replay_rule_of_docs_moderation(two: list[Any], make_user: Callable[..., Any]) -> None:
    """docs/MODERATION.md, "Hidden replays": its players and moderators keep it; it is gone for
    everyone else, key or invite in hand, in every place they could come across it."""
    from moderation.services import replay_hide, replay_unhide

    moderator = make_moderator(make_user, "mod")
    game = _game(two, "link", visibility="private")
    replay_hide(moderator=moderator, game=game, reason="an offensive table name")
    game = Game.objects.get(pk=game.pk)
    key, invite = game.replay_key, game.table.invite_code
    places = [
        f"/replays/{game.pk}/",
        f"/replays/{key}/",
        f"/api/replays/{game.pk}/",
        f"/api/replays/{key}/frames/",
        f"/api/replays/{key}/export/",
        f"/games/{game.pk}/?invite={invite}",
        f"/api/games/{game.pk}/?invite={invite}",
    ]
    player, stranger, mod = Client(), Client(), Client()
    player.force_login(two[1])
    stranger.force_login(make_user("eve"))
    mod.force_login(moderator)
    for url in places:
        assert player.get(url).status_code == 200, url
        assert mod.get(url).status_code == 200, url
        assert stranger.get(url).status_code == 404, url
        assert Client().get(url).status_code == 404, url
    assert player.get(f"/api/replays/{game.pk}/frames/?perspective=all").status_code == 200
    # Not listed where others could come across it; its players' own profiles still list it.
    assert not _listed(game) and not _listed(game, "bob")
    mine = _as(two[1]).get("/api/accounts/me/").json()
    assert game.pk in [g["id"] for g in mine["games"]]
    theirs = _as(make_user("zed")).get("/api/accounts/users/bob/").json()
    assert game.pk not in [g["id"] for g in theirs["games"]]
    listed = _as(make_user("ivy")).get(f"/api/tables/{game.table_id}/games/?invite={invite}").json()
    assert game.pk not in [g["id"] for g in listed]
    # Unhidden, it is the table's replay setting's again: the key opens it, the id alone does not.
    replay_unhide(moderator=moderator, game=game, reason="the name was changed")
    assert Client().get(f"/replays/{key}/").status_code == 200
    assert Client().get(f"/replays/{game.pk}/").status_code == 404


def test_a_hidden_running_game_is_watched_by_moderators_only(
    two: list[Any], make_user: Callable[..., Any]
) -> None:
    from moderation.services import replay_hide

    moderator = make_moderator(make_user, "mod")
    game = _game(two, "public", finished=False)
    replay_hide(moderator=moderator, game=game, reason="abuse in the table name")
    signed_in = {}
    for name, user in (("stranger", make_user()), ("moderator", moderator), ("player", two[0])):
        signed_in[name] = Client()
        signed_in[name].force_login(user)
    for url in (f"/watch/{game.pk}/", f"/games/{game.pk}/", f"/api/replays/{game.pk}/frames/"):
        assert Client().get(url).status_code == 404, url
        assert signed_in["stranger"].get(url).status_code == 404, url
        assert signed_in["moderator"].get(url).status_code == 200, url
        assert signed_in["player"].get(url).status_code == 200, url
