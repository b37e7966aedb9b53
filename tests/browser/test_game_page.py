"""The game page in Chromium: reload, away and reclaim, errors in words, phone width, a lost command."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from games.models import CommandRecord, Game, GameSeat
from tests.browser.ui import api, person, read, sign_in, start_against_bots, wait_loaded
from tests.factories import end_with_seat_1_abandoned
from tests.support.waits import wait_until

T = TypeVar("T")

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SNAPSHOT = """() => ({
  hand: Array.from(document.querySelectorAll('#hand button.card')).map(b => b.dataset.card),
  players: document.getElementById('players').innerText,
  center: ['draw-pile', 'discard-pile', 'direction']
    .map(id => document.getElementById(id).innerText).join('|'),
  prompt: document.getElementById('prompt').hidden ? '' : document.getElementById('prompt-title').innerText,
  seq: document.getElementById('game').dataset.seq,
})"""


# The page asks this player something (#prompt[data-kind]), or shows the game's end.
ASKED_OR_OVER = """() => {
  const prompt = document.getElementById('prompt');
  return (!prompt.hidden && Boolean(prompt.dataset.kind)) || !document.getElementById('end').hidden;
}"""


def wait_for_my_decision(page: Any, timeout: float = 20) -> dict[str, Any]:
    try:
        page.wait_for_function(ASKED_OR_OVER, timeout=timeout * 1000)
    except PlaywrightTimeoutError:
        raise AssertionError("never this player's decision") from None
    ui = read(page)
    assert not ui["over"], "the game ended before it was this player's turn"
    assert ui["kind"], ui
    return ui


def test_reload_error_phone_width_away_and_reclaim(site: Any, browser: Any, screenshots: Path) -> None:
    base = site.url(0)
    name = f"cara{int(time.time()) % 100000}"
    # Three bots make the game last.
    table_id, game_id = start_against_bots(base, name, bots=3)
    game = Game.objects.get(pk=game_id)

    context = browser.new_context(viewport={"width": 360, "height": 740}, has_touch=True, is_mobile=True)
    context.set_default_timeout(8000)
    page = context.new_page()
    sign_in(page, base, name)
    page.goto(f"{base}/games/{game.pk}/")
    wait_loaded(page)
    wait_for_my_decision(page)

    # Phone width: nothing sticks out sideways.
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    page.screenshot(path=str(screenshots / "game-phone.png"), full_page=True)
    for path in ("/", "/lobby/", f"/tables/{table_id}/", "/accounts/register/", f"/players/{name}/"):
        other = context.new_page()
        other.goto(base + path)
        assert other.evaluate("document.documentElement.scrollWidth") <= 360, path
        other.close()

    # A reload mid-game restores exactly what was shown.
    before = page.evaluate(SNAPSHOT)
    assert before["hand"] and before["prompt"]
    page.reload()
    wait_loaded(page)
    page.wait_for_function(f"() => document.getElementById('game').dataset.seq === '{before['seq']}'")
    same = f"before => JSON.stringify(({SNAPSHOT})()) === JSON.stringify(before)"
    try:
        page.wait_for_function(same, arg=before, timeout=5000)
    except PlaywrightTimeoutError:
        raise AssertionError(
            f"after the reload the page shows {page.evaluate(SNAPSHOT)}, not {before}"
        ) from None
    # The log is rebuilt from the event history, fetched after the state is shown.
    page.wait_for_function("() => document.querySelectorAll('#log li').length > 0")

    # An illegal action is refused by the server and explained in words.
    kind = read(page)["kind"]
    page.evaluate("document.dispatchEvent(new CustomEvent('harehra:command', {detail: {play: ['taptap']}}))")
    error = page.locator("#error")
    error.wait_for(state="visible")
    # On a turn Hare Taptap is never played; in any other decision a play is not what is asked.
    words = "That card cannot be played now."
    if kind != "turn":
        words = "That is not the decision being asked for now."
    said = " ".join(error.inner_text().split())
    assert said == f"Not possible: {words} Dismiss", (kind, said)
    # ...and a greyed-out card does nothing when pressed.
    off = page.locator("#hand button.card[aria-disabled='true']")
    if off.count():
        seq, offered = read(page)["seq"], page.evaluate(CONTROLS)
        off.first.focus()
        page.keyboard.press("Enter")
        # A command leaves in the key's own handler, which takes the controls away until it is
        # answered (see test_a_command_lost_on_the_way_gives_the_controls_back): none left.
        assert page.evaluate(CONTROLS) == offered
        assert read(page)["seq"] == seq

    # Closing the page: after the grace period a bot takes the seat.
    page.close()
    wait_until(
        lambda: GameSeat.objects.filter(game=game, seat=0, bot_playing=True).exists(),
        "no bot took the seat",
        timeout=20,
        every=0.2,
    )

    # Coming back: the page says a bot plays the seat, and one click takes it back.
    page = context.new_page()
    page.goto(f"{base}/games/{game.pk}/")
    wait_loaded(page)
    game.refresh_from_db()
    assert game.status == "running", "the bots finished the game before Cara came back"
    banner = page.locator("#away-banner")
    banner.wait_for(state="visible")
    page.click("#reclaim")
    banner.wait_for(state="hidden")
    assert not GameSeat.objects.get(game=game, seat=0).bot_playing
    page.wait_for_selector("#log li:has-text('You are back and play again')")  # "you are", never "you is"
    context.close()
    assert Game.objects.filter(pk=game.pk).exists()


CONTROLS = """() => ({
  cards: Array.from(document.querySelectorAll('#hand button.card'))
    .filter(b => b.getAttribute('aria-disabled') !== 'true').length,
  buttons: Array.from(document.querySelectorAll('#prompt-buttons button')).filter(b => !b.disabled).length,
})"""


def decide_by_clicking(page: Any) -> None:
    """Make this player's pending decision through the page, the way that sends one command."""
    ui = read(page)
    actions = {b["action"] for b in ui["buttons"] if not b["disabled"]}
    if ui["kind"] in ("volley", "skip"):
        page.click("#prompt-buttons button[data-action='decline']")
        return
    assert ui["kind"] == "turn", ui
    playable = [c for c in ui["cards"] if c["enabled"]]
    plain = [c for c in playable if c["card"] != "cumi"]
    if "burn" in actions:
        page.click("#prompt-buttons button[data-action='burn']")
    elif plain:
        page.click(f"#hand button.card[data-index='{plain[0]['index']}']")
    else:
        page.click(f"#hand button.card[data-index='{playable[0]['index']}']")
        page.click("#prompt-buttons button[data-action^='target-']")


