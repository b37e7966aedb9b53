"""The README's run command (one `serve`, no Redis: the embedded worker) makes the analyses people
ask for: an analyst of its own serves the "analysis" queue, and the analysis is computed in a
child process (analysis/apart.py), so bots and timers never wait behind one."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.request
from typing import Any

import pytest
from rest_framework.authtoken.models import Token

from tests.factories import finished_game
from tests.support.stack import OUTPUT, ROOT, SERVER_SETTINGS, database_url, free_port
from tests.support.waits import wait_until

pytestmark = [pytest.mark.server, pytest.mark.django_db(transaction=True)]


def _call(url: str, token: str, method: str = "GET") -> dict[str, Any]:
    req = urllib.request.Request(url, method=method, headers={"Authorization": f"Token {token}"})
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.load(r)


def test_the_embedded_server_makes_an_analysis_asked_for_on_the_replay(make_user: Any) -> None:
    from django.db import connection

    players = [make_user("ann"), make_user("bob")]
    game = finished_game(players, seed=3, rated=False, replay_access="public")
    token = Token.objects.create(user=make_user("eve")).key
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DJANGO_SETTINGS_MODULE")}
    env |= {
        "DATABASE_URL": database_url(connection.settings_dict),
        "DJANGO_SETTINGS_MODULE": SERVER_SETTINGS,
        "ANALYSIS_PLAYOUTS": "2",
    }
    (OUTPUT / "servers").mkdir(parents=True, exist_ok=True)
    log = open(OUTPUT / "servers" / "embedded-analyst.log", "wb")  # noqa: SIM115
    proc = subprocess.Popen(
        [sys.executable, "manage.py", "serve", "--port", str(port), "--worker", "embedded"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}/api/replays/{game.pk}/analysis/"
    try:

        def up() -> bool:
            assert proc.poll() is None, "the server exited"
            try:
                _call(url, token)
            except OSError:
                return False
            return True

        wait_until(up, "the server did not answer", timeout=60, every=0.2)
        assert _call(url, token, "POST")["status"] in ("queued", "running")
        done = wait_until(
            lambda: (answer := _call(url, token))["status"] == "done" and answer,
            "the embedded server never made the analysis",
            timeout=120,
            every=0.5,
        )
        assert len(done["analysis"]["chances"]) == game.last_seq
        assert done["playouts"] == 2
    finally:
        proc.terminate()
        proc.wait(15)
        log.close()
