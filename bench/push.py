"""How many notifications a minute the worker sends as web push (`manage.py bench_push`).

A Celery worker started as the bench stacks start one (bench/kit/stack.py: threads pool,
concurrency 4, on Redis), and a push service on loopback that takes every message (HTTP/1.1,
kept-alive connections, answering 201 as FCM does). The bench makes `--people` accounts, each
with one subscription there (keys it made and holds), then keeps `--notifications` notifications
through `notification_send` in transactions of `--batch` (each queues its pushes after commit,
as the site does), starts the worker and waits until the push service has taken them all. A
sample of the messages is decrypted with the subscription's keys (http_ece, RFC 8291) to show
they are real pushes.

The notifications are all queued before the worker starts, so the figure is the worker's own
rate (first to last push taken), not how fast this one process keeps notifications; and the
worker's CPU per push. The goal: 10,000 a minute on this machine.
"""

from __future__ import annotations

import base64
import json
import os
import secrets
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from bench.kit.stats import process_cpu_seconds

GOAL_PER_MINUTE = 10_000


@dataclass
class Receiver:
    origin: str
    taken: list[float] = field(default_factory=list)  # when each push was taken
    bodies: list[tuple[str, bytes]] = field(default_factory=list)  # a sample: (path, body)
    lock: threading.Lock = field(default_factory=threading.Lock)


@contextmanager
def receiver(sample: int = 20) -> Iterator[Receiver]:
    holder: list[Receiver] = []

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"  # connections kept alive, as a push service keeps them

        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            r = holder[0]
            with r.lock:
                r.taken.append(time.time())
                if len(r.bodies) < sample:
                    r.bodies.append((self.path, body))
            self.send_response(201)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    holder.append(Receiver(origin=f"http://127.0.0.1:{server.server_address[1]}"))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield holder[0]
    finally:
        server.shutdown()
        server.server_close()


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _browser_keys() -> tuple[Any, str, bytes]:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    key = ec.generate_private_key(ec.SECP256R1())
    point = key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return key, _b64url(point), secrets.token_bytes(16)


@contextmanager
def _one_task_each(on: bool) -> Iterator[None]:
    """With `on`, pushes are queued as servers older than the batches queued them: one task per
    notification, its id alone (the arguments an older worker takes)."""
    if not on:
        yield
        return
    from webpush import followups

    send_task = followups.app.send_task

    def one_each(name: str, args: list[Any]) -> None:
        for pk in args[0]:
            send_task(name, args=[pk])

    followups.app.send_task = one_each  # type: ignore[method-assign]
    try:
        yield
    finally:
        followups.app.send_task = send_task  # type: ignore[method-assign]


def run_compare(ref: str, rounds: int, write: Any, **bench: Any) -> list[str]:
    """`run_bench` with REF's worker, then this checkout's, `rounds` times, in one run."""
    from bench.kit.stack import old_and_new

    lines: list[str] = []
    for r, which, tree, label in old_and_new(ref, rounds, write):
        got = run_bench(root=tree if which == "old" else None, label=f"round {r}, {which}: {label}", **bench)
        for line in got:
            write(line)
        lines += got
    return lines


