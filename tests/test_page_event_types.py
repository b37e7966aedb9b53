"""The page scripts name event types in one module, static/js/table/events.js: its list is the
server's (harehra.events.EventType, names and values) and its seat events are the server's.
Node evaluates the module as a browser would load it."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

from harehra.events import SEAT_EVENTS, EventType

ROOT = Path(__file__).resolve().parents[1]
MODULE = ROOT / "static" / "js" / "table" / "events.js"


def _page_lists() -> dict[str, Any]:
    node = shutil.which("node")
    assert node, "Node.js runs the page scripts' tests (scripts/test installs what it needs)"
    script = (
        f"import {{ EventType, SEAT_EVENTS, END_EVENTS }} from {json.dumps(MODULE.as_uri())};"
        "console.log(JSON.stringify({ EventType, SEAT_EVENTS, END_EVENTS }));"
    )
    out = subprocess.run(
        [node, "--input-type=module", "-e", script], capture_output=True, text=True, check=True, timeout=60
    )
    return json.loads(out.stdout)


def test_the_page_scripts_list_of_event_types_is_the_servers() -> None:
    page = _page_lists()
    assert page["EventType"] == {t.name: t.value for t in EventType}
    assert sorted(page["SEAT_EVENTS"]) == sorted(SEAT_EVENTS)
    assert page["END_EVENTS"] == [EventType.GAME_ENDED.value, EventType.GAME_ABORTED.value]
