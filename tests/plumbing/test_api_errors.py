"""Django's error views under overload: the pool's timeout waiting for a database connection."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def test_a_request_that_waited_out_the_database_pool_is_told_to_retry(
    monkeypatch: pytest.MonkeyPatch, settings: Any
) -> None:
    """Overload is not a bug: the pool's timeout is a 503 with Retry-After, JSON under /api/ and a
    page with no database read elsewhere (its header would wait for a connection again)."""
    from django.db import OperationalError
    from psycopg_pool import PoolTimeout

    settings.DEBUG = False

    def no_connection(*args: Any, **kwargs: Any) -> Any:
        try:
            raise PoolTimeout("couldn't get a connection after 20.00 sec")
        except PoolTimeout as e:
            raise OperationalError(str(e)) from e  # as Django's error wrapper raises it

    monkeypatch.setattr("ratings.api.leaderboard", no_connection)
    r = Client(raise_request_exception=False).get("/api/ratings/leaderboard/")
    assert r.status_code == 503 and r["Retry-After"] == "5"
    assert r.json()["code"] == "busy"
    monkeypatch.setattr("ratings.views.leaderboard", no_connection)
    page = Client(raise_request_exception=False).get("/leaderboard/")
    assert page.status_code == 503 and page["Retry-After"] == "5"
    assert "site.css" in page.content.decode() and "busy" in page.content.decode()
