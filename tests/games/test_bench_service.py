"""A smoke run of `manage.py bench_service` with tiny numbers: it runs and prints every figure."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

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
