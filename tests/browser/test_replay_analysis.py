"""The replay's analysis in Chromium, against a real server: the win-chance graph under a finished
game's replay (click and keys to jump), the verdicts in the log, "next mistake" and the player
filter, on a desktop and a phone; and "Analyse this game" with its progress, made by a worker on
the analysis queue while the page waits, pushed over the replay analysis socket (no polling) and
shown without a reload."""

from __future__ import annotations

import contextlib
import json
import math
import subprocess
import sys
from collections.abc import Iterator
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

import pytest

from analysis.models import AnalysisRequest, GameAnalysis, RequestStatus
from analysis.services import analysis_run
from bench.stored_games import long_game, store_game
from harehra.analysis import analysis_json
from tests.browser.test_axe import serious_violations
from tests.browser.ui import person, sign_in
from tests.support.stack import Stack

pytestmark = [pytest.mark.browser]
PLAYOUTS = 4  # a tiny budget: the figures are noisy, which is all a page test needs
# A long name: shown whole in the tables where there is room (it was cut at 8rem even on a desktop).
NAMES = ["ann", "bob", "cat", "Maximilián_Dvořák"]
GUTTER = 34  # the strip left of the graph for its scale (static/js/table/analysisview.js)
# Cards a step forward sent flying: screenshots wait until they have landed.
LANDED = "() => !document.querySelector('.flying-card')"


def _js_round(x: float) -> int:
    """Math.round: a half goes up (Python's round goes to the even neighbour)."""
    return math.floor(x + 0.5)


def _step(page: Any) -> int:
    return int(page.get_attribute("#replay", "data-step"))


def _open(browser: Any, url: str, width: int = 1280, locale: str = "en-GB") -> Any:
    page = browser.new_page(viewport={"width": width, "height": 900}, locale=locale)
    page.goto(url)
    page.wait_for_selector("#replay .rp-seat")
    return page


@contextlib.contextmanager
def analysis_worker(site: Stack) -> Iterator[subprocess.Popen[bytes]]:
    """The Procfile's `analyst`: a worker on the analysis queue only (the module's worker serves
    the moves' queue), with the tiny budget."""
    log = open(site.log_dir / "analyst.log", "wb")  # noqa: SIM115
    proc = subprocess.Popen(
        [
            sys.executable, "-m", "celery", "-A", "harehra_site", "worker", "--queues", "analysis",
            "--pool", "solo", "--concurrency", "1", "--loglevel", "WARNING",
            "--without-mingle", "--without-gossip",
        ],
        cwd=site.root,
        env={**site.env, "ANALYSIS_PLAYOUTS": str(PLAYOUTS)},
        stdout=log,
        stderr=subprocess.STDOUT,
    )  # fmt: skip
    try:
        yield proc
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


def _watch_analysis(page: Any, api: str) -> tuple[list[str], list[dict[str, Any]]]:
    """The page's requests to the analysis API (their methods, in order) and the messages its
    analysis socket receives, as they happen."""
    asked: list[str] = []
    pushed: list[dict[str, Any]] = []
    page.on("request", lambda r: asked.append(r.method) if r.url.split("?")[0].endswith(api) else None)

    def on_socket(ws: Any) -> None:
        if "/analysis/" in ws.url:
            ws.on("framereceived", lambda frame: pushed.append(json.loads(frame)))

    page.on("websocket", on_socket)
    return asked, pushed


