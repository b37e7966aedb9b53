"""One client flooding the costly endpoints of a running site (import, frames, analysis requests), a
phase each, while a seated player reads their game every 250 ms (docs/OPERATIONS.md, "What a request
costs"). Its games and accounts (`flood-*`) are written to the site's database and left there."""

from __future__ import annotations

import json
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

import requests

from bench.kit.stats import percentile

PHASES = ("quiet", "import", "frames", "analysis")


@dataclass
class FloodConfig:
    base: str = "http://127.0.0.1:8080"
    seconds: float = 60.0
    connections: int = 8
    askers: int = 20
    events: int = 700
    phases: tuple[str, ...] = PHASES


@dataclass
class PhaseResult:
    name: str
    seconds: float = 0.0
    answers: Counter[str] = field(default_factory=Counter)
    player_ms: list[float] = field(default_factory=list)
    player_errors: int = 0
    queue_max: int = 0
    analyses_done: int = 0


def _setup(cfg: FloodConfig, write: Callable[[str], None]) -> dict[str, Any]:
    from django.contrib.auth import get_user_model

    from accounts.services import user_token
    from bench.stored_games import long_game, store_game
    from games.services.tables import TableSettings, table_create, table_join, table_start

    stamp = time.strftime("%H%M%S")
    User = get_user_model()
    target = store_game(long_game(cfg.events, 1), [f"flood-{stamp}-t{i}" for i in range(4)])
    players = [User.objects.create(username=f"flood-{stamp}-p{i}") for i in range(2)]
    table = table_create(host=players[0], settings=TableSettings(seats=2, rated=False))
    table_join(table=table, user=players[1], invite_code=table.invite_code)
    running = table_start(table=table, user=players[0])
    games_each = 2 if "analysis" in cfg.phases else 0
    askers = []
    for a in range(cfg.askers if games_each else 0):
        user = User.objects.create(username=f"flood-{stamp}-a{a}")
        games = [
            store_game(
                long_game(cfg.events, 100 + a * games_each + k),
                [f"flood-{stamp}-a{a}g{k}s{i}" for i in range(4)],
            ).pk
            for k in range(games_each)
        ]
        askers.append((user_token(user=user), games))
    document = requests.get(f"{cfg.base}/api/replays/{target.pk}/export/", timeout=30).content
    write(
        f"target game {target.pk}: {target.last_seq} events, export {len(document) / 1024:.0f} KiB; "
        f"seated player's game {running.pk}; {len(askers)} askers with {games_each} games each"
    )
    return {
        "target": target.pk,
        "document": document,
        "running": running.pk,
        "player_token": user_token(user=players[0]),
        "askers": askers,
    }


def _player(cfg: FloodConfig, ctx: dict[str, Any], result: PhaseResult, stop: threading.Event) -> None:
    session = requests.Session()
    headers = {"Authorization": f"Token {ctx['player_token']}"}
    url = f"{cfg.base}/api/games/{ctx['running']}/"
    while not stop.is_set():
        t = time.perf_counter()
        try:
            r = session.get(url, headers=headers, timeout=30)
            ok = r.status_code == 200
        except requests.RequestException:
            ok = False
        if ok:
            result.player_ms.append((time.perf_counter() - t) * 1000)
        else:
            result.player_errors += 1
        stop.wait(0.25)


def _code(r: requests.Response) -> str:
    if r.status_code < 400:
        return str(r.status_code)
    try:
        return f"{r.status_code} {r.json().get('code')}"
    except ValueError:
        return str(r.status_code)


def _hammer(
    ask: Callable[[requests.Session], requests.Response], result: PhaseResult, stop: threading.Event
) -> None:
    session = requests.Session()
    lock = threading.Lock()
    while not stop.is_set():
        try:
            code = _code(ask(session))
        except requests.RequestException as e:
            code = type(e).__name__
        with lock:
            result.answers[code] += 1


