"""Helpers for driving the game page like a person: read what the UI offers, click or press keys."""

from __future__ import annotations

import contextlib
import json
import re
import urllib.request
from pathlib import Path
from typing import Any

from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from accounts.services import user_register, user_token

# A live game moves on without the test: a bot plays, a timer runs out, a refresh re-renders the
# hand. A control read as enabled a moment ago may be disabled by the time it is clicked; the
# player then reads the page again instead of waiting for a control that will not come back.
CLICK_TIMEOUT_MS = 2000

READ_UI = """() => {
  const g = document.getElementById('game');
  const prompt = document.getElementById('prompt');
  const end = document.getElementById('end');
  return {
    loading: g.dataset.loading === '1',
    seq: Number(g.dataset.seq || 0),
    awaiting: g.dataset.awaiting || '',
    kind: prompt.hidden ? '' : (prompt.dataset.kind || ''),
    title: prompt.hidden ? '' : document.getElementById('prompt-title').textContent,
    over: !end.hidden,
    away: !document.getElementById('away-banner').hidden,
    buttons: Array.from(document.querySelectorAll('#prompt-buttons button')).map(b => ({
      action: b.dataset.action, disabled: b.disabled })),
    cards: Array.from(document.querySelectorAll('#hand button.card')).map(b => ({
      index: Number(b.dataset.index), card: b.dataset.card,
      enabled: b.getAttribute('aria-disabled') !== 'true', picked: b.classList.contains('picked') })),
  };
}"""


def api(base: str, token: str, path: str, body: dict[str, Any] | None = None) -> Any:
    """A POST to the server's REST API as another person or a set-up step would make it, so its
    bots and timers run in the real worker."""
    req = urllib.request.Request(
        base + path,
        data=json.dumps(body or {}).encode(),
        method="POST",
        headers={"Authorization": f"Token {token}", "Content-Type": "application/json"},
    )
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.load(r)


def read(page: Any) -> dict[str, Any]:
    return page.evaluate(READ_UI)


def wait_loaded(page: Any, timeout: float = 15) -> dict[str, Any]:
    page.wait_for_selector("#game[data-loading='']", timeout=timeout * 1000)
    return read(page)


def press(page: Any, selector: str, key: str = "Enter") -> None:
    """Reach a control by focusing it and pressing a key, as a keyboard user would."""
    page.focus(selector)
    page.keyboard.press(key)


NEWER = """([seq, kind]) => {
  const prompt = document.getElementById('prompt');
  return Number(document.getElementById('game').dataset.seq || 0) > seq
    || !document.getElementById('end').hidden
    || (prompt.hidden ? '' : (prompt.dataset.kind || '')) !== kind;
}"""


def wait_newer(page: Any, seq: int | None = None, timeout: float = 0.5) -> bool:
    """Wait until the page shows a seq newer than `seq` (by default the one it shows now), the
    game's end, or another decision (`#game[data-seq]`, `#end`, `#prompt[data-kind]`); False if
    nothing changed within `timeout` seconds."""
    now = read(page)
    try:
        page.wait_for_function(
            NEWER, arg=[now["seq"] if seq is None else seq, now["kind"]], timeout=timeout * 1000
        )
    except PlaywrightTimeoutError:
        return False
    return True


STILL = """() => document.fonts.status === 'loaded'
  && document.getAnimations().every((a) => a.playState !== 'running')"""


def wait_still(page: Any, timeout: float = 10) -> None:
    """Wait until nothing moves on the page (cards in flight, a panel rising: its animations and
    transitions) and its fonts are loaded, as before a picture of it."""
    page.wait_for_function(STILL, timeout=timeout * 1000)


def wait_moved(page: Any, seq: int, timeout: float = 5) -> None:
    """Wait until the page shows a newer seq than `seq` (the move went through)."""
    wait_newer(page, seq, timeout)


