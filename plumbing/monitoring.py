"""What the site tells its operators: each HTTP request timed by its URL pattern and logged as one
line (`harehra.requests`), and the Prometheus scrape (`/metrics`), which answers only a bearer of
METRICS_TOKEN. docs/OPERATIONS.md says what is measured and logged."""

from __future__ import annotations

import hmac
import logging
import time
from collections.abc import Callable, Iterator
from functools import cache
from typing import Any

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils.functional import empty
from django.views.decorators.http import require_GET
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, generate_latest
from prometheus_client.core import GaugeMetricFamily, Metric

from plumbing import metrics

requests_log = logging.getLogger("harehra.requests")


def _route(request: HttpRequest) -> str:
    """The URL pattern that answered (never the path itself: ids and keys stay out of labels and
    logs, and the number of labels stays bounded)."""
    match = getattr(request, "resolver_match", None)
    if match is not None:
        return "/" + match.route
    if request.path.startswith(settings.STATIC_URL):
        return settings.STATIC_URL
    return "unmatched"


def _user_id(request: HttpRequest) -> int | None:
    """The signed-in user's id if the request already knows it (never a query of its own)."""
    user = request.__dict__.get("user")
    if user is None or getattr(user, "_wrapped", None) is empty:
        return None
    return user.pk if user.is_authenticated else None


def _finished(request: HttpRequest, response: HttpResponse, started: float) -> None:
    took = time.perf_counter() - started
    route = _route(request)
    metrics.HTTP_LATENCY.labels(route, request.method or "").observe(took)
    metrics.HTTP_RESPONSES.labels(route, f"{response.status_code // 100}xx").inc()
    requests_log.info(
        "request",
        extra={
            "method": request.method,
            "route": route,
            "status": response.status_code,
            "duration_ms": round(took * 1000, 2),
            "user": _user_id(request),
        },
    )


class RequestMetricsMiddleware:
    """Outermost: times every response (static files and refusals too) and marks the moves a
    request makes as started by it (plumbing/metrics.py: `move_origin_set`)."""

    sync_capable = True
    async_capable = True

    def __init__(self, get_response: Callable[[HttpRequest], Any]) -> None:
        self.get_response = get_response
        self.is_async = iscoroutinefunction(get_response)
        if self.is_async:
            markcoroutinefunction(self)

    def __call__(self, request: HttpRequest) -> Any:
        if self.is_async:
            return self._acall(request)
        started = time.perf_counter()
        token = metrics.move_origin_set("http", started)
        try:
            response = self.get_response(request)
        finally:
            metrics.move_origin_reset(token)
        _finished(request, response, started)
        return response

    async def _acall(self, request: HttpRequest) -> HttpResponse:
        started = time.perf_counter()
        token = metrics.move_origin_set("http", started)
        try:
            response = await self.get_response(request)  # type: ignore[misc]
        finally:
            metrics.move_origin_reset(token)
        _finished(request, response, started)
        return response  # type: ignore[no-any-return]


# --- the scrape -----------------------------------------------------------------------------------

# Kombu's Redis transport keeps a queue's messages of priority p > 0 in a list of its own.
_PRIORITY_SEPARATOR, _PRIORITY_STEPS = "\x06\x16", (0, 3, 6, 9)


@cache
def _broker() -> Any:
    import redis

    return redis.Redis.from_url(settings.CELERY_BROKER_URL, socket_timeout=1, socket_connect_timeout=1)


def _broker_metrics() -> Iterator[Metric]:
    """Read at scrape time from Redis, the broker: tasks waiting for a worker, and tasks a worker
    has taken but not finished (those include bots' and timers' tasks waiting for their time)."""
    if not settings.CELERY_BROKER_URL.startswith(("redis://", "rediss://", "unix://")):
        return
    queue = getattr(settings, "CELERY_TASK_DEFAULT_QUEUE", "celery")
    up = GaugeMetricFamily("harehra_broker_up", "1 if the scrape could read the broker (Redis)")
    try:
        pipe = _broker().pipeline(transaction=False)
        for p in _PRIORITY_STEPS:
            pipe.llen(queue if p == 0 else f"{queue}{_PRIORITY_SEPARATOR}{p}")
        pipe.hlen("unacked")
        *lengths, unacked = pipe.execute()
    except Exception:
        logging.getLogger(__name__).warning("the scrape could not read the broker", exc_info=True)
        up.add_metric([], 0)
        yield up
        return
    up.add_metric([], 1)
    yield up
    waiting = GaugeMetricFamily(
        "harehra_celery_queue_length",
        "Tasks in the broker's queue, not yet taken by a worker",
        labels=["queue"],
    )
    waiting.add_metric([queue], sum(lengths))
    yield waiting
    yield GaugeMetricFamily(
        "harehra_celery_unacked_tasks",
        "Tasks taken by workers and not yet done (including bots' and timers' tasks waiting for their time)",
        value=unacked,
    )


class _Scrape:
    """Every process's metrics (or this process's, without PROMETHEUS_MULTIPROC_DIR) and the broker's."""

    def collect(self) -> Iterator[Metric]:
        if metrics.MULTIPROCESS_DIR:
            from prometheus_client.multiprocess import MultiProcessCollector

            yield from MultiProcessCollector(None, metrics.MULTIPROCESS_DIR).collect()
        else:
            yield from REGISTRY.collect()
        yield from _broker_metrics()


def _token_ok(request: HttpRequest) -> bool:
    expected = settings.METRICS_TOKEN
    scheme, _, given = request.headers.get("Authorization", "").partition(" ")
    return (
        bool(expected)
        and scheme.lower() == "bearer"
        and hmac.compare_digest(given.encode(), expected.encode())
    )


@require_GET
def metrics_view(request: HttpRequest) -> HttpResponse:
    """The Prometheus scrape, for a bearer of METRICS_TOKEN only; with no token set it is not there.
    Nor is it for a request a proxy forwarded (it names the client in X-Forwarded-For): the scrape is
    served on a server's own address only, whatever the proxy in front lets through (docs/OPERATIONS.md)."""
    if not settings.METRICS_TOKEN or "HTTP_X_FORWARDED_FOR" in request.META:
        return HttpResponse("not found", status=404, content_type="text/plain")
    if not _token_ok(request):
        response = HttpResponse("a bearer token is required", status=401, content_type="text/plain")
        response["WWW-Authenticate"] = 'Bearer realm="metrics"'
        return response
    return HttpResponse(generate_latest(_Scrape()), content_type=CONTENT_TYPE_LATEST)  # type: ignore[arg-type]
