"""Production settings from the environment docs/SETTINGS.md documents: `check --deploy` is clean,
plain HTTP is redirected, cookies are Secure, HSTS is on, and every page carries the CSP."""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import Client

ROOT = Path(__file__).resolve().parents[2]
PRODUCTION = {
    "DEBUG": "0",
    "HTTPS": "1",
    "SECRET_KEY": secrets.token_urlsafe(50),
    "ALLOWED_HOSTS": "harehra.test",
    "TRUSTED_PROXIES": "10.0.0.5",
}

PROBE = """
import json, django
django.setup()
from django.test import Client
c = Client(HTTP_HOST="harehra.test")
plain = c.get("/accounts/login/")
secure = c.get("/accounts/login/", secure=True)
print(json.dumps({
    "plain": [plain.status_code, plain.headers.get("Location")],
    "secure": secure.status_code,
    "hsts": secure.headers.get("Strict-Transport-Security"),
    "csrf_cookie_secure": bool(secure.cookies["csrftoken"]["secure"]),
}))
"""


def _env() -> dict[str, str]:
    # Not the test run's own switches (the browser tests allow async-unsafe calls in-process).
    dropped = ("DJANGO_SETTINGS_MODULE", "DJANGO_ALLOW_ASYNC_UNSAFE")
    env = {k: v for k, v in os.environ.items() if k not in dropped}
    return {**env, **PRODUCTION, "DJANGO_SETTINGS_MODULE": "harehra_site.settings"}


def test_check_deploy_is_clean_under_the_production_environment() -> None:
    run = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT, env=_env(), capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert run.returncode == 0, run.stdout + run.stderr
    assert "no issues" in run.stdout


def test_https_settings_redirect_and_mark_cookies_secure() -> None:
    run = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, env=_env(), capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 0, run.stderr
    seen = json.loads(run.stdout.strip().splitlines()[-1])
    assert seen["plain"] == [301, "https://harehra.test/accounts/login/"]
    assert seen["secure"] == 200 and seen["csrf_cookie_secure"] is True
    assert seen["hsts"].startswith("max-age=31536000")


def test_https_without_a_trusted_proxy_refuses_to_start() -> None:
    """Nothing could say a request came over HTTPS (only TRUSTED_PROXIES may): every request would
    be redirected."""
    env = {k: v for k, v in _env().items() if k != "TRUSTED_PROXIES"}
    run = subprocess.run(
        [sys.executable, "manage.py", "check"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert run.returncode != 0 and "HTTPS=1 needs TRUSTED_PROXIES" in run.stderr


@pytest.mark.django_db
def test_every_page_carries_a_policy_of_own_scripts_and_styles() -> None:
    for path in ("/", "/accounts/login/", "/replays/", "/api/docs/", "/api/tables/"):
        csp = Client().get(path).headers["Content-Security-Policy"]
        assert "script-src 'self'" in csp and "style-src 'self'" in csp, path
        assert "unsafe-inline" not in csp and "frame-ancestors 'none'" in csp