def run_bench(
    *,
    notifications: int,
    people: int,
    batch: int,
    database_url: str,
    redis_url: str,
    log_dir: Path,
    workers: int = 1,
    root: Path | None = None,
    label: str = "",
) -> list[str]:
    """One run; with `root`, the worker runs that checkout's code (an older commit's, `--compare-ref`),
    fed one task per notification as its servers queued them."""
    import http_ece
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password
    from django.db import transaction

    from bench.kit.stack import ROOT, live_stack
    from notifications.models import Kind
    from notifications.services import notification_send
    from webpush.management.commands.vapid_keys import vapid_key_pair
    from webpush.models import PushSubscription

    public, private = vapid_key_pair()
    # This process queues the pushes: push must be on here as in the worker.
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = public, private
    prefix = f"bp{secrets.token_hex(3)}"
    User = get_user_model()
    password = make_password(None)
    users = User.objects.bulk_create(
        [User(username=f"{prefix}-{i}", password=password) for i in range(people)]
    )
    keys: dict[str, tuple[Any, bytes]] = {}
    lines: list[str] = []
    with receiver() as service:
        subscriptions = []
        for user in users:
            key, p256dh, auth = _browser_keys()
            path = f"/push/{prefix}/{user.pk}"
            keys[path] = (key, auth)
            subscriptions.append(
                PushSubscription(user=user, endpoint=service.origin + path, p256dh=p256dh, auth=_b64url(auth))
            )
        PushSubscription.objects.bulk_create(subscriptions)
        env = {
            "VAPID_PUBLIC_KEY": public,
            "VAPID_PRIVATE_KEY": private,
            "VAPID_SUBJECT": "mailto:bench@harehra.test",
        }
        # The queue is filled first, then the worker started: what it drains a minute is its
        # own rate, not how fast this one process can keep notifications.
        with (
            live_stack(
                database_url=database_url,
                redis_url=redis_url,
                servers=0,
                worker=False,
                log_dir=log_dir,
                root=root or ROOT,
                **env,
            ) as stack,
            _one_task_each(root is not None),
        ):
            started = time.time()
            for first in range(0, notifications, batch):
                with transaction.atomic():
                    for i in range(first, min(first + batch, notifications)):
                        user = users[i % people]
                        notification_send(user_id=user.pk, kind=Kind.ANALYSIS_READY, data={"game": i})
            queued_s = time.time() - started
            for k in range(workers):
                stack.start_worker(beat=k == 0)
            pids = [w.pid for w in stack.workers]
            cpu_before = sum(map(process_cpu_seconds, pids))
            bench_before = process_cpu_seconds(os.getpid())
            deadline = time.time() + max(120.0, notifications / 50)
            while time.time() < deadline and not service.taken:
                time.sleep(0.005)
            # From the first push on: the workers' start (imports, connections) left out.
            cpu_first = sum(map(process_cpu_seconds, pids))
            while time.time() < deadline and len(service.taken) < notifications:
                time.sleep(0.05)
            cpu_end = sum(map(process_cpu_seconds, pids))
            cpu_s = cpu_end - cpu_before
            pushing_s = cpu_end - cpu_first
            bench_s = process_cpu_seconds(os.getpid()) - bench_before
            with service.lock:
                arrivals = list(service.taken)
        samples = list(service.bodies)
    decrypted = 0
    for path, body in samples:
        key, auth = keys[path]
        message = json.loads(http_ece.decrypt(body, private_key=key, auth_secret=auth, version="aes128gcm"))
        decrypted += message["title"] == "Harehra Online" and message["url"].startswith("/replays/")
    got = len(arrivals)
    worker_s = (max(arrivals) - min(arrivals)) if got > 1 else float("nan")
    rate = (got - 1) / worker_s * 60 if got > 1 and worker_s > 0 else float("nan")
    verdict = "met" if rate >= GOAL_PER_MINUTE else "NOT met"
    lines += [
        *([f"--- {label}"] if label else []),
        f"notifications: {notifications} kept for {people} people (one subscription each),"
        f" {batch} a transaction, queued in {queued_s:.1f} s before the worker started",
        f"pushes taken by the push service: {got} of {notifications};"
        f" sample decrypted: {decrypted} of {len(samples)}",
        f"{workers} worker process(es) (threads pool, concurrency 4 each),"
        f" first to last push taken: {rate:,.0f} a minute"
        f" ({worker_s:.1f} s)  [goal {GOAL_PER_MINUTE:,} a minute: {verdict}]",
        f"workers' CPU from their start: {cpu_s:.1f} s, {cpu_s / max(got, 1) * 1000:.2f} ms a push;"
        f" from the first push taken: {pushing_s:.1f} s, {pushing_s / max(got - 1, 1) * 1000:.2f} ms a push;"
        f" the push service (this process, same cores): {bench_s:.1f} s",
    ]
    return lines