def test_the_graph_the_verdicts_and_next_mistake(site: Stack, browser: Any, screenshots: Any) -> None:
    # The analysis's luck is seeded from the game's id, which depends on the games stored before
    # in the run: a game whose tiny-budget analysis labels fewer than two decisions is replaced.
    for seed in range(3, 9):
        game = store_game(long_game(300, seed=seed), NAMES)
        analysis = json.loads(analysis_run(game.pk, playouts=PLAYOUTS).body)
        labelled = sorted(d["step"] for d in analysis["decisions"] if d["label"])
        if len(labelled) >= 2:
            break
    assert len(labelled) >= 2, "the tiny budget labelled too few decisions for this test"
    steps = len(analysis["chances"])

    page = _open(browser, f"{site.url()}/replays/{game.pk}/")
    page.wait_for_selector("#analysis-chart svg")
    assert page.locator("#analysis-ask").is_hidden()
    chart = page.locator("#analysis-chart")
    assert chart.locator(".win-line").count() == 4 and chart.locator(".win-baseline").count() == 1
    assert chart.locator(".win-mark").count() == len(labelled)
    # The lines are the players' own colours on the page (the capacity chart's).
    assert chart.locator('.win-line[data-seat="1"]').get_attribute("stroke") == "#c2410c"
    assert page.locator("#analysis-legend").inner_text().split("\n")[:4] == NAMES
    assert page.locator("#analysis-accuracy-rows tr").count() == 4

    # Click the graph halfway: the replay jumps there, and the marker follows.
    chart.scroll_into_view_if_needed()
    box = chart.bounding_box()
    chart.click(position={"x": box["width"] * 0.5, "y": box["height"] * 0.2})
    half = _step(page)
    plot = box["width"] - GUTTER  # the scale's strip is left of the graph
    assert abs(half - round((box["width"] * 0.5 - GUTTER) / plot * (steps - 1))) <= 2
    marker = float(chart.locator(".win-current").get_attribute("x1"))
    assert abs(marker - (box["width"] * 0.5 - GUTTER)) <= 4
    # The scale's words stand left of every line and mark (a mark at 0% hid the "0%").
    scale_right = page.evaluate(
        "Math.max(...[...document.querySelectorAll('#analysis-chart .win-scale')]"
        ".map((t) => t.getBoundingClientRect().right))"
    )
    drawn_left = page.evaluate(
        "Math.min(...[...document.querySelectorAll('#analysis-chart .win-line, #analysis-chart .win-mark')]"
        ".map((t) => t.getBoundingClientRect().left))"
    )
    assert scale_right <= drawn_left, (scale_right, drawn_left)
    # A key to the dots: each label's mark and word.
    assert page.locator("#analysis-marks .analysis-mark-key").all_inner_texts() == [
        "?! inaccuracy",
        "? mistake",
        "?? blunder",
    ]
    # Keyboard: the graph takes the focus, and the arrows move the steps.
    chart.focus()
    page.keyboard.press("ArrowRight")
    assert _step(page) == half + 1
    assert chart.get_attribute("aria-valuenow") == str(half + 1)
    assert chart.get_attribute("aria-valuetext").startswith(f"Step {half + 1}: ann ")

    # Next mistake: from the start, the first labelled decision; its verdict says what was better.
    page.keyboard.press("Home")
    page.click("#replay-next-mistake")
    assert _step(page) == labelled[0]
    verdict = page.locator("#replay-verdict")
    assert verdict.is_visible() and "better:" in verdict.inner_text() and "%" in verdict.inner_text()
    line = page.locator(f'#replay-log li[data-step="{labelled[0]}"]')
    assert "better:" in line.locator(".rp-verdict").inner_text()
    assert page.locator("#replay-log .rp-verdict").count() == len(labelled)
    page.keyboard.press("n")
    assert _step(page) == labelled[1]
    page.keyboard.press("Shift+N")
    assert _step(page) == labelled[0]
    page.wait_for_function(LANDED)
    page.screenshot(path=str(screenshots / "replay-analysis-1280.png"), full_page=True)
    assert not serious_violations(page)

    # One player's decisions: the log shows only theirs, the graph marks only theirs.
    seat = next(d["seat"] for d in analysis["decisions"] if d["label"])
    theirs = [d for d in analysis["decisions"] if d["seat"] == seat]
    page.select_option("#analysis-filter", str(seat))
    assert chart.locator(".win-mark").count() == sum(1 for d in theirs if d["label"])
    assert chart.locator(f'.win-mark:not([data-seat="{seat}"])').count() == 0
    assert page.locator("#replay-log li:visible").count() == len(theirs)
    page.keyboard.press("End")
    page.keyboard.press("n")  # round to their first
    assert _step(page) == min(d["step"] for d in theirs if d["label"])
    page.select_option("#analysis-filter", "")
    # Another perspective rebuilds the log: the verdicts are drawn on it again.
    page.select_option("#replay-perspective", "spectator")
    page.wait_for_function("() => document.querySelector('#replay').dataset.perspective === 'spectator'")
    assert page.locator("#replay-log .rp-verdict").count() == len(labelled)
    page.close()

    # Expected placings and luck against skill, when the analysis has them (made here from the
    # chances where this version lacks them): the figures name the placing, the luck table shows.
    if "placings" not in analysis or "luck" not in analysis:
        analysis["placings"] = [
            [1 + sum(c > mine for c in row) for mine in row] for row in analysis["chances"]
        ]
        result = analysis["chances"][-1]
        analysis["luck"] = [
            {"decisions": -0.04 * s, "draws": 0.03, "others": result[s] - 0.25 + 0.04 * s - 0.03}
            for s in range(4)
        ]
        GameAnalysis.objects.filter(game=game).update(body=analysis_json(analysis))
    if "luck_se" not in analysis:
        analysis["luck_se"] = [{"decisions": 0.0974, "draws": 0.2311, "others": 0.2505} for _ in range(4)]
        GameAnalysis.objects.filter(game=game).update(body=analysis_json(analysis))

    # A phone, in Czech: nothing wider than the screen, the graph and the tables fit.
    phone = _open(browser, f"{site.url()}/replays/{game.pk}/?step={labelled[0]}", width=360, locale="cs-CZ")
    phone.wait_for_selector("#analysis-chart svg")
    assert phone.inner_text("#analysis-title") == "Kdo vyhrával"
    assert "lépe:" in phone.inner_text("#replay-verdict")
    assert phone.inner_text("#analysis-figures").startswith("Šance na výhru v tomto kroku: ann ")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    for selector in ("#analysis-chart", "#analysis-accuracy", "#analysis-luck", ".replay-toolbar"):
        right = phone.locator(selector).bounding_box()
        assert right["x"] >= 0 and right["x"] + right["width"] <= 360, selector
    assert phone.locator("#replay-verdict").is_visible() and phone.locator("#analysis-luck").is_visible()
    # Each luck figure per decision ± its standard error, in points with a decimal comma; what the
    # figures mean, and why they are noisy.
    judged = [sum(1 for d in analysis["decisions"] if d["seat"] == seat) for seat in range(4)]
    se = analysis["luck_se"][1]["draws"] / judged[1]
    cs_se = f"{_js_round(1000 * se) / 10:.1f}".replace(".", ",")
    cs_cell = phone.locator('#analysis-luck-rows tr[data-seat="1"] td[data-part="draws"]')
    assert cs_cell.locator(".luck-se").inner_text() == f"±\u00a0{cs_se}"
    assert "směrodatná chyba" in phone.inner_text("#analysis-luck-note")
    assert "na jedno své rozhodnutí" in phone.inner_text("#analysis-luck-meaning")
    assert phone.inner_text("#analysis-luck caption") == "Štěstí proti umu, na jedno rozhodnutí"
    assert phone.locator("#analysis-marks .analysis-mark-key").all_inner_texts()[2] == "?? hrubá chyba"
    assert phone.locator("#analysis-luck-note").is_visible()
    for selector in ("#analysis-luck-note", "#analysis-luck .luck-se >> nth=-1"):
        right = phone.locator(selector).bounding_box()
        assert right["x"] >= 0 and right["x"] + right["width"] <= 360, selector
    phone.screenshot(path=str(screenshots / "replay-analysis-360.png"), full_page=True)
    assert not serious_violations(phone)
    phone.close()

    page = _open(browser, f"{site.url()}/replays/{game.pk}/?step={labelled[0]}")
    page.wait_for_selector("#analysis-luck:not([hidden])")
    # The page rounds a half up, as a browser does (3.25 is "3.3"; Python's format says "3.2").
    place = Decimal(analysis["placings"][labelled[0]][0]).quantize(Decimal("0.1"), ROUND_HALF_UP)
    assert f"ann {_js_round(100 * analysis['chances'][labelled[0]][0])}% (place {place})" in page.inner_text(
        "#analysis-figures"
    )
    rows = page.locator("#analysis-luck-rows tr")
    assert rows.count() == 4
    # Per decision of the player, to a tenth: on the graph's scale (a game's sums read "+155").
    own = _js_round(1000 * analysis["luck"][1]["decisions"] / judged[1])
    first = rows.nth(1).locator("td").first
    assert first.locator(".luck-figure").inner_text() == (
        f"+{own / 10:.1f}" if own > 0 else f"−{-own / 10:.1f}" if own else "0.0"
    )
    own_se = f"{_js_round(1000 * analysis['luck_se'][1]['decisions'] / judged[1]) / 10:.1f}"
    assert first.locator(".luck-se").inner_text() == f"±\u00a0{own_se}"  # a decimal point in English
    counted = page.locator('#analysis-luck-rows tr[data-seat="1"] [data-part="judged"]')
    assert counted.inner_text() == f"{judged[1]} decisions"
    assert "standard error" in page.inner_text("#analysis-luck-note")
    assert "profile" in page.inner_text("#analysis-luck-note")
    assert "per decision of the player" in page.inner_text("#analysis-luck-meaning")
    page.locator("#replay-analysis").screenshot(path=str(screenshots / "replay-analysis-tables.png"))
    page.close()

    # In Czech on a desktop: the long name whole in both tables (there is room for it).
    cs = _open(browser, f"{site.url()}/replays/{game.pk}/", locale="cs-CZ")
    cs.wait_for_selector("#analysis-luck:not([hidden])")
    for table in ("#analysis-accuracy-rows", "#analysis-luck-rows"):
        cell = cs.locator(f'{table} tr[data-seat="3"] th')
        assert cell.inner_text().strip().split("\n")[0] == NAMES[3]
        assert cell.evaluate("(th) => th.scrollWidth <= th.clientWidth"), table
    cs.locator("#replay-analysis").screenshot(path=str(screenshots / "replay-analysis-tables-cs.png"))
    cs.close()