def test_a_command_lost_on_the_way_is_sent_again_until_answered_and_no_second_decision_follows(
    site: Any, browser: Any
) -> None:
    base = site.url(0)
    name = f"dora{int(time.time()) % 100000}"
    _, game = start_against_bots(base, name, bots=1)

    context = browser.new_context()
    context.set_default_timeout(8000)
    page = context.new_page()
    sign_in(page, base, name)
    # The socket is real, but the page's commands are dropped on the way while `lose` holds.
    lose = {"commands": True}
    sent = Heard(page)

    def route(ws: Any) -> None:
        server = ws.connect_to_server()

        def from_page(message: str | bytes) -> None:
            m = json.loads(message)
            if m.get("type") == "command":
                sent.add(m)
                if lose["commands"]:
                    return
            server.send(message)

        ws.on_message(from_page)

    page.route_web_socket("**/ws/games/**", route)
    page.goto(f"{base}/games/{game}/")
    wait_loaded(page)
    wait_for_my_decision(page)
    seq = read(page)["seq"]

    decide_by_clicking(page)
    # No answer comes: the page sends the same command again (every 5 s), and meanwhile offers
    # nothing, so no second decision can follow it. (It used to give the controls back after 5 s;
    # a second decision then went out behind the first, which the server applied after it.)
    commands = sent.wait_for(
        lambda: sent.records[:2] if len(sent.records) >= 2 else None,
        "the unanswered command was not sent again",
        timeout=12,
    )
    assert page.evaluate(CONTROLS) == {"cards": 0, "buttons": 0}
    assert {m["cmd_id"] for m in commands} == {commands[0]["cmd_id"]}, commands
    assert commands[1]["expected_seq"] == seq
    assert read(page)["seq"] == seq, "a dropped command moved the game"

    # Once commands get through again, that one decision is made, once, and the page shows it.
    lose["commands"] = False
    shown = f"() => Number(document.getElementById('game').dataset.seq) > {seq}"
    page.wait_for_function(shown, timeout=12_000)
    assert {m["cmd_id"] for m in sent.records} == {commands[0]["cmd_id"]}, sent.records
    assert CommandRecord.objects.filter(game_id=game, client_cmd_id=commands[0]["cmd_id"]).count() == 1
    assert page.is_hidden("#error")
    context.close()


