"""The metrics scrape and the log lines of real server processes and a real worker, after a whole
game played over their sockets (plumbing/metrics.py, monitoring.py, logs.py)."""

from __future__ import annotations

import asyncio
import http.cookiejar
import json
import tempfile
import urllib.error
import urllib.request
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import websockets
from prometheus_client.parser import text_string_to_metric_families
from rest_framework.authtoken.models import Token

from games.models import Game
from tests.live.client import LiveClient
from tests.support.stack import Stack
from tests.support.waits import db_thread, until, wait_until

METRICS_TOKEN = "scrape-" + uuid.uuid4().hex
PASSWORD = "correct-horse-" + uuid.uuid4().hex[:12]

pytestmark = [
    pytest.mark.server,
    pytest.mark.django_db(transaction=True),
    pytest.mark.stack(
        redis_db=11,
        servers=2,
        BOT_DELAY_SECONDS="0",
        SOCKET_MESSAGES_PER_SECOND="500",
        SOCKET_MESSAGES_BURST="1000",
        METRICS_TOKEN=METRICS_TOKEN,
        # Every process of the stack writes here; a new directory for each run starts from zero.
        PROMETHEUS_MULTIPROC_DIR=tempfile.mkdtemp(prefix="harehra-metrics-"),
        LOG_FORMAT="json",
    ),
]


def _request(url: str, data: dict | None = None, headers: dict | None = None, opener: Any = None) -> Any:
    body = json.dumps(data).encode() if data is not None else None
    req = urllib.request.Request(
        url,
        data=body,
        headers={"Content-Type": "application/json", **(headers or {})},
        method="POST" if body else "GET",
    )
    return (opener.open if opener else urllib.request.urlopen)(req, timeout=10)


def _api(base: str, path: str, data: dict | None = None, token: str | None = None) -> Any:
    with _request(base + path, data, {"Authorization": f"Token {token}"} if token else {}) as r:
        return json.load(r)


def _scrape_status(base: str, authorization: str | None) -> int:
    try:
        with _request(
            base + "/metrics", headers={"Authorization": authorization} if authorization else {}
        ) as r:
            return r.status
    except urllib.error.HTTPError as e:
        return e.code


Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


