"""The table in Chromium: a whole game clicked through on a desktop and on a 360 × 740 phone, with
a screenshot of each state (your turn, aiming, answering, discarding, waiting, eliminated, end)
and the hand and the prompt on the phone's first screen. The game is dealt on purpose so that one
short game brings every state to both people (tests/support/decks.py: EVERY_STATE). Moves during
motion, reduced motion, the hidden tab's title and Czech are in test_table_with_bots.py."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from games.eventlog import events_with_seq
from games.models import Game
from tests.browser.ui import Player, api, person, read, sign_in, wait_loaded, wait_newer
from tests.support.decks import EVERY_STATE, STACKED

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 360, "height": 740}
STATES = ("turn", "aiming", "answering", "discarding", "waiting", "eliminated", "end")
DEAL = EVERY_STATE  # what happens, turn by turn, is written beside it
SITE_ENV = {"GAME_SHUFFLE": STACKED, "DECK_TOP": ",".join(DEAL.deck_top())}
# Twelve turns, ten of them the bots' (0.3 s each) and the people's, with room for a slow, shared machine.
BUDGET_SECONDS = 90

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

IN_VIEW = """(sel) => {
  const r = document.querySelector(sel).getBoundingClientRect();
  return r.top >= 0 && r.bottom <= innerHeight + 1 && r.height > 0;
}"""


def two_people_and_two_bots(base: str, run: str) -> tuple[int, int, list[str]]:
    """Ann hosts (seat 0), Bob joins (seat 1), two normal bots fill seats 2 and 3."""
    names = [f"Ann{run}", f"bob{run}"]
    ann, bob = (person(base, n) for n in names)
    table = api(
        base, ann, "/api/tables/", {"seats": 4, "turn_timer": 60, "reaction_timer": 20, "discard_timer": 30}
    )
    api(base, bob, f"/api/tables/{table['id']}/join/", {"invite_code": table["invite_code"]})
    for _ in range(2):
        api(base, ann, f"/api/tables/{table['id']}/add-bot/")
    game = api(base, ann, f"/api/tables/{table['id']}/start/")["current_game"]
    return table["id"], game, names


def state_of(page: Any) -> str:
    ui = read(page)
    if ui["over"]:
        return "end"
    if page.evaluate("document.getElementById('game').classList.contains('i-am-out')"):
        return "eliminated"
    kind = ui["kind"]
    if kind == "turn":
        return "aiming" if any(b["action"].startswith("target-") for b in ui["buttons"]) else "turn"
    if kind in ("volley", "skip"):
        return "answering"
    if kind == "discard":
        return "discarding"
    return "waiting" if not ui["loading"] else ""


class Shooter(Player):
    """Plays as Player does, and saves a screenshot the first time each state shows."""

    def __init__(self, page: Any, seat: int, friend: int, label: str, folder: Path) -> None:
        super().__init__(page, seat, friend)
        self.label, self.folder = label, folder
        self.shot: set[str] = set()
        self.first_screen: list[bool] = []

    def look(self) -> None:
        state = state_of(self.page)
        if state in ("turn", "answering", "discarding", "aiming") and self.label == "phone":
            # On the phone the prompt and the hand are on the first screen, without scrolling.
            self.page.evaluate("window.scrollTo(0, 0)")
            self.first_screen.append(
                self.page.evaluate(IN_VIEW, "#prompt") and self.page.evaluate(IN_VIEW, "#hand")
            )
        if state == "discarding" and any(c["picked"] for c in read(self.page)["cards"]):
            state = "discarding-picked"  # the chosen cards' badges, once one is chosen
        if state and state not in self.shot:
            self.shot.add(state)
            self.page.evaluate("window.scrollTo(0, 0)")
            self.page.screenshot(
                path=str(self.folder / f"table-{self.label}-{state}.png"), animations="disabled"
            )

    def _use(self, selector: str, key: str | None) -> bool:
        # Before each control this person uses: a decision of theirs (a turn, aiming, answering,
        # discarding) waits for them, so the state looked at is the one the control acts in.
        self.look()
        return super()._use(selector, key)


def play(pages: list[Shooter], seconds: float) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end and not all(read(p.page)["over"] for p in pages):
        moved = False
        for p in pages:
            p.look()
            moved = p.act() or moved
        if not moved:
            wait_newer(pages[0].page)  # the next move or decision, or half a second
    for p in pages:
        p.look()


def test_a_game_on_desktop_and_phone_with_each_state_on_screen(
    site: Any, browser: Any, screenshots: Path
) -> None:
    base = site.url(0)
    run = str(int(time.time()) % 100000)
    for label in ("desktop", "phone"):  # an earlier run's screenshots prove nothing
        for state in STATES:
            (screenshots / f"table-{label}-{state}.png").unlink(missing_ok=True)
    table_id, game, names = two_people_and_two_bots(base, run)
    desktop = browser.new_context(viewport=DESKTOP)
    phone = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    pages = []
    for ctx, name, seat, label in ((desktop, names[0], 0, "desktop"), (phone, names[1], 1, "phone")):
        ctx.set_default_timeout(8000)
        page = ctx.new_page()
        sign_in(page, base, name)
        page.goto(f"{base}/games/{game}/")
        wait_loaded(page)
        pages.append(Shooter(page, seat, 1 - seat, label, screenshots))
    ann, bob = pages
    # Names as their owners typed them: "Ann…" stays capitalised, "bob…" stays lower case.
    assert names[0] in ann.page.inner_text("#me") and names[1] in ann.page.inner_text("#players")
    assert names[1] in bob.page.inner_text("#me")
    # The whole desktop table fits without scrolling.
    assert ann.page.evaluate(IN_VIEW, "#table-area") and ann.page.evaluate(IN_VIEW, "#hand")
    assert bob.page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    # The deal is the one designed (its game, turn by turn, is in tests/support/decks.py).
    assert [c["card"] for c in read(bob.page)["cards"]] == list(DEAL.hands[1])

    play(pages, BUDGET_SECONDS)
    # Both pages end on the end screen with the placings and a way on: the bot left last first,
    # then the others in reverse order of elimination (Bot 3, Bob, Ann).
    for p in pages:
        assert read(p.page)["over"], (p.label, p.shot)
        placings = p.page.locator("#placings li").all_inner_texts()
        assert len(placings) == 4, placings
        assert "Bot 4" in placings[0] and "Bot 3" in placings[1], placings
        assert names[1] in placings[2] and names[0] in placings[3], placings
        assert p.page.is_visible("#next-game") and p.page.is_visible("#end a[href='/lobby/']")
    # The game the pages showed ended as dealt, as the table's record says.
    assert list(Game.objects.filter(table_id=table_id).values_list("pk", "status")) == [(game, "finished")]
    events = [e for _, e in events_with_seq(Game.objects.get(pk=game))]
    assert [e["seat"] for e in events if e["type"] == "PlayerEliminated"] == [0, 1, 2]
    assert events[-1]["type"] == "GameEnded" and events[-1]["winner"] == 3
    assert bob.first_screen and all(bob.first_screen), (
        "the prompt or the hand was below the phone's first screen"
    )
    # Every state was seen on both screens, and each has its screenshot.
    for p in pages:
        assert set(STATES) <= p.shot, (p.label, set(STATES) - p.shot)
        assert all((screenshots / f"table-{p.label}-{s}.png").is_file() for s in STATES)
    desktop.close()
    phone.close()