class Heard:
    """What a test's socket route heard, waited for without polling. Playwright runs a route's
    callbacks only while the test is inside a call to it, so a wait must be one: each record also
    sets the count of records on the page, and a wait is a wait_for_function on that count, which
    returns as a record comes; the test is then read again."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.records: list[Any] = []

    def add(self, record: Any) -> None:
        self.records.append(record)
        self.page.evaluate("n => { window.heardByTheTest = n; }", len(self.records))

    def wait_for(self, test: Callable[[], T], what: str, timeout: float = 8) -> T:
        """`test`'s first true value, read after each record; else fail with `what`."""
        end = time.monotonic() + timeout
        while not (got := test()):
            try:
                self.page.wait_for_function(
                    "n => (window.heardByTheTest || 0) > n",
                    arg=len(self.records),
                    timeout=max(1, (end - time.monotonic()) * 1000),
                )
            except PlaywrightTimeoutError:
                raise AssertionError(f"{what} (waited {timeout:g} s)") from None
        return got


def test_a_command_whose_answer_was_lost_is_sent_again_on_the_next_socket(site: Any, browser: Any) -> None:
    base = site.url(0)
    name = f"erin{int(time.time()) % 100000}"
    _, game = start_against_bots(base, name, bots=1)

    context = browser.new_context()
    context.set_default_timeout(8000)
    page = context.new_page()
    sign_in(page, base, name)
    # Real sockets; on the first, everything the server says after the page's first command is
    # lost (its ack too), and then the connection drops.
    sockets: list[Any] = []
    heard = Heard(page)  # ("command", socket, message) from the page, ("answer", ...) from the server

    def said(kind: str, index: int | None = None) -> list[dict[str, Any]]:
        return [m for k, i, m in heard.records if k == kind and index in (None, i)]

    def route(ws: Any) -> None:
        server = ws.connect_to_server()
        index = len(sockets)
        sockets.append(ws)

        def from_page(message: str | bytes) -> None:
            m = json.loads(message)
            if m.get("type") == "command":
                heard.add(("command", index, m))
            server.send(message)

        def from_server(message: str | bytes) -> None:
            lost = index == 0 and bool(said("command"))
            items = json.loads(message)
            for m in items if isinstance(items, list) else [items]:
                if m.get("type") in ("ack", "error"):
                    heard.add(("answer", index, m))
            if not lost:
                ws.send(message)

        ws.on_message(from_page)
        server.on_message(from_server)

    page.route_web_socket("**/ws/games/**", route)
    page.goto(f"{base}/games/{game}/")
    wait_loaded(page)
    wait_for_my_decision(page)
    seq = read(page)["seq"]

    decide_by_clicking(page)
    first = heard.wait_for(lambda: said("command", 0)[:1], "the page sent no command")[0]

    def answered(index: int) -> list[dict[str, Any]]:
        return [m for m in said("answer", index) if m.get("cmd_id") == first["cmd_id"]]

    # The server made the move and answered; the answer is lost, then the connection.
    heard.wait_for(lambda: answered(0), "the server never answered the command")
    assert Game.objects.get(pk=game).last_seq > seq
    sockets[0].close(code=4000, reason="lost")

    # The page reconnects, sends the same command again, and the server answers with the first
    # outcome: the move was made once, and the page shows it.
    shown = f"() => Number(document.getElementById('game').dataset.seq) > {seq}"
    page.wait_for_function(shown, timeout=10_000)
    again = said("command", 1)
    assert again, heard.records
    assert again[0]["cmd_id"] == first["cmd_id"]
    assert again[0]["expected_seq"] == seq
    assert {k: v for k, v in again[0].items() if k != "expected_seq"} == first
    answer = heard.wait_for(lambda: answered(1), "the resent command got no answer")[0]
    assert answer["type"] == "ack" and answer["duplicate"] is True, answer
    assert page.is_hidden("#error")
    context.close()


