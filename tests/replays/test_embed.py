"""The replay's embed (/embed/replays/<ref>/): the viewer without the site's chrome, which other
sites may frame (its own CSP frame-ancestors, no X-Frame-Options) while every other page still
refuses framing; the replay page's access rule, and the share menu's embed code."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tests.factories import finished_game, start_table
from tests.replays.conftest import Closed

pytestmark = pytest.mark.django_db


def _directives(csp: str) -> dict[str, str]:
    return {d.strip().split(" ", 1)[0]: d.strip().partition(" ")[2] for d in csp.split(";") if d.strip()}


def test_the_embed_may_be_framed_and_nothing_else(two: list[Any]) -> None:
    game = finished_game(two, seed=7, rated=False, replay_access="public")
    client = Client()
    embed = client.get(f"/embed/replays/{game.pk}/?step=3")
    assert embed.status_code == 200
    assert "X-Frame-Options" not in embed
    policy = _directives(embed["Content-Security-Policy"])
    assert policy["frame-ancestors"] == "*"
    # The rest of the policy is the site's: own scripts and styles only.
    assert policy["script-src"] == "'self'" and policy["style-src"] == "'self'"
    for path in (f"/replays/{game.pk}/", f"/replays/{game.pk}/?step=3", "/", "/lobby/", "/replays/"):
        page = client.get(path)
        assert page.status_code == 200, path
        assert page["X-Frame-Options"] == "DENY", path
        assert _directives(page["Content-Security-Policy"])["frame-ancestors"] == "'none'", path


def test_the_embed_is_the_viewer_without_the_sites_chrome(two: list[Any]) -> None:
    game = finished_game(two, seed=7, rated=False, replay_access="public")
    html = Client().get(f"/embed/replays/{game.pk}/?step=3&perspective=seat:1").content.decode()
    assert 'id="replay"' in html and 'id="replay-boot"' in html and "js/pages/replay.js" in html
    assert "site-header" not in html and "site-footer" not in html and 'aria-label="Main"' not in html
    # The link back opens the full replay at the same step, outside the frame.
    assert f'href="http://testserver/replays/{game.pk}/?step=3&amp;perspective=seat%3A1"' in html
    assert 'target="_blank" rel="noopener"' in html
    assert '"step": 3' in html and '"perspective": "seat:1"' in html


def test_the_embed_by_key_and_a_running_games_embed(two: list[Any]) -> None:
    linked = finished_game(two, seed=7, rated=False, replay_access="link")
    client = Client()
    assert client.get(f"/embed/replays/{linked.pk}/").status_code == 404
    by_key = client.get(f"/embed/replays/{linked.replay_key}/")
    assert by_key.status_code == 200 and by_key["Content-Security-Policy"].count("frame-ancestors *") == 1
    assert f"/replays/{linked.replay_key}/" in by_key.content.decode()
    running = start_table(two, rated=False, replay_access="public")
    live = client.get(f"/embed/replays/{running.pk}/")
    assert live.status_code == 200 and f"/watch/{running.pk}/" in live.content.decode()
    assert "X-Frame-Options" not in live and "frame-ancestors *" in live["Content-Security-Policy"]


def test_hidden_replays_and_private_games_embed_nothing(closed: Closed) -> None:
    stranger, player = closed.stranger, closed.player
    hidden, private, players_only = closed.hidden, closed.private, closed.players_only
    for ref in (hidden.pk, hidden.replay_key, private.pk, players_only.pk, players_only.replay_key):
        for client in (stranger, Client()):
            assert client.get(f"/embed/replays/{ref}/").status_code == 404, ref
            assert client.get(f"/replays/{ref}/").status_code == 404, ref  # the page answers the same
        assert player.get(f"/embed/replays/{ref}/").status_code == 200, ref
    assert Client().get("/embed/replays/999999/").status_code == 404


def test_the_share_menu_offers_the_embed(two: list[Any]) -> None:
    game = finished_game(two, seed=7, rated=False, replay_access="public")
    html = Client().get(f"/replays/{game.pk}/?step=2").content.decode()
    assert 'id="replay-embed-code"' in html and 'id="replay-embed-copy"' in html
    assert f'href="http://testserver/embed/replays/{game.pk}/"' in html
    assert f'"embed_path": "/embed/replays/{game.pk}/"' in html
