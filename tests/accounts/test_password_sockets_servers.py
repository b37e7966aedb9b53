"""A password change ends every other way in (accounts/services.py, user_change_password): the API
token it deletes and the other browsers' sessions. The sockets those signed in are closed as a
sign-out closes them (4403, docs/PROTOCOL.md), on a real server; the socket of the browser that
made the change stays open."""

from __future__ import annotations

import asyncio
import http.cookiejar
import json
import urllib.error
import urllib.request
from typing import Any

import pytest
import websockets

from live.sockets import CLOSE_REFUSED
from tests.live.test_live_servers import _api, _game
from tests.moderation.test_sanction_sockets_servers import LONG, ORIGIN, _last_words, _open, _still_open
from tests.support.stack import Stack

pytestmark = [
    pytest.mark.server,
    pytest.mark.django_db(transaction=True),
    pytest.mark.stack(redis_db=13, servers=1, worker=False),
]
PASSWORD = "correct-horse-battery"  # tests/live/test_live_servers.py, _game


class Browser:
    """A browser signed in with a session (cookies, and the CSRF token it sends back)."""

    def __init__(self, base: str, username: str) -> None:
        self.base, self.jar = base, http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        self.opener.open(f"{base}/accounts/login/", timeout=10).read()  # sets csrftoken
        self.post("/api/accounts/login/", {"username": username, "password": PASSWORD})

    def cookie(self, name: str) -> str:
        return next(c.value for c in self.jar if c.name == name)

    def post(self, path: str, body: dict[str, Any]) -> int:
        request = urllib.request.Request(
            self.base + path,
            data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json", "X-CSRFToken": self.cookie("csrftoken")},
            method="POST",
        )
        with self.opener.open(request, timeout=10) as r:
            return r.status

    async def socket(self, url: str) -> Any:
        return await _open_with(url, {"Cookie": f"sessionid={self.cookie('sessionid')}"})


async def _open_with(url: str, headers: dict[str, str]) -> Any:
    ws = await websockets.connect(url, origin=ORIGIN, additional_headers=headers)
    await asyncio.wait_for(ws.recv(), 10)  # joined its groups
    return ws


def test_a_password_change_closes_the_sockets_of_the_token_and_sessions_it_ended(stack: Stack) -> None:
    ws, base = stack.ws_url(0), stack.url(0)
    game, [(_, token), _] = _game(stack, 2, 0, **LONG)
    username = _api(base, "/api/accounts/me/", token=token)["username"]
    changing, other = Browser(base, username), Browser(base, username)
    game_url = f"{ws}/ws/games/{game.pk}/?batch=1"

    async def run() -> tuple[dict[str, Any], bool]:
        by_token = await _open(f"{game_url}&token={token}")
        table_by_token = await _open(f"{ws}/ws/tables/{game.table_id}/?token={token}")
        by_other = await other.socket(game_url)
        by_changing = await changing.socket(game_url)
        change = {"old_password": PASSWORD, "new_password": "another-horse-9"}
        status = await asyncio.to_thread(changing.post, "/api/accounts/password/", change)
        assert status == 204
        said = {
            "token's game socket": await _last_words(by_token),
            "token's table socket": await _last_words(table_by_token),
            "other session's socket": await _last_words(by_other),
        }
        kept = await _still_open(by_changing)
        await by_changing.close()
        return said, kept

    said, kept = asyncio.run(run())
    for name, (_, code) in said.items():
        assert code == CLOSE_REFUSED, name
    assert kept, "the socket of the browser that made the change was closed"
    # What the change ended signs nothing in any more.
    with pytest.raises(urllib.error.HTTPError) as refused:
        _api(base, "/api/accounts/me/", token=token)
    assert refused.value.code in (401, 403)  # DRF: 403 when the session's scheme is asked first
