"""Shared links: the tags a chat app's unfurler reads (no JavaScript), the pictures they point at,
what those pictures may show, who may fetch them, how they are cached and throttled."""

from __future__ import annotations

import random
import re
import struct
from collections.abc import Callable
from html.parser import HTMLParser
from typing import Any
from urllib.parse import urlsplit

import pytest
from django.contrib.auth.models import AnonymousUser
from django.test import Client
from rest_framework.throttling import SimpleRateThrottle

from games.eventlog import load_state
from games.frames import build_frames
from games.models import GameStatus
from harehra import view_for
from replays.access import open_replay
from replays.images import replay_picture_svg
from replays.preview import preview_svg
from replays.selectors import game_events, seat_names
from tests.factories import finished_game, play_out, start_table
from tests.replays.conftest import Closed

pytestmark = pytest.mark.django_db


class _Tags(HTMLParser):
    """What an unfurler reads: <meta property|name=... content=...> and <link rel=canonical>."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: dict[str, str] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "meta" and (a.get("property") or a.get("name")):
            self.tags.setdefault(a.get("property") or a.get("name") or "", a.get("content") or "")
        if tag == "link" and a.get("rel") == "canonical":
            self.tags["canonical"] = a.get("href") or ""


def tags_of(client: Client, url: str, **headers: Any) -> dict[str, str]:
    page = client.get(url, **headers)
    assert page.status_code == 200, (url, page.status_code)
    parser = _Tags()
    parser.feed(page.content.decode())
    return parser.tags


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def fetch_image(client: Client, absolute: str, **headers: Any) -> Any:
    parts = urlsplit(absolute)
    assert parts.scheme == "http" and parts.netloc == "testserver"
    r = client.get(f"{parts.path}?{parts.query}", **headers)
    return r


def assert_card(tags: dict[str, str], client: Client) -> bytes:
    for key in (
        "og:title",
        "og:description",
        "og:url",
        "og:image",
        "twitter:title",
        "description",
        "canonical",
    ):
        assert tags.get(key), key
    assert tags["twitter:card"] == "summary_large_image"
    assert tags["og:image:width"] == "1200" and tags["og:image:height"] == "630"
    assert tags["og:url"] == tags["canonical"] and tags["canonical"].startswith("http://testserver/")
    r = fetch_image(client, tags["og:image"])
    assert r.status_code == 200 and r["Content-Type"] == "image/png"
    data = b"".join(r.streaming_content) if r.streaming else r.content
    assert png_size(data) == (1200, 630)
    assert 5_000 < len(data) < 150_000, len(data)
    return data


def test_replay_page_tags_name_the_step_and_its_picture(two: list[Any]) -> None:
    game = finished_game(two, seed=7, rated=False, replay_access="public")
    client = Client()
    tags = tags_of(client, f"/replays/{game.pk}/?step=5&perspective=seat:1")
    spectator = build_frames(game_events(game), seat_names(game), None, 5, 5)[0]
    assert spectator["text"] in tags["og:description"] and "Step 5" in tags["og:description"]
    assert tags["canonical"] == f"http://testserver/replays/{game.pk}/?step=5&perspective=seat%3A1"
    assert "won a 2-player game at turn" in tags["og:title"]
    image = urlsplit(tags["og:image"])
    assert image.path == f"/replays/{game.pk}/image.png"
    assert "step=5" in image.query and "perspective=seat%3A1" in image.query and "lang=en" in image.query
    assert_card(tags, client)


def test_pages_speak_the_readers_language(two: list[Any]) -> None:
    game = finished_game(two, seed=7, rated=False, replay_access="public")
    client = Client()
    client.cookies["django_language"] = "cs"
    tags = tags_of(client, f"/replays/{game.pk}/?step=1")
    assert tags["og:locale"] == "cs_CZ" and "lang=cs" in tags["og:image"]
    assert "Krok 1" in tags["og:description"], tags["og:description"]
    assert_card(tags, client)


def test_watch_profile_leaderboard_and_table_pages_carry_cards(two: list[Any]) -> None:
    game = start_table(two, rated=False, replay_access="public")
    client = Client()
    watch = tags_of(client, f"/watch/{game.pk}/")
    state = load_state(game)
    assert f"turn {state.turn_number}" in watch["og:description"]
    assert urlsplit(watch["og:image"]).path == f"/watch/{game.pk}/image.png"
    assert_card(watch, client)
    profile = tags_of(client, "/players/ann/")
    assert (
        "ann" in profile["og:title"] and urlsplit(profile["og:image"]).path == f"/watch/{game.pk}/image.png"
    )
    assert_card(profile, client)
    board = tags_of(client, "/leaderboard/")
    assert urlsplit(board["og:image"]).path == "/static/img/share.png"
    assert board["canonical"] == "http://testserver/leaderboard/"
    table = tags_of(client, f"/tables/{game.table_id}/?invite={game.table.invite_code}")
    assert "ann invites you" in table["og:description"]
    assert table["canonical"].endswith(f"/tables/{game.table_id}/?invite={game.table.invite_code}")
    assert urlsplit(table["og:image"]).path == f"/watch/{game.pk}/image.png"
    assert_card(table, client)


def test_a_stranger_picture_of_a_running_game_draws_no_hand(
    two: list[Any], make_user: Callable[..., Any]
) -> None:
    game = start_table(two, rated=False, replay_access="public")
    game = play_out(game, random.Random(3), moves=6)
    assert game.status == GameStatus.RUNNING, game.status
    stranger = make_user("eve")
    grant = open_replay(str(game.pk), stranger)
    assert grant.live
    # The page's perspective parameter cannot ask for more: a running game is a spectator's only.
    for perspective in ("spectator",):
        svg = replay_picture_svg(grant, 10_000, perspective)
        assert 'class="hand-card"' not in svg
        hands = load_state(game).hands
        used = set(re.findall(r'<symbol id="card-(\w+)"', svg))
        top = view_for(load_state(game), None)["discard_top"]
        assert used <= {"back", top}, (used, hands)
    # The builder draws only what its frame holds: a seat's own view shows that hand, no other.
    events = game_events(game)
    names = seat_names(game)
    frame = build_frames(events, names, 0, len(events) - 1)[-1]
    svg = preview_svg(frame, names)
    own = re.findall(r'<g class="seat" data-seat="(\d)".*?</g>', svg)
    assert own and svg.count('class="hand-card"') == min(8, len(load_state(game).hands[0]))
    seat_1 = svg[svg.index('data-seat="1"') : svg.index('data-seat="0"')]
    assert "hand-card" not in seat_1


def test_a_finished_replay_shows_hands_as_the_replay_does(two: list[Any]) -> None:
    game = finished_game(two, seed=7, rated=False, replay_access="public")
    grant = open_replay(str(game.pk), AnonymousUser())
    svg = replay_picture_svg(grant, 3, "all")
    assert svg.count('class="hand-card"') > 0
    assert 'class="hand-card"' not in replay_picture_svg(grant, 3, "spectator")


def test_the_served_picture_is_the_markups_drawing(two: list[Any]) -> None:
    """The PNG is composed with Pillow from pieces; the SVG (what the tests above read) rendered
    whole by resvg must look the same: a few levels apart on average, and nearly no pixel far off."""
    import io

    from PIL import Image, ImageChops, ImageStat

    from replays.preview import preview_png, render_png

    game = finished_game(two, seed=7, rated=False, replay_access="public")
    events, names = game_events(game), seat_names(game)
    for perspective, step in (("all", 3), (None, len(events) // 2), ("all", len(events) - 1)):
        frame = build_frames(events, names, perspective, step, step)[0]
        served = Image.open(io.BytesIO(preview_png(frame, names))).convert("RGB")
        whole = Image.open(io.BytesIO(render_png(preview_svg(frame, names)))).convert("RGB")
        assert served.size == whole.size == (1200, 630)
        difference = ImageChops.difference(served, whole)
        assert max(ImageStat.Stat(difference).mean) < 3, ImageStat.Stat(difference).mean
        far = difference.convert("L").point(lambda v: 255 if v > 60 else 0).histogram()[255]
        assert far < 0.004 * 1200 * 630, far  # the words alone are 1 %


def test_hidden_replays_and_private_games_give_no_picture(closed: Closed) -> None:
    stranger, player = closed.stranger, closed.player
    hidden, private, players_only = closed.hidden, closed.private, closed.players_only
    for url in (
        f"/replays/{hidden.pk}/image.png",
        f"/replays/{hidden.replay_key}/image.png",
        f"/watch/{private.pk}/image.png",
        f"/replays/{private.pk}/image.png",
        f"/replays/{players_only.pk}/image.png?perspective=all",
        "/replays/999999/image.png",
    ):
        for client in (stranger, Client()):
            r = client.get(url)
            assert r.status_code == 404 and r["Content-Type"].startswith("text/html"), url
        assert player.get(url).status_code == (404 if "999999" in url else 200), url
    # The page answers the same.
    assert stranger.get(f"/watch/{private.pk}/").status_code == 404


def test_cache_headers(two: list[Any]) -> None:
    game = finished_game(two, seed=7, rated=False, replay_access="public")
    client = Client()
    r = client.get(f"/replays/{game.pk}/image.png?step=4&lang=en")
    assert r.status_code == 200
    # Shared caches may keep it, so not past a moderator's hiding it (docs/MODERATION.md).
    assert r["Cache-Control"] == "public, max-age=300"
    etag = r["ETag"]
    again = client.get(f"/replays/{game.pk}/image.png?step=4&lang=en", HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304 and again["ETag"] == etag and not again.content
    other = client.get(f"/replays/{game.pk}/image.png?step=5&lang=en")
    assert other["ETag"] != etag
    assert client.get(f"/replays/{game.pk}/image.png?step=4&lang=cs")["ETag"] != etag
    # A players-only replay's picture is for its players: private caches only.
    mine = Client()
    mine.force_login(two[0])
    closed = finished_game(two, seed=7, rated=False, replay_access="players")
    kept = mine.get(f"/replays/{closed.pk}/image.png")["Cache-Control"]
    assert kept == "private, max-age=31536000, immutable"
    running = start_table(two, rated=False, replay_access="public")
    live = client.get(f"/watch/{running.pk}/image.png")
    assert live["Cache-Control"] == "public, max-age=10"
    first = live["ETag"]
    play_out(running, random.Random(1), moves=1)
    assert client.get(f"/watch/{running.pk}/image.png")["ETag"] != first


def test_a_hidden_public_replays_pictures_leave_shared_caches_within_minutes(
    two: list[Any], make_user: Callable[..., Any]
) -> None:
    """docs/MODERATION.md, "Hidden replays": a shared cache holds a public replay's picture five
    minutes at most, then asks again by its ETag, and is told 404 once a moderator hid it."""
    from moderation.services import replay_hide
    from tests.moderation.conftest import make_moderator

    game = finished_game(two, seed=7, rated=False, replay_access="public")
    cache = Client()  # what a shared cache in front of the site asks
    urls = [
        f"/replays/{game.pk}/image.png?step=4&lang=en",
        f"/replays/{game.pk}/clip.gif?from=1&to=3&lang=en",
    ]
    etags = {}
    for url in urls:
        first = cache.get(url)
        control = [part.strip() for part in first["Cache-Control"].split(",")]
        assert "public" in control and "immutable" not in control, url
        ages = [int(part.split("=")[1]) for part in control if part.startswith(("max-age=", "s-maxage="))]
        assert ages and max(ages) <= 300, url
        etags[url] = first["ETag"]
        assert cache.get(url, HTTP_IF_NONE_MATCH=etags[url]).status_code == 304
    replay_hide(moderator=make_moderator(make_user, "mod"), game=game, reason="an offensive table name")
    for url in urls:  # the cache's copy is stale: it asks again, and is not told to keep it
        assert cache.get(url, HTTP_IF_NONE_MATCH=etags[url]).status_code == 404, url


def test_pictures_are_throttled_per_address(two: list[Any], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(
        SimpleRateThrottle, "THROTTLE_RATES", {**SimpleRateThrottle.THROTTLE_RATES, "preview": "3/min"}
    )
    game = start_table(two, rated=False, replay_access="public")
    here, there = Client(REMOTE_ADDR="10.0.0.1"), Client(REMOTE_ADDR="10.0.0.2")
    codes = [here.get(f"/watch/{game.pk}/image.png").status_code for _ in range(4)]
    assert codes == [200, 200, 200, 429]
    refused = here.get(f"/watch/{game.pk}/image.png")
    assert refused.json()["code"] == "throttled" and int(refused["Retry-After"]) >= 1
    assert there.get(f"/watch/{game.pk}/image.png").status_code == 200


def test_the_pictures_words_have_their_font() -> None:
    from replays.preview import _fonts

    files, sans, _serif = _fonts()
    assert sans == "DejaVu Sans" and files, "scripts/test installs fonts-dejavu-core"


SUMMARY = {
    "en": re.compile(
        r"(?P<winner>.+?) won against (?P<beaten>.+?)\. Step through all \d+ events of the game\.$"
    ),
    "cs": re.compile(
        r"(?P<winner>.+?) vyhrál\(a\) proti: (?P<beaten>.+?)\. Projděte všech \d+ událostí hry\.$"
    ),
}
STEP = {"en": re.compile(r"^Step \d+, turn \d+: [^.]+\. "), "cs": re.compile(r"^Krok \d+, tah \d+: [^.]+\. ")}


@pytest.mark.parametrize("language", ["en", "cs"])
def test_a_finished_games_preview_names_the_winner_and_those_it_beat_in_single_sentences(
    make_user: Callable[..., Any], language: str
) -> None:
    """Four seats, two of them bots: the winner is named once, as the winner, and every other
    seat as beaten; each sentence ends with one full stop; the picture's alt says the same."""
    from django.utils import translation

    from games.selectors import seat_labels

    game = finished_game(
        [make_user("alice"), make_user("bob")], bots=2, seed=3, rated=False, replay_access="public"
    )
    with translation.override(language):
        names = [s["name"] for s in seat_labels(game)]
    winner = names[game.winner_seat]
    beaten = sorted(n for i, n in enumerate(names) if i != game.winner_seat)
    client = Client()
    client.cookies["django_language"] = language
    # Step 1's sentence is a turn's start ("bob's turn."), which ends with its own full stop.
    for url in (f"/replays/{game.pk}/", f"/replays/{game.pk}/?step=1", f"/watch/{game.pk}/"):
        tags = tags_of(client, url)
        said = tags["og:description"]
        assert said == tags["twitter:description"] == tags["og:image:alt"] == tags["twitter:image:alt"]
        assert said == tags["description"]
        assert ".." not in said and ". ." not in said, said
        if "step=" in url:
            assert STEP[language].match(said), said
            said = STEP[language].sub("", said)
        found = SUMMARY[language].fullmatch(said)
        assert found, said
        assert found["winner"] == winner, said
        assert sorted(found["beaten"].split(", ")) == beaten, said
        assert not ({"easy", "normal", "hard"} & set(said.split()) if language == "cs" else False), said

    # A running game's preview says whose turn it is, then one full stop.
    running = start_table([make_user("carol"), make_user("dave")], 2, rated=False, replay_access="public")
    said = tags_of(client, f"/watch/{running.pk}/")["og:description"]
    live = {
        "en": r"Live, turn 1: \S+'s turn\. Watch the game as it is played\.",
        "cs": r"Živě, 1\. tah: .+\. Sledujte",
    }
    assert re.match(live[language], said) and ".." not in said, said


