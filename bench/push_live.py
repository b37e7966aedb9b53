"""The live bench with every player subscribed to web push, against the same without, in one run
(`manage.py bench_live_push`).

Each round runs the live bench's pages (bench/browser.py: a decision per game every `mean_gap`
seconds on average) twice on fresh games, push on in both (VAPID keys on the servers and the
worker): "without", no player has a subscription; "with", every player has one at a push service
on loopback (bench/push.py's receiver, in this process). A notifier thread keeps `notify_rate`
notifications a second for the bench's players in both (each in its own transaction, as a follow
or a turn's notice is): with subscriptions they become pushes the worker sends while the moves
are played, on the same two cores. What is compared: the moves' p99 (send until every page of the
table holds it) and the servers' CPU per move.
"""

from __future__ import annotations

import math
import random
import threading
import time
from collections.abc import Callable
from typing import Any

from django.core.management.base import CommandError

from bench.browser import BrowserConfig, BrowserResult, _drive_all, format_browser_report, http_db_env
from bench.kit.stack import SEATS, GameSpec
from bench.kit.stats import percentile
from bench.live import run_on_stack
from bench.push import _b64url, _browser_keys, receiver


def _players(specs: list[GameSpec]) -> list[int]:
    from games.models import GameSeat

    seats = GameSeat.objects.filter(game_id__in=[s.game_id for s in specs], user__isnull=False, is_bot=False)
    return list(seats.values_list("user_id", flat=True))


def _subscribe(user_ids: list[int], origin: str) -> None:
    from webpush.models import PushSubscription

    rows = []
    for pk in user_ids:
        _, p256dh, auth = _browser_keys()
        rows.append(
            PushSubscription(user_id=pk, endpoint=f"{origin}/push/{pk}", p256dh=p256dh, auth=_b64url(auth))
        )
    PushSubscription.objects.bulk_create(rows)


class Notifier(threading.Thread):
    """`rate` notifications a second to random players, each in its own transaction."""

    def __init__(self, user_ids: list[int], rate: float, seed: int) -> None:
        super().__init__(daemon=True)
        self.user_ids, self.rate, self.rng = user_ids, rate, random.Random(seed)
        self.stopping = threading.Event()
        self.sent = 0

    def run(self) -> None:
        from django.db import connection, transaction

        from notifications.models import Kind
        from notifications.services import notification_send

        try:
            next_at = time.monotonic()
            while not self.stopping.is_set() and self.rate > 0:
                with transaction.atomic():
                    user_id = self.rng.choice(self.user_ids)
                    notification_send(user_id=user_id, kind=Kind.ANALYSIS_READY, data={"game": self.sent})
                self.sent += 1
                next_at += 1.0 / self.rate
                self.stopping.wait(max(0.0, next_at - time.monotonic()))
        finally:
            connection.close()


def run_live_push_compare(
    cfg: BrowserConfig, rounds: int, notify_rate: float, write: Callable[[str], None]
) -> list[str]:

    from webpush.management.commands.vapid_keys import vapid_key_pair

    public, private = vapid_key_pair()
    env = {
        "VAPID_PUBLIC_KEY": public,
        "VAPID_PRIVATE_KEY": private,
        "VAPID_SUBJECT": "mailto:bench@harehra.test",
    }
    from celery import current_app
    from django.test.utils import override_settings

    # This process keeps the notifications: push on here as on the servers and the worker, and
    # its pushes queued on the stack's broker (its Redis), whatever REDIS_URL this process has.
    broker = current_app.conf.broker_url
    if not str(broker).startswith("redis"):
        # The embedded in-memory broker's connection is made before the URL could be changed:
        # the pushes would be queued where no worker of the stack reads (none taken, silently).
        raise CommandError(
            "bench_live_push queues its notifications' pushes from this process: run it with "
            f"REDIS_URL={cfg.redis_url} (the stack's Redis) in its environment"
        )
    current_app.conf.broker_url = cfg.redis_url
    try:
        with override_settings(VAPID_PUBLIC_KEY=public, VAPID_PRIVATE_KEY=private):
            return _compare(cfg, rounds, notify_rate, write, env)
    finally:
        current_app.conf.broker_url = broker


def _compare(
    cfg: BrowserConfig, rounds: int, notify_rate: float, write: Callable[[str], None], env: dict[str, str]
) -> list[str]:
    import asyncio

    rows: list[tuple[int, str, BrowserResult, int, int]] = []
    with receiver() as service:
        for r in range(1, rounds + 1):
            for arm in ("without", "with"):
                taken_before = len(service.taken)
                notifier: list[Notifier] = []

                async def drive(
                    specs: list[GameSpec],
                    stack: Any,
                    arm: str = arm,
                    r: int = r,
                    notifier: list[Notifier] = notifier,
                ) -> Any:
                    players = await asyncio.to_thread(_players, specs)
                    if arm == "with":
                        await asyncio.to_thread(_subscribe, players, service.origin)
                    n = Notifier(players, notify_rate, seed=r)
                    notifier.append(n)
                    n.start()
                    try:
                        return await _drive_all(cfg, specs, stack, write)
                    finally:
                        n.stopping.set()
                        await asyncio.to_thread(n.join, 10)

                write(f"round {r}, {arm} push subscriptions ...")
                sockets = 6 * (cfg.games * (SEATS + 1) + cfg.lobby_watchers)  # as run_browser_bench
                code, server_env = f" ({arm} subscriptions)", {**http_db_env(cfg), **env}
                result = run_on_stack(cfg, write, drive, sockets, BrowserResult, code, server_env)
                time.sleep(1.0)  # pushes the worker still had queued
                pushes = len(service.taken) - taken_before
                for line in format_browser_report(result):
                    write(f"  {line}")
                rows.append((r, arm, result, notifier[0].sent if notifier else 0, pushes))
    lines = [
        f"bench_live_push: {cfg.games} games x {SEATS} seats, a decision every {cfg.mean_gap:g} s a game,"
        f" {cfg.servers} server(s), {cfg.duration:g} s measured;"
        f" {notify_rate:g} notifications/s to the players in both arms",
        "round  arm      moves acked  p50 ms  p99 ms  servers' CPU ms/move  worker CPU %"
        "  notifications  pushes taken",
    ]
    for r, arm, res, sent, pushes in rows:
        s = res.stats
        servers = sum(v for k, v in res.cpu_s.items() if k.startswith("server "))
        worker = res.cpu_s.get("celery worker", math.nan)
        per_move = servers / s.acked * 1000 if s.acked else math.nan
        p50, p99 = percentile(s.latencies_ms, 50), percentile(s.latencies_ms, 99)
        lines.append(
            f"{r:>5}  {arm:<7}  {s.acked:>11}  {p50:>6.1f}  {p99:>6.1f}"
            f"  {per_move:>20.2f}  {100 * worker / res.window_s:>12.0f}  {sent:>13}  {pushes:>12}"
        )
    for line in ["", *lines]:
        write(line)
    return lines
