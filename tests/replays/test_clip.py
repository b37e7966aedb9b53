"""Animated clips of a replay (/replays/<ref>/clip.gif?from=&to=): what they show, their bounds,
who may fetch them, how they are cached and throttled."""

from __future__ import annotations

import io
import json
import re
from typing import Any

import pytest
from django.test import Client
from PIL import Image, ImageChops
from rest_framework.throttling import SimpleRateThrottle

from games.frames import build_frames
from replays import views
from replays.images import CLIP_MAX_STEPS
from replays.preview import LAST_STEP_MS, STEP_MS, preview_png
from replays.selectors import game_events, seat_names
from tests.factories import finished_game
from tests.replays.conftest import Closed

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _unthrottled(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test client shares one address: the throttle is lifted but where it is tested."""
    monkeypatch.setattr(
        SimpleRateThrottle,
        "THROTTLE_RATES",
        {**SimpleRateThrottle.THROTTLE_RATES, "preview": None, "clip": None},
    )


def test_a_clip_is_one_picture_per_step_timed_like_the_replay(two: list[Any]) -> None:
    game = finished_game(two, seed=7, rated=False, replay_access="public")
    r = Client().get(f"/replays/{game.pk}/clip.gif?from=4&to=11&perspective=spectator&lang=en")
    assert r.status_code == 200 and r["Content-Type"] == "image/gif"
    assert r.content[:6] == b"GIF89a"
    assert len(r.content) < 1_000_000
    gif = Image.open(io.BytesIO(r.content))
    assert gif.size == (1200, 630) and gif.n_frames == 8 and gif.info["loop"] == 0
    events, names = game_events(game), seat_names(game)
    durations = []
    for i, frame in enumerate(build_frames(events, names, None, 4, 11)):
        gif.seek(i)
        durations.append(gif.info["duration"])
        # Each picture is that step's, as the preview image draws it (within the palette's error).
        shown = gif.convert("RGB")
        drawn = Image.open(io.BytesIO(preview_png(frame, names))).convert("RGB")
        assert ImageChops.difference(shown, drawn).getbbox() is None, i
    assert durations == [STEP_MS] * 7 + [LAST_STEP_MS]


def test_clips_are_bounded_and_bad_ranges_are_refused(two: list[Any]) -> None:
    game = finished_game(two, seed=7, rated=False, replay_access="public")
    client = Client()
    url = f"/replays/{game.pk}/clip.gif"
    too_long = client.get(f"{url}?from=0&to={CLIP_MAX_STEPS}")
    assert too_long.status_code == 400 and too_long.json()["code"] == "too_long"
    for query in ("from=x", "from=5&to=2", "to=-1"):
        bad = client.get(f"{url}?{query}")
        assert bad.status_code == 400 and bad.json()["code"] == "bad_step", query
    # Past the end: to the end; no range: the first steps.
    last = game.last_seq - 1
    tail = Image.open(io.BytesIO(client.get(f"{url}?from={last - 2}&to=100000").content))
    assert tail.n_frames == 3
    assert Image.open(io.BytesIO(client.get(url).content)).n_frames == min(20, last + 1)


def test_hidden_replays_and_private_games_give_no_clip(closed: Closed) -> None:
    stranger, player = closed.stranger, closed.player
    hidden, private, players_only = closed.hidden, closed.private, closed.players_only
    for ref in (hidden.pk, hidden.replay_key, private.pk, players_only.pk, "999999"):
        url = f"/replays/{ref}/clip.gif?from=0&to=2"
        for client in (stranger, Client()):
            assert client.get(url).status_code == 404, url
        assert player.get(url).status_code == (404 if ref == "999999" else 200), url


def test_clip_cache_and_throttle(two: list[Any], monkeypatch: pytest.MonkeyPatch) -> None:
    game = finished_game(two, seed=7, rated=False, replay_access="public")
    client = Client()
    url = f"/replays/{game.pk}/clip.gif?from=1&to=3&lang=en"
    first = client.get(url)
    assert first["Cache-Control"] == "public, max-age=300"
    again = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304 and not again.content
    assert client.get(f"/replays/{game.pk}/clip.gif?from=1&to=4&lang=en")["ETag"] != first["ETag"]
    monkeypatch.setattr(
        SimpleRateThrottle,
        "THROTTLE_RATES",
        {**SimpleRateThrottle.THROTTLE_RATES, "clip": "2/min", "preview": None},
    )
    here = Client(REMOTE_ADDR="10.0.0.9")
    codes = [here.get(url).status_code for _ in range(3)]
    assert codes == [200, 200, 429]
    assert here.get(url).json()["code"] == "throttled"
    assert here.get(f"/replays/{game.pk}/image.png").status_code == 200  # pictures count apart


def test_the_replay_page_offers_clips_as_long_as_the_server_draws(
    two: list[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The clip's bound has one owner, replays/images.py: the page's script keeps the span within
    the boot's `clip_max_steps` and its note says it, in English and Czech."""
    game = finished_game(two, seed=7, rated=False, replay_access="public")

    def page(lang: str) -> tuple[dict[str, Any], str]:
        html = Client(HTTP_ACCEPT_LANGUAGE=lang).get(f"/replays/{game.pk}/").content.decode()
        boot = re.search(r'<script id="replay-boot" type="application/json">(.*?)</script>', html)
        note = re.search(r'<span class="replay-note">(.*?)</span>', html)
        assert boot is not None and note is not None
        return json.loads(boot[1]), note[1]

    boot, note = page("en")
    assert boot["clip_max_steps"] == CLIP_MAX_STEPS == 60
    assert note == "(an animated picture of up to 60 steps)"
    assert page("cs")[1] == "(animovaný obrázek nejvýš 60 kroků)"
    monkeypatch.setattr(views, "CLIP_MAX_STEPS", 30)
    boot, note = page("en")
    assert boot["clip_max_steps"] == 30 and note == "(an animated picture of up to 30 steps)"
    assert page("cs")[1] == "(animovaný obrázek nejvýš 30 kroků)"
