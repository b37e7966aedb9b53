"""ORM work a socket runs on the thread pool (harehra_site/dbthreads.py) gives its connection back
to the process's pool when the call returns: a pool thread that ends (its loop's executor shut
down, as every test's loop is) keeps none, so the pool never runs dry."""

from __future__ import annotations

import asyncio

import pytest
from channels.testing import WebsocketCommunicator
from django.db import connection

from harehra_site.asgi import application

pytestmark = pytest.mark.django_db(transaction=True)


def _in_use() -> int:
    stats = connection.pool.get_stats()
    return stats["pool_size"] - stats["pool_available"]


async def _open_and_refused() -> None:
    comm = WebsocketCommunicator(application, "/ws/games/987654/", headers=[(b"origin", b"http://localhost")])
    await comm.connect()
    assert (await comm.receive_output(timeout=5))["code"] == 4403  # read on the pool: no such game
    await comm.disconnect()


def test_a_sockets_reads_on_the_thread_pool_give_their_connections_back() -> None:
    if connection.vendor != "postgresql" or not connection.settings_dict["OPTIONS"].get("pool"):
        pytest.skip("the connection pool is PostgreSQL's")
    connection.ensure_connection()  # this thread's own, taken before counting
    before = _in_use()
    for _ in range(5):  # each loop's executor threads end with their loop
        asyncio.run(_open_and_refused())
    assert _in_use() == before