class Player:
    """Plays sensibly from what the page offers."""

    def __init__(self, page: Any, seat: int, friend: int) -> None:
        self.page, self.seat, self.friend = page, seat, friend
        self.moves = 0
        self.missed = 0  # clicks the page had moved past (see CLICK_TIMEOUT_MS)
        self.reclaimed = 0

    def act(self) -> bool:
        ui = read(self.page)
        if ui["away"] and not ui["over"]:
            # A bot took the seat (the socket was gone past the grace period): take it back.
            if self._use("#reclaim", None):
                self.reclaimed += 1
                with contextlib.suppress(PlaywrightTimeoutError):  # if not yet, read again next round
                    self.page.wait_for_selector("#away-banner", state="hidden", timeout=CLICK_TIMEOUT_MS)
            return True
        if ui["loading"] or ui["over"] or not ui["kind"]:
            return False
        kind, seq = ui["kind"], ui["seq"]
        use_keys = self.moves % 2 == 1  # every other move by keyboard alone
        self.moves += 1
        if kind in ("volley", "skip"):
            # The answers are the cards themselves (Hare Taptap, Strom) plus "take it".
            answer = "taptap" if kind == "volley" else "strom"
            held = [c for c in ui["cards"] if c["card"] == answer and c["enabled"]]
            if held:
                self._card(held[0]["index"], use_keys)
            else:
                self._button("decline", use_keys)
        elif kind == "discard":
            need = int(self.page.get_attribute("#prompt", "data-count"))
            # Cards chosen before a missed click stay chosen: choosing them again would un-choose them.
            chosen = sum(c["picked"] for c in ui["cards"])
            more = [c for c in ui["cards"] if not c["picked"]][: max(0, need - chosen)]
            if all(self._card(c["index"], use_keys) for c in more):
                self._button("discard", use_keys)
        else:
            self._turn(ui, use_keys)
        wait_moved(self.page, seq)
        return True

    def _turn(self, ui: dict[str, Any], keys: bool) -> None:
        if "burn" in {b["action"] for b in ui["buttons"]}:
            self._button("burn", keys)
            return
        playable = [c for c in ui["cards"] if c["enabled"]]
        if not playable:
            return
        cumis = [c for c in playable if c["card"] == "cumi"]
        if cumis:
            if not all(self._card(c["index"], keys) for c in cumis[:2] if not c["picked"]):
                return
            offered = [b["action"] for b in read(self.page)["buttons"]]
            actions = [a for a in offered if a.startswith("target-")]
            if actions:
                target = f"target-{self.friend}" if f"target-{self.friend}" in actions else actions[0]
                self._button(target, keys)
                return
            if "cancel" not in offered:
                return  # the page re-rendered meanwhile (a new event): read it again next round
            self._button("cancel", keys)
            playable = [c for c in playable if c["card"] != "cumi"]
            if not playable:
                return
        stroms = [c for c in playable if c["card"] == "strom"]
        pick = stroms[0] if stroms else playable[0]
        self._card(pick["index"], keys)

    def _card(self, index: int, keys: bool) -> bool:
        return self._use(f"#hand button.card[data-index='{index}']", "Enter" if keys else None)

    def _button(self, action: str, keys: bool) -> bool:
        return self._use(f"#prompt-buttons button[data-action='{action}']", "Space" if keys else None)

    def _use(self, selector: str, key: str | None) -> bool:
        """Click the control, or focus it and press `key`; False if the page had moved past it."""
        try:
            if key:
                self.page.focus(selector, timeout=CLICK_TIMEOUT_MS)
                self.page.keyboard.press(key)
            else:
                self.page.click(selector, timeout=CLICK_TIMEOUT_MS)
        except PlaywrightTimeoutError:
            self.missed += 1
            return False
        return True


PASSWORD = "hare-tree-house-42"


def person(base: str, name: str) -> str:
    """A new person's API token."""
    return user_token(user=user_register(username=name, password=PASSWORD))


def sign_in(page: Any, base: str, name: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", name)
    page.fill("#id_password", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url(f"{base}/lobby/")


def go_by_header(page: Any, href: str) -> None:
    """Follow the site header's link to `href`, as a person would: on a phone the links are behind
    the menu button, which is opened first."""
    toggle = page.locator("#nav-toggle")
    if toggle.is_visible() and toggle.get_attribute("aria-expanded") != "true":
        toggle.click()
    page.click(f'.site-header a[href="{href}"]')


def start_against_bots(base: str, name: str, bots: int) -> tuple[int, int]:
    """A new person hosts a table with `bots` bots and starts it; (table id, game id).

    Long timers: the game waits for the person while the test looks at the page.
    """
    token = person(base, name)
    table = api(
        base,
        token,
        "/api/tables/",
        {"seats": bots + 1, "turn_timer": 600, "reaction_timer": 600, "discard_timer": 600},
    )
    for _ in range(bots):
        api(base, token, f"/api/tables/{table['id']}/add-bot/")
    return table["id"], api(base, token, f"/api/tables/{table['id']}/start/")["current_game"]


def english_left(text: str) -> list[str]:
    """English sentences of the site's catalogues (those Czech words differently) found in `text`."""
    import polib

    root = Path(__file__).resolve().parents[2] / "locale" / "cs" / "LC_MESSAGES"
    found = []
    for domain in ("django", "djangojs"):
        for e in polib.pofile(str(root / f"{domain}.po")):
            forms = [e.msgstr] if not e.msgid_plural else list(e.msgstr_plural.values())
            for english in filter(None, [e.msgid, e.msgid_plural]):
                if english in forms:
                    continue
                for part in re.split(r"%\(\w+\)s|%s", english):
                    part = part.strip(" .,:;·()")
                    if len(part) >= 8 and " " in part and part in text and not any(part in f for f in forms):
                        found.append(part)
    return sorted(set(found))
