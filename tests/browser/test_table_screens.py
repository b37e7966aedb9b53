"""The table on short and narrow screens, in Chromium: at 1366 × 657, 1280 × 800, 390 × 844 and
360 × 740 the turn line with its countdown and the prompt's title are on the screen and nothing
covers them, the prompt and the hand do not cover the table, and no name is cut short (the
player's own, the bots' on the watch page, a six-seat table's); after chatting on a phone the
next decision comes back on screen; a card's tip does not outlive its decision.

The deal (tests/support/decks.py: AIM_ON_THE_TABLE): bot 2 aims a Hare Cumi at the person, who
evades it; the person's turn (bot 1 protected); then bot 3's Strom asks the person to answer a
skip."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from tests.browser.ui import api, person, read, sign_in, start_against_bots, wait_loaded
from tests.support.decks import AIM_ON_THE_TABLE, STACKED

DEAL = AIM_ON_THE_TABLE
SITE_ENV = {"GAME_SHUFFLE": STACKED, "DECK_TOP": ",".join(DEAL.deck_top())}
SIZES = [(1366, 657), (1280, 800), (390, 844), (360, 740)]

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Where the parts of the game page are, and whether each is seen whole: in the viewport and the
# topmost element at a few points along it (so nothing covers it), its words not cut.
LAYOUT = """() => {
  const W = innerWidth, H = innerHeight;
  const box = (e) => { const r = e.getBoundingClientRect();
    return {left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width, height: r.height}; };
  const onTop = (e) => {
    const r = e.getBoundingClientRect();
    const y = r.top + r.height / 2;
    return [r.left + 2, r.left + r.width / 2, r.right - 2].every((x) => {
      const hit = document.elementFromPoint(x, y);
      return hit !== null && (hit === e || e.contains(hit));
    });
  };
  const seen = (id) => { const e = document.getElementById(id); const b = box(e);
    return {...b, inView: b.top >= 0 && b.left >= 0 && b.bottom <= H && b.right <= W, onTop: onTop(e),
            cut: e.scrollWidth > e.clientWidth + 1, text: e.textContent}; };
  const names = Array.from(document.querySelectorAll('.seat .seat-name')).map((n) => ({
    text: n.textContent, cut: n.scrollHeight > n.clientHeight + 1 || n.scrollWidth > n.clientWidth + 1 }));
  return {
    W, H, scrollWidth: document.documentElement.scrollWidth,
    turn: seen('turn-text'), title: seen('prompt-title'),
    table: box(document.getElementById('table-area')), dock: box(document.getElementById('dock')),
    buttons: Array.from(document.querySelectorAll('#prompt-buttons button'))
      .map((b) => ({...box(b), onTop: onTop(b)})),
    names,
  };
}"""

REPLAY_NAMES = """() => Array.from(document.querySelectorAll('#replay .seat-name')).map((n) => ({
  text: n.textContent, cut: n.scrollHeight > n.clientHeight + 1 || n.scrollWidth > n.clientWidth + 1}))"""


def check_layout(page: Any, what: str, names: list[str], whole_table: bool = True) -> dict[str, Any]:
    m = page.evaluate(LAYOUT)
    size = f"{m['W']} × {m['H']}, {what}"
    assert m["scrollWidth"] <= m["W"], f"{size}: the page sticks out sideways ({m['scrollWidth']} px)"
    for part in ("turn", "title"):
        p = m[part]
        assert p["inView"], f"{size}: the {part} line is off the screen: {p}"
        assert p["onTop"], f"{size}: something covers the {part} line: {p}"
        assert not p["cut"], f"{size}: the {part} line is cut: {p['text']!r}"
    assert "seconds left" in m["turn"]["text"], m["turn"]["text"]
    # The prompt and the hand below the table, not over it.
    assert m["dock"]["top"] >= m["table"]["bottom"] - 1, f"{size}: the dock covers the table: {m}"
    if whole_table:
        assert m["table"]["top"] >= 0, f"{size}: the table starts above the screen"
    for b in m["buttons"]:
        whole = b["top"] >= 0 and b["bottom"] <= m["H"] and b["onTop"]
        assert whole, f"{size}: a button is not seen whole: {b}"
    shown = [n["text"] for n in m["names"]]
    for name in names:
        assert name in shown, f"{size}: {name!r} is not shown whole among {shown}"
    assert not [n for n in m["names"] if n["cut"]], f"{size}: names are cut: {m['names']}"
    return dict(m)


def test_the_table_at_four_screen_sizes(site: Any, browser: Any, screenshots: Path) -> None:
    base = site.url(0)
    name = f"carol_n{int(time.time()) % 100000}"
    _, game = start_against_bots(base, name, bots=3)
    bots = ["Bot 2 · normal", "Bot 3 · normal", "Bot 4 · normal"]
    pages = []
    for w, h in SIZES:
        phone = w < 600
        ctx = browser.new_context(viewport={"width": w, "height": h}, has_touch=phone, is_mobile=phone)
        ctx.set_default_timeout(10_000)
        page = ctx.new_page()
        sign_in(page, base, name)
        page.goto(f"{base}/games/{game}/")
        wait_loaded(page)
        pages.append((w, h, ctx, page))

    # Answering a Hare Cumi: the player's own seat is marked as the target.
    for w, h, _, page in pages:
        page.wait_for_selector("#prompt[data-kind='volley']")
        page.wait_for_load_state("networkidle")  # the card pictures, for the screenshot
        check_layout(page, "a volley to answer", [*bots, f"{name} (you)"])
        page.screenshot(path=str(screenshots / f"table-{w}x{h}-volley.png"))

    # Evade it (from one page; every page follows), then aim: the targets' buttons show too.
    first = pages[0][3]
    first.evaluate("document.dispatchEvent(new CustomEvent('harehra:command', {detail: {react: 'taptap'}}))")
    for w, h, _, page in pages:
        page.wait_for_selector("#prompt[data-kind='turn']")
        page.wait_for_function("() => document.activeElement.dataset.card === 'cumi'")
        check_layout(page, "a turn", [*bots, f"{name} (you)"])
        page.screenshot(path=str(screenshots / f"table-{w}x{h}-turn.png"))
        page.keyboard.press("Enter")
        page.wait_for_selector("#players .seat[data-aim='ok']")
        m = check_layout(page, "aiming", [*bots, f"{name} (you)"])
        assert len(m["buttons"]) == 3  # at bot 2, at bot 3, cancel
        page.screenshot(path=str(screenshots / f"table-{w}x{h}-aim.png"))
    for _, _, ctx, _ in pages:
        ctx.close()

    # The watch page at 1280 px tells the bots apart: every name whole.
    watch = browser.new_page(viewport={"width": 1280, "height": 800})
    watch.goto(f"{base}/watch/{game}/")
    watch.wait_for_selector("#replay .rp-seat")
    names = watch.evaluate(REPLAY_NAMES)
    assert sorted(n["text"] for n in names) == sorted([name, *bots])
    assert not [n for n in names if n["cut"]], names
    assert watch.locator("#replay .rp-seat.bot").count() == 3  # "⚙ bot" under each bot's name
    watch.screenshot(path=str(screenshots / "table-watch-1280x800.png"))
    watch.close()


def test_six_seats_on_the_watch_page_keep_their_names_whole(
    site: Any, browser: Any, screenshots: Path
) -> None:
    base = site.url(0)
    name = f"alice_w{int(time.time()) % 100000}"
    token = person(base, name)
    table = api(
        base,
        token,
        "/api/tables/",
        {"seats": 6, "packs": ["big-warren"], "turn_timer": 600, "reaction_timer": 600, "discard_timer": 600},
    )
    for _ in range(5):
        api(base, token, f"/api/tables/{table['id']}/add-bot/")
    game = api(base, token, f"/api/tables/{table['id']}/start/")["current_game"]
    for w, h in ((1280, 800), (360, 740)):
        page = browser.new_page(viewport={"width": w, "height": h})
        page.goto(f"{base}/watch/{game}/")
        page.wait_for_selector("#replay .rp-seat")
        names = page.evaluate(REPLAY_NAMES)
        assert sorted(n["text"] for n in names) == sorted([name, *(f"Bot {i} · normal" for i in range(2, 7))])
        assert not [n for n in names if n["cut"]], (w, names)
        assert page.evaluate("document.documentElement.scrollWidth") <= w
        page.screenshot(path=str(screenshots / f"table-watch-six-{w}x{h}.png"))
        page.close()


def test_on_a_phone_the_next_decision_comes_back_after_chatting_and_old_tips_go(
    site: Any, browser: Any, screenshots: Path
) -> None:
    base = site.url(0)
    name = f"pia{int(time.time()) % 100000}"
    _, game = start_against_bots(base, name, bots=3)
    ctx = browser.new_context(viewport={"width": 360, "height": 740}, has_touch=True, is_mobile=True)
    ctx.set_default_timeout(10_000)
    page = ctx.new_page()
    sign_in(page, base, name)
    page.goto(f"{base}/games/{game}/")
    wait_loaded(page)
    page.wait_for_selector("#prompt[data-kind='volley']")

    # Down to the chat at the bottom of the page, below the game; a message is sent (the input is
    # empty again).
    page.fill("#chat-input", "good luck all")
    page.press("#chat-input", "Enter")
    page.wait_for_selector("#chat-log li:has-text('good luck all')")
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    off = page.evaluate("document.getElementById('prompt-title').getBoundingClientRect().bottom < 0")
    assert off, "the chat is not below the prompt: this test would prove nothing"

    # The answer is sent without touching the page (tests/browser: the harehra:command hook); the
    # next decision, the person's turn, comes back on screen with the focus.
    page.evaluate("document.dispatchEvent(new CustomEvent('harehra:command', {detail: {react: 'taptap'}}))")
    page.wait_for_selector("#prompt[data-kind='turn']")
    page.wait_for_function("() => document.activeElement.dataset.card === 'cumi'")
    check_layout(page, "a turn after chatting", [f"{name} (you)"], whole_table=False)
    page.screenshot(path=str(screenshots / "table-360x740-after-chat.png"))

    # A card's tip, shown while it is the person's turn, does not come back at the skip prompt
    # (the card keeps the focus while the game goes on: the move is sent through the hook).
    page.keyboard.press("End")  # Hare Taptap: cannot be played on a turn
    tip = page.locator("#card-tip")
    tip.wait_for(state="visible")
    seq = read(page)["seq"]
    page.evaluate(
        "document.dispatchEvent(new CustomEvent('harehra:command', {detail: {play: ['cumi'], target: 3}}))"
    )
    page.wait_for_function(f"() => Number(document.getElementById('game').dataset.seq) > {seq}")
    page.wait_for_selector("#prompt[data-kind='skip']")
    assert tip.is_hidden(), "a card's tip stayed up over the skip prompt"
    page.wait_for_function("() => document.activeElement.dataset.action === 'decline'")
    check_layout(page, "a skip", [f"{name} (you)"], whole_table=False)
    page.screenshot(path=str(screenshots / "table-360x740-skip.png"))
    ctx.close()
