"""Four people and bots play a short arena to its podium in Chromium, two on desktops and two on
phones (one of them in Czech), against the site's real server and its worker's beat.

Staff create the arena through the REST API; each person finds it through the navigation and
enters by the event page's button; then the test only plays: each page is taken to its table by
the event page, its person's decisions are made through the game page (tests/browser/ui.py's
Player), the end screen takes it back to the event page, which takes it on to the next table the
beat seats, until the arena's time is up and the podium shows on all four pages. The pages'
standings are then those `rebuild_tournament` folds from the games' logs.

The arena's time is up early: once a person's page has been taken to a second table (what the
test looks for in an arena's middle), its start moves back so that its end is now, as its start
was moved to now when everyone was in. Its games still going are played to their end, the beat
finishes it and the podium shows; the test's real time is then that of a few games, not of the
arena's minutes."""

from __future__ import annotations

import contextlib
import re
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import timedelta
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.utils import timezone
from playwright.sync_api import Error as PlaywrightError

from accounts.services import user_register, user_token
from games.models import Game
from tests.browser.ui import PASSWORD, Player, api, english_left, go_by_header, read, sign_in, wait_still
from tournaments.models import Entry, EventSeat, Result, Tournament
from tournaments.scoring import Line, standings
from tournaments.services import tournament_refold

pytestmark = [pytest.mark.browser, pytest.mark.long]
# Quick bots; a person whose socket drops for a moment (a loaded machine) keeps their seat; the
# beat's sweeps (starting, seating again, finishing the arena) every second, not every 5 s.
SITE_ENV = {"BOT_DELAY_SECONDS": "0.2", "AWAY_GRACE_SECONDS": "30", "BEAT_EVERY_SECONDS": "1"}
PEOPLE = [
    # name, viewport, phone, Czech
    ("alena", {"width": 1280, "height": 800}, False, False),
    ("borek", {"width": 1280, "height": 800}, False, False),
    ("cecilie", {"width": 390, "height": 844}, True, False),
    ("dusan", {"width": 360, "height": 740}, True, True),
]
ARENA_MINUTES = 3  # its end comes sooner: once someone is seated again (see above)
RESEAT_S = 15  # a finished game's people are seated again within this (the beat's 5 s sweeps)
# The arena's three minutes (when nobody is seated again before), the games still going at its
# end, and a loaded machine.
PLAY_LIMIT_S = ARENA_MINUTES * 60 + 240
GAME = re.compile(r"/games/(\d+)/$")


