"""The Prometheus scrape is served on a server's own address only (docs/OPERATIONS.md, "Metrics"):
through the production shape's nginx (scripts/prod, deploy/nginx/harehra.conf) /metrics is not
there, token or not, however the path is spelt; on a server directly the token still opens it."""

from __future__ import annotations

import shutil
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from django.db import connection

from bench.deploy import DeployConfig
from bench.kit.stack import ProdStack
from tests.harehra_site.test_deploy_under_load import _free_ports
from tests.redis_server import redis_url
from tests.support.stack import database_url

pytestmark = [pytest.mark.server, pytest.mark.django_db(transaction=True)]


def _get(url: str, headers: dict[str, str]) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=10) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


def test_metrics_are_denied_through_nginx_and_served_on_a_servers_own_address(tmp_path: Path) -> None:
    if shutil.which("nginx") is None:
        pytest.skip("needs Debian's nginx (bash scripts/prod installs it)")
    port = _free_ports(2)
    cfg = DeployConfig(
        servers=1,
        database_url=database_url(connection.settings_dict),
        redis_url=redis_url(10),
        port=port,
        run_dir=tmp_path / "prod",
        migrate=False,
    )
    prod = ProdStack(cfg, print)
    bearer = {"Authorization": f"Bearer {prod.metrics_token}"}
    prod.start()
    try:
        server = f"http://127.0.0.1:{port + 1}"
        status, body = _get(server + "/metrics", bearer)
        assert status == 200 and b"# TYPE harehra_" in body
        assert _get(server + "/metrics", {})[0] == 401
        # What the proxy passes on, the server refuses too: a forwarded scrape (X-Forwarded-For).
        assert _get(server + "/metrics", {**bearer, "X-Forwarded-For": "203.0.113.9"})[0] == 404
        spellings = ("/metrics", "/metrics?x=1", "//metrics", "/%6Detrics", "/metrics/", "/static/../metrics")
        for path in spellings:
            status, body = _get(prod.http_url + path, bearer)
            # nginx's own answer: the request never reached a server.
            assert status in (403, 404) and b"<center>nginx" in body, (path, status, body[:200])
        assert _get(prod.http_url + "/readyz", {})[0] == 200  # nginx itself passes the rest on
    finally:
        prod.stop()
