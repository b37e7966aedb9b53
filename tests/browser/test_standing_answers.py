"""Standing answers on the game page in Chromium, English and Czech, desktop and phone: the person
sets "Hare Taptap when I hold one" in the page's settings, and the volley that comes later is
answered with their Taptap at the end of the short window, with nothing pressed.

The game is dealt on purpose (two seats: the person at seat 0, a normal bot at seat 1; seat 1
starts; the bot plays Hare looking right and Hare Zada when it holds no Hare Cumi, and aims its
Hare Cumi when it holds some):
  1: the bot plays Hare looking right and draws a Hare Cumi
  2: the person (who sets the standing answer first) plays Hare Zada
  3: the bot aims its Hare Cumi at the person, who holds a Hare Taptap: the standing answer plays
     it when the short window (AUTO_ANSWER_SECONDS) is up
  4: the person's turn again
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from games.models import GameEvent, GameSeat
from tests.browser.ui import api, english_left, person, read, sign_in, wait_loaded
from tests.support.decks import STACKED, stacked_deck
from tests.support.waits import wait_until

REDIS_DB = 14
HANDS = (
    ("taptap", "zada", "house", "house", "left"),
    ("right", "zada", "zada", "zada", "zada"),
)
DRAWS = ("cumi", "zada", "cumi")  # the bot's, the person's, the bot's
AUTO_ANSWER_SECONDS = 3
SITE_ENV = {
    "GAME_SHUFFLE": STACKED,
    "DECK_TOP": ",".join(stacked_deck(HANDS, DRAWS, first=1)),
    "AUTO_ANSWER_SECONDS": str(AUTO_ANSWER_SECONDS),
}
VIEWS = {
    "desktop": {"viewport": {"width": 1280, "height": 900}},
    "phone": {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True},
}
WORDS = {
    "en": {
        "legend": "Standing answers",
        "prompt": "Your standing answer plays your Hare Taptap when the time is up.",
    },
    "cs": {
        "legend": "Stálé odpovědi",
        "prompt": "Vaše stálá odpověď zahraje Hare Taptap, až vyprší čas.",
    },
}

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("lang", ["en", "cs"])
@pytest.mark.parametrize("view", ["desktop", "phone"])
def test_a_standing_taptap_set_on_the_page_answers_the_volley(
    site: Any, browser: Any, screenshots: Path, lang: str, view: str
) -> None:
    base = site.url(0)
    name = f"stan{lang}{view[0]}{int(time.time()) % 100000}"
    token = person(base, name)
    # Long windows: without its standing answer the volley would wait ten minutes for the person.
    table = api(
        base,
        token,
        "/api/tables/",
        {"seats": 2, "turn_timer": 600, "reaction_timer": 600, "discard_timer": 600},
    )
    api(base, token, f"/api/tables/{table['id']}/add-bot/")
    game_id = api(base, token, f"/api/tables/{table['id']}/start/")["current_game"]

    headers = {"Accept-Language": lang}
    context = browser.new_context(
        **VIEWS[view], locale="cs-CZ" if lang == "cs" else "en-US", extra_http_headers=headers
    )
    context.set_default_timeout(10000)
    page = context.new_page()
    sign_in(page, base, name)
    page.goto(f"{base}/games/{game_id}/")
    wait_loaded(page)
    assert page.get_attribute("html", "lang") == lang
    page.wait_for_selector("#game[data-mine='turn'][data-awaiting='turn:0']", timeout=20000)

    # The standing answer is set in the page's settings, over the game's socket.
    control = page.locator("#standing")
    control.scroll_into_view_if_needed()
    assert control.is_visible()
    assert WORDS[lang]["legend"] in control.inner_text()
    page.select_option("#opt-standing-volley", "taptap")
    wait_until(
        lambda: GameSeat.objects.filter(game_id=game_id, seat=0, standing_volley="taptap").exists(),
        "the standing answer never reached the server",
        timeout=10,
        every=0.1,
    )
    if view == "phone":
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
    control.screenshot(path=str(screenshots / f"standing-control-{lang}-{view}.png"))
    if lang == "cs":
        assert english_left(control.inner_text()) == [], control.inner_text()

    # The person plays Hare Zada; the bot aims its Hare Cumi at them.
    page.click("#hand button.card[data-card='zada']")
    page.wait_for_selector("#game[data-mine='volley'][data-awaiting='volley:0']", timeout=20000)
    prompt = page.locator("#prompt")
    said = " ".join(prompt.inner_text().split())
    assert WORDS[lang]["prompt"] in said, said
    if lang == "cs":
        assert english_left(said) == [], said
    # The short window's countdown, not the table's ten minutes.
    left = page.inner_text("#turn-text")
    assert any(f"{n} " in left for n in range(1, AUTO_ANSWER_SECONDS + 1)), left
    page.screenshot(path=str(screenshots / f"standing-volley-{lang}-{view}.png"), full_page=True)

    # Nothing is pressed: at the window's end the server plays the Taptap, and it is the person's
    # turn again.
    page.wait_for_selector("#game[data-mine='turn'][data-awaiting='turn:0']", timeout=20000)
    answer = GameEvent.objects.get(game_id=game_id, type="ReactionPlayed")
    assert answer.payload["seat"] == 0 and answer.payload["card"] == "taptap" and answer.actor_id is None
    volley = GameEvent.objects.get(game_id=game_id, type="VolleyPending")
    # Played at the window's end, not as it opened (the moment tells the others nothing).
    assert (answer.created_at - volley.created_at).total_seconds() >= AUTO_ANSWER_SECONDS - 0.5
    assert "taptap" not in [c["card"] for c in read(page)["cards"]]
    page.screenshot(path=str(screenshots / f"standing-answered-{lang}-{view}.png"), full_page=True)
    context.close()