@pytest.fixture(autouse=True)
def _orm_beside_playwright(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@dataclass
class Person:
    name: str
    page: Any
    phone: bool
    czech: bool
    player: Player
    visited: list[str] = field(default_factory=list)
    games: list[int] = field(default_factory=list)  # the games its page was taken to, in order
    decided: Counter[int] = field(default_factory=Counter)  # decisions made on the page, per game
    podium: bool = False
    header: str = ""  # the game page's way back to the event, as the header words it
    english: list[str] = field(default_factory=list)  # English left on a Czech game page

    @property
    def label(self) -> str:
        return ("phone" if self.phone else "desktop") + ("-czech" if self.czech else "")

    def step(self, shots: dict[str, Path]) -> bool:
        """What the person does now on whatever page they are on; True if they made a decision.
        On a game page: their decision, if one is theirs (the end screen takes them back by
        itself). On the event page: nothing but look for the podium (the page takes them on)."""
        url = self.page.url
        try:
            game = GAME.search(url)
            if game is not None:
                number = int(game[1])
                if not self.games or self.games[-1] != number:
                    self.games.append(number)
                ui = read(self.page)
                if ui["loading"] or ui["over"] or not ui["kind"]:
                    return False
                shot = shots.pop(self.label, None)  # the table during play, once per kind of page
                if shot is not None:
                    self.page.screenshot(path=str(shot), animations="disabled")
                    self.header = self.page.locator("#nav-event").inner_text()
                    if self.czech:
                        self.english = english_left(self.page.inner_text("body"))
                before = self.player.moves
                self.player.act()
                self.decided[number] += self.player.moves - before
                return self.player.moves > before
            if "/tournaments/" in url:
                self.podium = self.page.evaluate(
                    "() => !document.getElementById('podium').hidden"
                    " && document.getElementById('tournament-state').dataset.status === 'finished'"
                )
        except PlaywrightError:
            pass  # the page was going to another one (taken to a table, back to the event)
        return False


# What a page shows that a person acts on, or waits for: where it is, the game's last event and
# decision, the event's state. `playing`: a game in play, which bots or timers move on by themselves.
SHOWN = """() => {
  const game = document.getElementById('game');
  const prompt = document.getElementById('prompt');
  const end = document.getElementById('end');
  const podium = document.getElementById('podium');
  const event = document.getElementById('tournament-state');
  const shown = [location.href, game?.dataset.seq, game?.dataset.loading,
    prompt?.hidden ? '' : prompt?.dataset.kind, end?.hidden, podium?.hidden, event?.dataset.status];
  return { shown: JSON.stringify(shown), playing: !!game && game.dataset.loading === '' && !!end?.hidden };
}"""
NEWS = f"(before) => ({SHOWN})().shown !== before"


def _wait_for_news(people: list[Person], timeout: float = 5) -> None:
    """Wait until a page shows something new: a move, a decision, the end, another page, the
    podium. The page watched is one at a game in play if there is one (its bots move within
    moments), else the first (the end screen takes it back, the event page to a table, or the
    podium shows); after `timeout` seconds without news the test reads every page again."""
    try:
        shown = [p.page.evaluate(SHOWN) for p in people]
    except PlaywrightError:
        return  # a page was going to another one: that is news
    watched = next((i for i, s in enumerate(shown) if s["playing"]), 0)
    with contextlib.suppress(PlaywrightError):  # no news in time, or the page left meanwhile
        people[watched].page.wait_for_function(NEWS, arg=shown[watched]["shown"], timeout=timeout * 1000)


def _standings_on(page: Any) -> list[tuple[str, str, str, str, str]]:
    """(rank, player, points, games, wins) of each row of the page's standings."""
    rows = page.locator("#standings tbody tr")
    out = []
    for i in range(rows.count()):
        cells = rows.nth(i).locator("td").all_inner_texts()
        name = rows.nth(i).get_attribute("data-player")
        out.append((cells[0], name, cells[2], cells[3], cells[4]))
    return out


def _rebuilt(t: Tournament) -> list[tuple[str, str, str, str, str]]:
    """The standings as `rebuild_tournament` folds them from the games' logs."""
    refold = tournament_refold(t)
    entries = {e.pk: e for e in Entry.objects.filter(tournament=t).select_related("user")}
    lines = [Line(pk, tally.score, tally.wins, tally.games, []) for pk, tally in refold.tallies.items()]
    return [
        (str(s.rank), entries[s.entry].user.get_username(), str(s.score), str(s.games), str(s.wins))
        for s in standings(lines, swiss=False)
    ]


def test_four_people_and_bots_play_an_arena_to_its_podium(site: Any, browser: Any, screenshots: Path) -> None:
    base = site.url()
    staff = user_register(username="director", password=PASSWORD)
    staff.is_staff = True
    staff.save()
    people: list[Person] = []
    for name, viewport, phone, czech in PEOPLE:
        user_register(username=name, password=PASSWORD)
        options: dict[str, Any] = {"viewport": viewport}
        if phone:
            options |= {"is_mobile": True, "has_touch": True}
        if czech:
            options |= {"locale": "cs-CZ", "extra_http_headers": {"Accept-Language": "cs"}}
        context = browser.new_context(**options)
        context.set_default_timeout(10_000)
        page = context.new_page()
        person = Person(name, page, phone, czech, Player(page, seat=0, friend=-1))
        page.on(
            "framenavigated",
            lambda frame, p=person: p.visited.append(frame.url) if frame == p.page.main_frame else None,
        )
        sign_in(page, base, name)
        people.append(person)

    # Staff create the arena: tables of 3, bots filling a table after 5 s of waiting, short timers,
    # starting in a moment (the beat starts it).
    starts = timezone.now() + timedelta(seconds=40)
    made = api(
        base, user_token(user=staff), "/api/tournaments/",
        {
            "name": "Teatime arena", "format": "arena", "table_size": 3, "min_table_size": 3,
            "bots_fill": True, "bots_after_seconds": 5, "bot_level": "normal", "rated": True,
            "turn_timer": 20, "reaction_timer": 8, "discard_timer": 8,
            "starts_at": starts.isoformat(), "duration_minutes": ARENA_MINUTES,
        },
    )  # fmt: skip
    t = Tournament.objects.get(pk=made["id"])
    event = f"{base}/tournaments/{t.pk}/"

    # Each person finds it (the navigation, then the list) and enters by the event page's button.
    for p in people:
        go_by_header(p.page, "/tournaments/")
        p.page.click(f'a[href="/tournaments/{t.pk}/"]')
        p.page.click("#entry-form button")
        p.page.wait_for_selector('[data-entry="entered"]')
    assert Entry.objects.filter(tournament=t).count() == 4
    assert timezone.now() < starts, "entering took longer than the time to the start"
    czech = next(p for p in people if p.czech)
    assert czech.page.get_attribute("html", "lang") == "cs"
    assert czech.page.locator("#withdraw-form button").inner_text() == "Odhlásit se"  # "Leave"
    # Everyone is in: the start moves to now, and the beat starts the arena at its next sweep.
    Tournament.objects.filter(pk=t.pk).update(starts_at=timezone.now())

    # From here the test only plays: the pages go where they go by themselves.
    shots = {
        "desktop": screenshots / "tournament-arena-table-desktop.png",
        "phone": screenshots / "tournament-arena-table-phone.png",
        "phone-czech": screenshots / "tournament-arena-table-phone-czech.png",
    }
    deadline = time.monotonic() + PLAY_LIMIT_S
    ended = False
    while not all(p.podium for p in people):
        if time.monotonic() > deadline:
            state = {p.name: (p.page.url, p.games, dict(p.decided)) for p in people}
            pytest.fail(f"no podium on every page in time: {state}")
        acted = [p.step(shots) for p in people]  # every page its turn, whoever acted before it
        if not ended and any(len(p.games) >= 2 for p in people):
            # Someone was seated again after a game: the arena's end moves to now (the beat seats
            # nobody more, and finishes it when its last games have ended).
            now = timezone.now()
            Tournament.objects.filter(pk=t.pk).update(started_at=now - timedelta(minutes=ARENA_MINUTES))
            ended = True
        if not any(acted):
            _wait_for_news(people)  # nobody had a decision: the bots' moves, a seating

    t.refresh_from_db()
    assert t.status == "finished"
    assert shots == {}, "no decision was seen on some kind of page"
    for p in people:
        if p.header:
            assert p.header == "Teatime arena", p.header  # the game page's header leads to the event
    assert czech.english == []

    # Each page was taken to its tables by the event page, and back to the event by the end screen.
    seated: dict[str, list[int]] = {}
    seats = EventSeat.objects.filter(event_table__tournament=t).select_related("event_table", "entry__user")
    for seat in seats:
        if seat.entry is not None:
            seated.setdefault(seat.entry.user.get_username(), []).append(seat.event_table.game_id)
    # Seated again after a game, whoever's game ended while the arena still seated people (with
    # a sweep of the beat to spare): a game's length is the deal's luck, and one long game can
    # outlast the arena, as it may for anyone.
    arena_end = (t.started_at or t.starts_at) + timedelta(minutes=ARENA_MINUTES)
    played = [g for p in people for g in p.games]
    finished = dict(Game.objects.filter(pk__in=played).values_list("pk", "finished_at"))
    for p in people:
        assert sorted(p.games) == sorted(seated[p.name]), (p.name, p.games, seated[p.name])
        first_end = finished[sorted(p.games)[0]]
        if first_end is not None and first_end < arena_end - timedelta(seconds=RESEAT_S):
            assert len(p.games) >= 2, (p.name, p.games, first_end, arena_end)
        for game in p.games:
            at = p.visited.index(f"{base}/games/{game}/")
            assert p.visited[at - 1].startswith(event), (p.name, p.visited)  # taken there by the event page
            assert p.visited[at + 1] == f"{event}?from={game}", (p.name, p.visited)  # back by itself
        assert all(p.decided[g] > 0 for g in p.games), (p.name, dict(p.decided))  # played on the page
    assert any(len(p.games) >= 2 for p in people), [(p.name, p.games) for p in people]  # someone was
    bot_seats = EventSeat.objects.filter(event_table__tournament=t, entry__isnull=True).count()
    assert bot_seats > 0  # the fourth person waiting alone was seated with bots

    # The standings on every page are those the games' logs fold to; so is the podium.
    out = StringIO()
    call_command("rebuild_tournament", str(t.pk), stdout=out)
    assert out.getvalue().strip().endswith(" 0 differences"), out.getvalue()
    rebuilt = _rebuilt(t)
    results = Counter(Result.objects.filter(tournament=t).values_list("entry__user__username", flat=True))
    firsts = sorted(name for rank, name, *_ in rebuilt if rank == "1")
    for p in people:
        page = p.page
        assert page.url.startswith(event)
        assert _standings_on(page) == rebuilt, p.name
        assert sorted(page.locator(".podium-steps .step-1 .step-name").all_inner_texts()) == firsts
        for name, n in results.items():  # each player's list of games, pushed or rendered
            assert page.locator(f'details[data-player="{name}"]').get_attribute("data-count") == str(n)
        rank, _, points, *_ = next(row for row in rebuilt if row[1] == p.name)
        place = page.locator("#my-place").inner_text().strip()  # where they finished, in their words
        said = (
            f"Vaše umístění: {rank}. místo z 4, {points} bod"
            if p.czech
            else f"Your place: {rank} of 4, with {points} point"
        )
        assert place.startswith(said), place
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= page.viewport_size["width"], f"{p.label}: the page scrolls sideways ({width}px)"
        wait_still(page)  # the podium's fonts settle before the picture
        shot = screenshots / f"tournament-arena-podium-{p.name}-{p.label}.png"
        page.screenshot(path=str(shot), full_page=True)
    assert english_left(czech.page.inner_text("body")) == []
    assert czech.page.locator("#t-status").inner_text() == "Dohráno"
