"""Values and small rules that the page scripts and the Python code each hold, because both run
them: a page's script works alone in the browser, and the server (or a benchmark that plays a
page) must do what the page does. Each pair is read here from both sides and must agree, so that
changing one copy without the other fails. Node evaluates the page modules as a browser loads them
(as tests/test_page_event_types.py does).

- the socket's reconnection waits (static/js/core/socket.js) and a game socket's pings, resends
  and resumes (core/gamesocket.js), and the benchmarks' scripted pages (bench/kit/client.py, which
  reads the waits' constants from those scripts);
- where the seats sit (static/js/table/tableview.js) and the replay's picture (replays/preview.py).

Bounds the server sets and a page only obeys are given to the page instead (the games an event
page asks for at once, the longest clip: tests/tournaments/test_pages.py, tests/replays/test_clip.py)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

from bench.kit import client as browser
from replays import preview

ROOT = Path(__file__).resolve().parents[1]
JS = ROOT / "static" / "js"

# The waits are compared over every kind of close, tries 0 to 9 and draws across [0, 1).
CODES = (1006, 1001, 1011, 1012, 1013, 4429, 4008, 4403, 4401)
ATTEMPTS = range(10)
DRAWS = (0.0, 0.25, 0.5, 0.999)
CONSTANTS = (
    "FIRST_RETRY_MS",
    "BASE_MS",
    "GROWTH",
    "CAP_MS",
    "SLOW_TRIES",
    "RESTART_MIN_MS",
    "RESTART_SPREAD_MS",
)


def _node(script: str) -> Any:
    """What `script` (an ES module that may import the page modules by `{name}` below) prints as
    JSON."""
    node = shutil.which("node")
    assert node, "Node.js runs the page scripts' tests (scripts/test installs what it needs)"
    modules = {
        "socket": JS / "core" / "socket.js",
        "gamesocket": JS / "core" / "gamesocket.js",
        "tableview": JS / "table" / "tableview.js",
    }
    script = script.format(**{k: json.dumps(v.as_uri()) for k, v in modules.items()})
    out = subprocess.run(
        [node, "--input-type=module", "-e", script], capture_output=True, text=True, check=True, timeout=60
    )
    return json.loads(out.stdout)


def test_the_benchmarks_pages_reconnect_as_the_pages_do() -> None:
    page = _node(
        "import * as s from {socket};"
        f"const codes = {json.dumps(CODES)}, draws = {json.dumps(DRAWS)}, tries = {len(ATTEMPTS)};"
        "const waits = [], closes = [];"
        "for (let a = 0; a < tries; a += 1) for (const r of draws) {{"
        "  waits.push(s.backoffDelay(a, () => r));"
        "  for (const code of codes) for (let slow = 0; slow <= s.SLOW_TRIES + 1; slow += 1) {{"
        "    const c = s.afterClose(code, a, slow, () => r);"
        "    closes.push(c.retry ? [true, c.delay, c.slow] : [false, 0, c.reason === 'limited']);"
        "  }}"
        "}}"
        f"const names = {json.dumps(CONSTANTS)};"
        "const constants = Object.fromEntries(names.map((n) => [n, s[n]]));"
        "console.log(JSON.stringify({{ waits, closes, constants }}));"
    )
    ms = 1000
    assert page["constants"] == {
        "FIRST_RETRY_MS": browser.FIRST_RETRY_S * ms,
        "BASE_MS": browser.BASE_S * ms,
        "GROWTH": browser.GROWTH,
        "CAP_MS": browser.CAP_S * ms,
        "SLOW_TRIES": browser.SLOW_TRIES,
        "RESTART_MIN_MS": browser.RESTART_MIN_S * ms,
        "RESTART_SPREAD_MS": browser.RESTART_SPREAD_S * ms,
    }
    # The page rounds its waits to whole milliseconds; the benchmark keeps seconds.
    waits, closes = [], []
    for a in ATTEMPTS:
        for r in DRAWS:
            waits.append(browser.backoff_delay(a, lambda r=r: r) * ms)
            for code in CODES:
                for slow in range(browser.SLOW_TRIES + 2):
                    retry, delay, slowly = browser.after_close(code, a, slow, lambda r=r: r)
                    closes.append((retry, delay * ms, slowly))
    assert len(page["waits"]) == len(waits) and len(page["closes"]) == len(closes)
    for i, (js, py) in enumerate(zip(page["waits"], waits, strict=True)):
        assert abs(js - py) <= 0.5 + 1e-6, (i, js, py)
    for i, (js, py) in enumerate(zip(page["closes"], closes, strict=True)):
        assert js[0] == py[0] and js[2] == py[2] and abs(js[1] - py[1]) <= 0.5 + 1e-6, (i, js, py)


def test_the_benchmarks_pages_ping_resend_and_resume_as_the_pages_do() -> None:
    page = _node(
        "import {{ PING_MS, RESEND_MS, RESUME_RETRY_MS }} from {gamesocket};"
        "console.log(JSON.stringify([PING_MS, RESEND_MS, RESUME_RETRY_MS]));"
    )
    assert page == [browser.PING_S * 1000, browser.RESEND_S * 1000, browser.RESUME_RETRY_S * 1000]


def test_the_replay_picture_seats_players_where_the_table_does() -> None:
    page = _node(
        "import {{ POSITIONS, seatsInPlayOrder }} from {tableview};"
        "const orders = {{}};"
        "for (let n = 1; n <= 6; n += 1) for (const b of [null, ...Array(n).keys()])"
        "  orders[`${{n}},${{b}}`] = seatsInPlayOrder(n, b);"
        "console.log(JSON.stringify({{ POSITIONS, orders }}));"
    )
    assert page["POSITIONS"] == {str(k): v for k, v in preview.POSITIONS.items()}
    assert set(preview.CENTRES) == {p for row in preview.POSITIONS.values() for p in row} | {"bottom"}
    orders = {
        f"{n},{'null' if b is None else b}": preview.seats_in_play_order(n, b)
        for n in range(1, 7)
        for b in (None, *range(n))
    }
    assert page["orders"] == orders
