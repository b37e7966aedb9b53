"""A smoke run of `manage.py bench_service` with tiny numbers: it runs and prints every figure."""

from __future__ import annotations

import re
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import connection

pytestmark = pytest.mark.django_db(transaction=True)


def test_bench_service_prints_every_figure():
    out = StringIO()
    call_command(
        "bench_service",
        "--commands=30",
        "--games=2",
        "--threads=2",
        "--load-events=200",
        "--load-runs=3",
        stdout=out,
    )
    text = out.getvalue()
    for label in (
        "(a) one game: commands accepted per second",
        "(a) one game: submit latency p50",
        "(a) one game: submit latency p99",
        "(b) 2 games/2 threads: commands accepted per second",
        "(b) 2 games/2 threads: submit latency p50",
        "(b) 2 games/2 threads: submit latency p99",
        "-event game, snapshot",
        "-event game, no snapshot",
    ):
        assert label in text, text
    assert "30 commands in" in text
    assert "(a) one game: CPU per command, this process" in text, text


@pytest.mark.skipif(connection.vendor != "postgresql", reason="reads a PostgreSQL backend's CPU")
def test_bench_service_reads_the_database_backends_cpu():
    out = StringIO()
    call_command(
        "bench_service", "--commands=200", "--games=1", "--threads=1", "--load-events=50", stdout=out
    )
    found = re.search(r"CPU per command, PostgreSQL\s+([0-9.]+) ms", out.getvalue())
    assert found and float(found.group(1)) > 0, out.getvalue()
