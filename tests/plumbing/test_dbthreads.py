"""ORM work a socket runs on the thread pool (plumbing/dbthreads.py) gives its connection back
to the process's pool when the call returns: a pool thread that ends (its loop's executor shut
down, as every test's loop is) keeps none, so the pool never runs dry."""

from __future__ import annotations

import asyncio
import functools

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


def test_db_keeps_one_wrapper_per_module_function_and_none_for_what_is_made_per_call():
    from plumbing import dbthreads

    def made_here() -> int:
        return 1

    assert dbthreads.db(_module_level) is dbthreads.db(_module_level)
    before = len(dbthreads._WRAPPED)
    for _ in range(3):
        dbthreads.db(made_here)
        dbthreads.db(lambda: 2)
        dbthreads.db(functools.partial(_module_level))
    assert len(dbthreads._WRAPPED) == before


def _module_level() -> int:
    return 0
