"""What goes to a replica and what comes back to the primary (plumbing/replica.py), decided without
one: the replica's presence and health are stood in for here; tests/harehra_site/test_replica.py
runs the same against a real streaming replica."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection, connections
from django.db.utils import OperationalError
from django.http import HttpRequest, HttpResponse
from django.test import RequestFactory

from plumbing import replica
from plumbing.replica import (
    COOKIE,
    PrimaryNeeded,
    ReadYourWritesMiddleware,
    ReplicaRouter,
    primary_needed,
    reading_replica,
    replica_read,
    replica_view,
)


@pytest.fixture
def healthy(monkeypatch: pytest.MonkeyPatch) -> replica._State:
    """A replica configured and within its lag."""
    state = replica._State(checked_at=float("inf"), lag=0.0)
    monkeypatch.setattr(replica, "_state", state)
    monkeypatch.setattr(replica, "configured", lambda: True)
    return state


def _written(request: HttpRequest) -> HttpRequest:
    """`request` carrying the cookie a write's answer set."""
    answer = ReadYourWritesMiddleware(lambda r: HttpResponse())(RequestFactory().post("/x/"))
    request.COOKIES[COOKIE] = answer.cookies[COOKIE].value
    return request


def test_without_a_replica_everything_reads_the_primary() -> None:
    assert replica_read(reading_replica) is False
    assert ReplicaRouter().db_for_read(object) == "default"


def test_reads_go_to_the_replica_only_inside(healthy: replica._State) -> None:
    router = ReplicaRouter()
    seen: list[Any] = []

    def read() -> bool:
        seen.append(router.db_for_read(object))
        seen.append(router.db_for_write(object))
        return reading_replica()

    assert replica_read(read) is True
    assert seen == ["replica", "default"]
    seen.clear()

    def read_in_a_transaction() -> None:
        connections["default"].in_atomic_block = True  # as transaction.atomic() does
        try:
            seen.append(router.db_for_read(object))
        finally:
            connections["default"].in_atomic_block = False

    replica_read(read_in_a_transaction)
    assert seen == ["default"]
    assert router.db_for_read(object) == "default"  # and after it, the primary again


def test_a_read_that_finds_something_still_changing_runs_again_on_the_primary(
    healthy: replica._State,
) -> None:
    where: list[bool] = []

    def read() -> str:
        where.append(reading_replica())
        primary_needed()
        return "read"

    assert replica_read(read) == "read"
    assert where == [True, False]
    primary_needed()  # on the primary, asking for it again changes nothing


def test_a_replica_that_fails_is_left_alone_and_the_read_is_the_primarys(healthy: replica._State) -> None:
    where: list[bool] = []

    def read() -> str:
        where.append(reading_replica())
        if reading_replica():
            raise OperationalError("the connection was lost")
        return "from the primary"

    assert replica_read(read) == "from the primary"
    assert where == [True, False]
    assert replica_read(reading_replica) is False  # marked down: the next read does not try it
    assert "connection was lost" in healthy.error


def test_a_lagging_replica_serves_nothing(healthy: replica._State, settings: Any) -> None:
    settings.REPLICA_MAX_LAG_SECONDS = 5
    healthy.lag = 6.0
    assert replica_read(reading_replica) is False
    healthy.lag = 4.0
    assert replica_read(reading_replica) is True


def test_a_person_who_just_wrote_reads_the_primary(healthy: replica._State) -> None:
    @replica_view
    def view(request: HttpRequest) -> HttpResponse:
        return HttpResponse("replica" if reading_replica() else "primary")

    assert view(RequestFactory().get("/")).content == b"replica"
    assert view(_written(RequestFactory().get("/"))).content == b"primary"
    forged = RequestFactory().get("/")
    forged.COOKIES[COOKIE] = "1"  # unsigned: nobody's write
    assert view(forged).content == b"replica"


def test_only_a_request_that_may_write_marks_the_person() -> None:
    middleware = ReadYourWritesMiddleware(lambda r: HttpResponse())
    assert COOKIE not in middleware(RequestFactory().get("/")).cookies
    marked = middleware(RequestFactory().delete("/")).cookies[COOKIE]
    assert marked["httponly"] and marked["max-age"] == int(replica.stick_seconds()) + 1


def test_inside_a_transaction_on_the_primary_reads_stay_there(
    healthy: replica._State, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(connections["default"], "in_atomic_block", True)  # as transaction.atomic() does
    assert replica_read(reading_replica) is False


@pytest.mark.django_db
def test_the_lag_query_runs_on_postgresql() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("the replica is a PostgreSQL standby")
    with connection.cursor() as c:
        c.execute("SELECT pg_current_wal_lsn()::text")
        (position,) = c.fetchone()
        c.execute(replica._LAG_SQL, [position])
        in_recovery, _, _ = c.fetchone()
    assert in_recovery is False  # the test database is a primary: never behind itself


def test_primary_needed_is_an_exception_of_its_own() -> None:
    assert not issubclass(PrimaryNeeded, OperationalError)
