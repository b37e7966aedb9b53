"""A smoke run of `manage.py bench_tournament` with tiny numbers: a Swiss event of 8 bot-played
entrants is played through to its end and every figure is printed, the refold agreeing."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from tournaments.models import Status, Tournament

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("end_lingering_connections")]


def test_bench_tournament_plays_an_event_to_its_end_and_prints_every_figure() -> None:
    out = StringIO()
    call_command(
        "bench_tournament", "--players=8", "--format=swiss", "--rounds=2", "--threads=2", "--beat=0.5",
        stdout=out,
    )  # fmt: skip
    text = out.getvalue()
    for label in (
        "swiss (tournament ",
        "round 1: 2 tables seated in",
        "round 2: 2 tables seated in",
        "games played 4, results written 16",
        "tables started below 4: 0",
        "standings updates",
        "per result",
        "rebuild_tournament: refolded 4 games; 8 entries; 0 differences (same)",
    ):
        assert label in text, (label, text)
    (t,) = Tournament.objects.all()
    assert t.status == Status.FINISHED and t.current_round == 2