def _asker(
    cfg: FloodConfig, token: str, games: list[int], result: PhaseResult, stop: threading.Event
) -> None:
    from analysis.models import AnalysisRequest, RequestStatus

    session = requests.Session()
    headers = {"Authorization": f"Token {token}"}
    for game in games:
        while not stop.is_set():
            try:
                r = session.post(f"{cfg.base}/api/replays/{game}/analysis/", headers=headers, timeout=30)
                code = _code(r)
            except requests.RequestException as e:
                code = type(e).__name__
            result.answers[code] += 1
            if code in ("200", "202"):
                break
            stop.wait(2.0)
        while not stop.is_set():  # theirs done (or given up): the next
            row = AnalysisRequest.objects.filter(game_id=game).first()
            if row is None or row.status not in (RequestStatus.QUEUED, RequestStatus.RUNNING):
                break
            stop.wait(1.0)


def _queue_watch(result: PhaseResult, stop: threading.Event) -> None:
    from analysis.services import analyses_requested_pending

    while not stop.is_set():
        result.queue_max = max(result.queue_max, analyses_requested_pending())
        stop.wait(1.0)


def _phase(cfg: FloodConfig, ctx: dict[str, Any], name: str) -> PhaseResult:
    result = PhaseResult(name)
    stop = threading.Event()
    threads = [threading.Thread(target=_player, args=(cfg, ctx, result, stop))]
    base, target = cfg.base, ctx["target"]
    if name == "import":
        document = ctx["document"]
        headers = {"Content-Type": "application/json"}
        for _ in range(cfg.connections):
            threads.append(
                threading.Thread(
                    target=_hammer,
                    args=(
                        lambda s: s.post(
                            f"{base}/api/replays/import/", data=document, headers=headers, timeout=60
                        ),
                        result,
                        stop,
                    ),
                )
            )
    elif name == "frames":
        for _ in range(cfg.connections):
            threads.append(
                threading.Thread(
                    target=_hammer,
                    args=(lambda s: s.get(f"{base}/api/replays/{target}/frames/", timeout=60), result, stop),
                )
            )
    elif name == "analysis":
        threads.append(threading.Thread(target=_queue_watch, args=(result, stop)))
        for token, games in ctx["askers"]:
            threads.append(threading.Thread(target=_asker, args=(cfg, token, games, result, stop)))
    started = time.monotonic()
    for t in threads:
        t.start()
    time.sleep(cfg.seconds)
    stop.set()
    for t in threads:
        t.join()
    result.seconds = time.monotonic() - started
    if name == "analysis":
        from django.utils import timezone

        from analysis.models import AnalysisRequest, RequestStatus

        since = timezone.now() - timedelta(seconds=result.seconds)
        games = [g for _, gs in ctx["askers"] for g in gs]
        done = AnalysisRequest.objects.filter(
            game_id__in=games, status=RequestStatus.DONE, updated_at__gte=since
        )
        result.analyses_done = done.count()
    return result


def format_phase(r: PhaseResult) -> str:
    per_minute = ", ".join(f"{code}: {n * 60 / r.seconds:.0f}/min" for code, n in sorted(r.answers.items()))
    p = r.player_ms
    p50, p95, top = percentile(p, 50), percentile(p, 95), max(p, default=float("nan"))
    line = (
        f"{r.name:9s} {r.seconds:5.0f} s  flood answers: {per_minute or '-'}\n"
        f"          seated player's GET /api/games/<id>/: p50 {p50:.0f} ms, p95 {p95:.0f} ms, "
        f"max {top:.0f} ms (n={len(p)}, errors {r.player_errors})"
    )
    if r.name == "analysis":
        line += (
            f"\n          requested analyses queued or running: at most {r.queue_max}; "
            f"done in the phase: {r.analyses_done} ({r.analyses_done * 3600 / r.seconds:.0f} an hour)"
        )
    return line


def run_flood(cfg: FloodConfig, write: Callable[[str], None] = print) -> list[PhaseResult]:
    ctx = _setup(cfg, write)
    results = []
    for name in cfg.phases:
        r = _phase(cfg, ctx, name)
        write(format_phase(r))
        results.append(r)
    per_minute = {r.name: {k: round(v * 60 / r.seconds) for k, v in r.answers.items()} for r in results}
    write(json.dumps({name: {"per_minute": answers} for name, answers in per_minute.items()}))
    return results