def test_analyse_a_game_and_watch_its_progress(site: Stack, browser: Any, screenshots: Any) -> None:
    game = store_game(long_game(300, seed=5), NAMES)
    person(site.url(), "eve")
    # Signed out: the page offers to sign in, not the button.
    page = _open(browser, f"{site.url()}/replays/{game.pk}/")
    page.wait_for_selector("#analysis-ask:not([hidden])")
    assert page.locator("#analysis-request").count() == 0
    assert "Sign in to analyse" in page.inner_text("#analysis-ask")
    page.close()

    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    sign_in(page, site.url(), "eve")
    api = f"/api/replays/{game.pk}/analysis/"
    asked, pushed = _watch_analysis(page, api)
    page.goto(f"{site.url()}/replays/{game.pk}/")
    page.wait_for_selector("#analysis-request:visible")
    page.evaluate("window.sameDocument = true")  # gone if the page reloads
    page.click("#analysis-request")
    # No worker serves the analysis queue yet: the request waits, and the page says so.
    page.wait_for_selector("#analysis-progress:not([hidden])")
    assert "Waiting for a worker" in page.inner_text("#analysis-progress-text")
    assert AnalysisRequest.objects.get(game=game).status == RequestStatus.QUEUED
    page.locator("#replay-analysis").screenshot(path=str(screenshots / "replay-analysis-queued.png"))
    # A page opened while it waits follows it too: its socket opens on load.
    late = context.new_page()
    late_asked, late_pushed = _watch_analysis(late, api)
    late.goto(f"{site.url()}/replays/{game.pk}/")
    late.wait_for_selector("#analysis-progress:not([hidden])")
    for each in (page, late):  # both sockets have said where it stands: the worker may start
        each.wait_for_selector('#replay-analysis[data-socket="following"]')
    with analysis_worker(site):
        page.wait_for_selector("#analysis-chart svg", timeout=60_000)
        late.wait_for_selector("#analysis-chart svg", timeout=60_000)
    assert page.evaluate("window.sameDocument") is True
    assert page.locator("#analysis-ask").is_hidden()
    assert page.locator("#analysis-accuracy-rows tr").count() == 4
    row = AnalysisRequest.objects.get(game=game)
    assert row.status == RequestStatus.DONE and row.done == row.total == game.last_seq
    # The progress came over the socket: the page asked the API on load, asked for the analysis
    # (POST) and fetched it once when told it was stored; nothing in between.
    assert asked == ["GET", "POST", "GET"]
    assert late_asked == ["GET", "GET"]
    # The person who asked is told on their open pages too (a notification on the same socket),
    # and the bell says so.
    for got in (pushed, late_pushed):
        told = [m for m in got if m["type"] == "notification"]
        assert told == [
            {"type": "notification", "unread": 1, "kind": "analysis_ready", "url": f"/replays/{game.pk}/"}
        ]
    page.wait_for_selector(".nav-bell-count")
    assert page.locator(".nav-bell").get_attribute("data-unread") == "1"
    for got in (
        [m for m in pushed if m["type"] == "analysis"],
        [m for m in late_pushed if m["type"] == "analysis"],
    ):
        statuses = [m["status"] for m in got]
        assert statuses[0] == "queued" and statuses[-1] == "done", statuses
        running = [m["progress"]["done"] for m in got if m["status"] == "running"]
        assert running and max(running) == game.last_seq  # the worker's progress, pushed
        assert all("analysis" not in m for m in got)
    context.close()
