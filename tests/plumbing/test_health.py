"""The health endpoints of real server processes (plumbing/health.py): /healthz answers
while the process runs, /readyz only while PostgreSQL, Redis and the channel layer answer and
every migration is applied; both in JSON naming each check, whatever Host the prober names."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from typing import Any

import pytest
from django.db import connection

from tests.support.stack import OUTPUT, database_url, free_port, live_stack

pytestmark = [
    pytest.mark.server,
    pytest.mark.django_db(transaction=True),
    pytest.mark.stack(redis_db=11, servers=1, worker=False),
]


def _get(url: str, host: str | None = None) -> tuple[int, dict[str, Any]]:
    request = urllib.request.Request(url, headers={"Host": host} if host else {})
    try:
        with urllib.request.urlopen(request, timeout=10) as r:
            return r.status, json.load(r)
    except urllib.error.HTTPError as e:
        return e.code, json.load(e)


def test_a_running_server_is_alive_and_ready(stack):
    assert _get(stack.url() + "/healthz") == (200, {"status": "alive", "draining": False})
    status, body = _get(stack.url() + "/readyz")
    assert status == 200, body
    assert body["status"] == "ready" and body["failed"] == []
    assert set(body["checks"]) == {"draining", "database", "redis", "channel_layer", "migrations"}


def test_probes_need_not_name_an_allowed_host(stack):
    """A prober names the server's address; Django would refuse any Host not in ALLOWED_HOSTS."""
    assert _get(stack.url() + "/healthz", host="10.1.2.3:8001")[0] == 200
    assert _get(stack.url() + "/readyz", host="10.1.2.3:8001")[0] == 200
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(
            urllib.request.Request(stack.url() + "/api/tables/", headers={"Host": "10.1.2.3:8001"}),
            timeout=10,
        )
    assert refused.value.code == 400


def test_a_server_whose_redis_is_unreachable_is_alive_but_not_ready(stack):
    closed = free_port()  # nothing listens there
    with live_stack(
        database_url=database_url(connection.settings_dict),
        redis_url=f"redis://127.0.0.1:{closed}/0",
        servers=1,
        worker=False,
        log_dir=OUTPUT / "servers" / "test_health_no_redis",
        DJANGO_SETTINGS_MODULE="tests.support.server_settings",
    ) as broken:
        assert _get(broken.url() + "/healthz")[0] == 200
        started = time.monotonic()
        status, body = _get(broken.url() + "/readyz")
        took = time.monotonic() - started
    assert status == 503
    assert body["status"] == "unready"
    assert set(body["failed"]) == {"redis", "channel_layer"}, body
    assert body["checks"]["redis"].startswith("Unavailable: Unable to connect to Redis")
    assert body["checks"]["database"] == "OK" and body["checks"]["migrations"] == "OK"
    print(f"readyz with Redis refused answered in {took:.2f} s")


def test_a_server_with_a_migration_unapplied_is_not_ready(stack):
    """One migration's record is taken out of django_migrations (as if the code were newer than
    the database) for a server started then; the record is put back afterwards."""
    with connection.cursor() as cur:
        cur.execute(
            "SELECT id, app, name, applied FROM django_migrations"
            " WHERE app = 'ratings' ORDER BY id DESC LIMIT 1"
        )
        row = cur.fetchone()
        cur.execute("DELETE FROM django_migrations WHERE id = %s", [row[0]])
    try:
        status, body = _get(stack.url(stack.start_server()) + "/readyz")
    finally:
        with connection.cursor() as cur:
            cur.execute("INSERT INTO django_migrations (id, app, name, applied) VALUES (%s, %s, %s, %s)", row)
    assert status == 503
    assert body["failed"] == ["migrations"]
    assert body["checks"]["migrations"] == f"Unavailable: 1 migration(s) not applied: ratings.{row[2]}"