@pytest.mark.parametrize("language", ["en", "cs"])
def test_the_pictures_discard_pile_words_are_whole_and_fit(two: list[Any], language: str) -> None:
    """Whatever card is on top, in either language, the discard pile's words are drawn whole (on
    two lines if need be), each line narrower than the room it has; nothing is cut."""
    import html
    from pathlib import Path

    from django.utils import translation

    from games.card_text import card_name
    from replays.preview import CARD_IDS, DISCARD_LABEL_W, _font, preview_png

    game = finished_game(two, seed=7, rated=False, replay_access="public")
    events, names = game_events(game), seat_names(game)
    frame = build_frames(events, names, None, 3, 3)[0]
    out = Path("test-output")
    out.mkdir(exist_ok=True)
    with translation.override(language):
        for card in [c for c in CARD_IDS if c != "back"]:
            shown = {**frame, "state": {**frame["state"], "discard_top": card}}
            texts = [
                html.unescape(t) for t in re.findall(r"<text[^>]*>([^<]*)</text>", preview_svg(shown, names))
            ]
            label = translation.gettext("Discard pile: %(card)s on top") % {"card": card_name(card)}
            head = label.split(": ")[0]
            at = next(i for i, t in enumerate(texts) if t.startswith(head))
            lines = [texts[at]] if texts[at] == label else texts[at : at + 2]
            assert " ".join(lines) == label, (lines, label)
            assert all(_font(15, True).getlength(line) <= DISCARD_LABEL_W for line in lines), lines
            assert not any("…" in t for t in texts), texts
        shown = {**frame, "state": {**frame["state"], "discard_top": "taptap"}}
        (out / f"preview-discard-{language}.png").write_bytes(preview_png(shown, names))