def _scrape(base: str) -> Samples:
    with _request(base + "/metrics", headers={"Authorization": f"Bearer {METRICS_TOKEN}"}) as r:
        text = r.read().decode()
    return {
        (s.name, frozenset(s.labels.items())): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


def _value(samples: Samples, name: str, **labels: str) -> float:
    """The sum of `name`'s samples whose labels include `labels`."""
    want = set(labels.items())
    return sum(v for (n, ls), v in samples.items() if n == name and want <= ls)


def _label_values(samples: Samples, name: str, label: str) -> set[str]:
    return {dict(ls)[label] for (n, ls) in samples if n == name and label in dict(ls)}


def test_the_scrape_answers_only_the_bearer_of_the_metrics_token(stack: Stack) -> None:
    for i in range(2):
        base = stack.url(i)
        assert _scrape_status(base, None) == 401
        assert _scrape_status(base, "Bearer wrong-" + METRICS_TOKEN) == 401
        assert _scrape_status(base, f"Token {METRICS_TOKEN}") == 401
        assert _scrape_status(base, f"Bearer {METRICS_TOKEN[:-1]}") == 401
        assert _scrape_status(base, f"Bearer {METRICS_TOKEN}") == 200


def _session_sign_in(base: str, username: str) -> http.cookiejar.CookieJar:
    """A browser's sign-in: the session cookie (and the CSRF cookie it needs) in a jar."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    opener.open(base + "/accounts/login/", timeout=10).read()
    csrf = next(c.value for c in jar if c.name == "csrftoken")
    with _request(
        base + "/api/accounts/login/",
        {"username": username, "password": PASSWORD},
        {"X-CSRFToken": csrf, "Referer": base + "/accounts/login/"},
        opener,
    ) as r:
        assert r.status == 200
    assert any(c.name == "sessionid" for c in jar)
    return jar


def _log_lines(stack: Stack) -> Iterator[tuple[str, str]]:
    for path in sorted(stack.log_dir.glob("*.log")):
        for line in path.read_text(errors="replace").splitlines():
            if line.strip():
                yield path.name, line


def _keys(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from _keys(v)
    elif isinstance(value, list):
        for v in value:
            yield from _keys(v)


def test_a_game_on_two_servers_is_measured_and_logged_without_secrets(stack: Stack) -> None:
    base = stack.url(0)
    before = _scrape(base)
    names = [f"obs{i}x{uuid.uuid4().hex[:8]}" for i in range(2)]
    tokens = [
        _api(base, "/api/accounts/register/", {"username": n, "password": PASSWORD})["token"] for n in names
    ]
    # Short timers: a client that misses its turn holds nobody up for long.
    table = _api(
        base,
        "/api/tables/",
        {"seats": 4, "turn_timer": 10, "reaction_timer": 5, "discard_timer": 5},
        tokens[0],
    )
    _api(base, f"/api/tables/{table['id']}/join/", {}, tokens[1])
    for _ in range(2):
        _api(base, f"/api/tables/{table['id']}/add-bot/", {}, tokens[0])
    game_id = _api(base, f"/api/tables/{table['id']}/start/", {}, tokens[0])["current_game"]
    seats = [_api(base, f"/api/games/{game_id}/", token=t)["view"]["seat"] for t in tokens]
    jar = _session_sign_in(stack.url(1), names[0])
    cookies = {c.name: c.value for c in jar}
    user_ids = {t.key: t.user_id for t in Token.objects.filter(key__in=tokens)}

    async def play() -> tuple[list[LiveClient], Samples]:
        players = [LiveClient(game_id, tok, seat) for seat, tok in zip(seats, tokens, strict=True)]
        spectator = LiveClient(game_id, None, None, play=False)
        clients = [*players, spectator]
        # Server 0 has a player and the spectator, server 1 the other player: a push reaches two
        # sockets in one process.
        for c, i in zip(clients, (0, 1, 0), strict=True):
            await c.connect(stack.ws_url(i), stack.url(i))
        table_socket = await websockets.connect(
            f"{stack.ws_url(1)}/ws/tables/{table['id']}/",
            origin="http://localhost",
            additional_headers={"Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items())},
        )
        during = await asyncio.to_thread(
            _scrape_until,
            base,
            lambda s: (
                _value(s, "harehra_websockets_open", kind="game") >= 3
                and _value(s, "harehra_websockets_open", kind="table") >= 1
            ),
            "the scrape never counted the open sockets",
        )
        await asyncio.wait_for(asyncio.gather(*(c.over.wait() for c in clients)), 240)
        last = (await db_thread(lambda: Game.objects.get(pk=game_id))).last_seq
        await until(
            lambda: all(any(m["type"] == "view" and m["seq"] == last for m in c.messages) for c in clients),
            "not every client saw the end",
        )
        for c in clients:
            await c.close()
        await table_socket.close()
        return players, during

    players, during = asyncio.run(play())
    game = Game.objects.get(pk=game_id)
    assert game.status == "finished"
    acks = [(p, m) for p in players for m in p.messages if m["type"] == "ack" and not m["duplicate"]]
    assert acks

    # Sockets closed are no longer counted; the beat's sweep has run at least once (every 5 s).
    after = _scrape_until(
        base,
        lambda s: (
            _value(s, "harehra_websockets_open", kind="game") == 0
            and _value(s, "harehra_websockets_open", kind="table") == 0
            and _value(s, "harehra_sweeps_total") >= 1
        ),
        "the closed sockets were still counted, or no sweep ran",
    )

    def delta(name: str, **labels: str) -> float:
        return _value(after, name, **labels) - _value(before, name, **labels)

    assert delta("harehra_commands_total", outcome="ok") == len(acks)
    assert delta("harehra_appends_total", source="socket") == len(acks)
    assert delta("harehra_move_push_seconds_count", source="socket") == len(acks)
    bot_moves = delta("harehra_appends_total", source="bot")
    assert bot_moves > 0
    assert delta("harehra_task_lateness_seconds_count", task="bot") >= bot_moves
    assert delta("harehra_events_appended_total") >= game.last_seq - 1  # all but the game's first events
    assert delta("harehra_websocket_sessions_total", kind="game") >= 3
    assert delta("harehra_websocket_sessions_total", kind="table") >= 1
    pushes_seen = delta("harehra_push_fanout_sockets_count")
    assert pushes_seen > 0
    # Some pushes reached two sockets of server 0 at once.
    assert delta("harehra_push_fanout_sockets_sum") > pushes_seen
    # Each push seen was delivered at least once. Not one delivery per socket counted in the
    # fan-out: a socket that joined meanwhile may have had the move already from its resume, and
    # one that missed the push before reads the log instead (harehra_push_gaps_total).
    assert delta("harehra_push_deliveries_total") >= pushes_seen
    assert delta("harehra_push_failures_total") == 0
    assert _value(during, "harehra_websockets_open", kind="game") >= 3
    assert _value(after, "harehra_broker_up") == 1
    assert ("harehra_celery_queue_length", frozenset({("queue", "celery")})) in after
    routes = _label_values(after, "harehra_http_request_duration_seconds_count", "route")
    assert {"/api/tables/", "/api/games/<int:pk>/", "/api/accounts/login/"} <= routes
    assert not any(str(game_id) in r or str(table["id"]) in r for r in routes)  # patterns, not paths

    _assert_logs(stack, game_id, table["id"], acks, user_ids, tokens, cookies)


def _scrape_until(base: str, ok: Callable[[Samples], bool], what: str, timeout: float = 20) -> Samples:
    def test() -> Samples | None:
        samples = _scrape(base)
        return samples if ok(samples) else None

    return wait_until(test, what, timeout)


def _assert_logs(
    stack: Stack,
    game_id: int,
    table_id: int,
    acks: list[tuple[LiveClient, dict[str, Any]]],
    user_ids: dict[str, int],
    tokens: list[str],
    cookies: dict[str, str],
) -> None:
    secrets = [PASSWORD, METRICS_TOKEN, *tokens, *cookies.values()]
    records = []
    for name, line in _log_lines(stack):
        leaked = [s for s in secrets if s in line]
        assert not leaked, f"{name}: a secret in a log line: {line}"
        assert "draw_pile" not in line and '"hand' not in line, f"{name}: {line}"
        if line.startswith("{"):
            record = json.loads(line)  # a JSON line is one whole object
            assert not [k for k in _keys(record) if "hand" in k or "draw_pile" in k], line
            records.append(record)

    commands = {(r["game"], r["cmd_id"]): r for r in records if r.get("name") == "harehra.commands"}
    for client, ack in acks:
        line = commands[(game_id, ack["cmd_id"])]
        assert line["seq"] == ack["seq"] and line["outcome"] == "ok" and line["via"] == "socket"
        assert line["user"] == user_ids[client.token] and line["duration_ms"] >= 0
        assert line["levelname"] == "INFO" and line["message"] == "command" and line["timestamp"]

    sockets = [r for r in records if r.get("name") == "harehra.sockets"]
    at_game = [r for r in sockets if r["kind"] == "game" and r["game"] == game_id]
    assert len(at_game) >= 3
    assert {r["user"] for r in at_game} == {*user_ids.values(), None}  # two players and a spectator
    assert all(r["messages_out"] > 0 and r["duration_s"] > 0 for r in at_game)
    assert sum(r["messages_in"] for r in at_game) >= len(acks)
    assert any(
        r["kind"] == "table" and r["table"] == table_id and r["user"] in user_ids.values() for r in sockets
    )

    requests = [r for r in records if r.get("name") == "harehra.requests"]
    assert any(
        r["route"] == "/api/tables/" and r["method"] == "POST" and r["status"] == 201 for r in requests
    )
    assert any(r["route"] == "/api/accounts/login/" and r["status"] == 200 for r in requests)