def test_the_end_screen_shows_the_places_the_server_sends(site: Any, browser: Any) -> None:
    """Seat 1's person left while still in the game, and their bot went out after seat 2: by the
    placing rule the ratings follow, the abandoned seat is last, below the player out before it;
    the end screen shows exactly that, not a ranking of its own by who was out first."""
    base = site.url(0)
    run = int(time.time()) % 100000
    people = [f"end{run}{letter}" for letter in "abc"]
    tokens = [person(base, name) for name in people]
    timers = {"turn_timer": 600, "reaction_timer": 600, "discard_timer": 600}
    table = api(base, tokens[0], "/api/tables/", {"seats": 3, **timers})
    for token in tokens[1:]:
        api(base, token, f"/api/tables/{table['id']}/join/", {"invite_code": table["invite_code"]})
    game_id = api(base, tokens[0], f"/api/tables/{table['id']}/start/")["current_game"]
    names = {s.seat: s.user.username for s in GameSeat.objects.filter(game_id=game_id).select_related("user")}
    end_with_seat_1_abandoned(game_id)

    context = browser.new_context()
    context.set_default_timeout(8000)
    page = context.new_page()
    sign_in(page, base, names[0])
    page.goto(f"{base}/games/{game_id}/")
    wait_loaded(page)
    page.wait_for_selector("#end:not([hidden]) #placings li")
    rows = page.eval_on_selector_all(
        "#placings li", "els => els.map(e => [e.dataset.place, e.querySelector('.place-names').textContent])"
    )
    assert rows == [["1", f"{names[0]} (you)"], ["2", names[2]], ["3", names[1]]], rows
    context.close()


def test_one_missed_turn_warns_before_a_bot_takes_the_seat(
    site: Any, browser: Any, screenshots: Path
) -> None:
    """A person with the page open lets one turn run out (short timers): the page warns that one
    more hands the seat to a bot; their next move of their own takes the warning away."""
    from tests.browser.ui import Player, wait_newer

    base = site.url(0)
    name = f"finn{int(time.time()) % 100000}"
    token = person(base, name)
    table = api(
        base, token, "/api/tables/", {"seats": 2, "turn_timer": 5, "reaction_timer": 3, "discard_timer": 3}
    )
    api(base, token, f"/api/tables/{table['id']}/add-bot/")
    game_id = api(base, token, f"/api/tables/{table['id']}/start/")["current_game"]
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    page = context.new_page()
    sign_in(page, base, name)
    page.goto(f"{base}/games/{game_id}/")
    wait_loaded(page)
    warning = page.locator("#away-warning")
    assert warning.is_hidden()
    warning.wait_for(state="visible", timeout=20_000)  # the first missed turn or discard
    assert "One more missed turn and a bot plays for you." in warning.inner_text()
    assert not GameSeat.objects.get(game_id=game_id, seat=0).bot_playing
    page.screenshot(path=str(screenshots / "game-away-warning.png"))
    player = Player(page, seat=0, friend=1)
    end = time.monotonic() + 20
    while warning.is_visible() and time.monotonic() < end:
        if not player.act():
            wait_newer(page)
    assert warning.is_hidden() and player.moves >= 1
    assert not GameSeat.objects.get(game_id=game_id, seat=0).bot_playing
    context.close()
