"""Analyses kept as a projection of finished games' logs: the model, the task and the command, on
real PostgreSQL with games played through the services. A tiny budget keeps them fast."""

from __future__ import annotations

import json
import random
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from analysis.models import GameAnalysis
from analysis.services import AnalysisRefused, analysis_run
from analysis.tasks import analyse_game
from games.models import GameStatus
from harehra.analysis import ANALYSIS_VERSION
from tests.factories import finished_game, play_out, start_table

pytestmark = pytest.mark.django_db

PLAYOUTS = 2


def test_the_same_game_analysed_twice_gives_the_same_bytes(make_user: Any) -> None:
    game = finished_game([make_user(), make_user()], seed=3)
    first = analysis_run(game.pk, playouts=PLAYOUTS).body
    again = analysis_run(game.pk, playouts=PLAYOUTS, rebuild=True)
    assert again.body == first
    assert GameAnalysis.objects.filter(game=game).count() == 1
    data = json.loads(first)
    assert data["version"] == ANALYSIS_VERSION and data["players"] == 2
    assert len(data["chances"]) == game.last_seq  # one per step of the replay (seq 1 is the deal)


def test_a_running_game_is_refused_and_nothing_is_stored(make_user: Any) -> None:
    game = start_table([make_user(), make_user()])
    play_out(game, random.Random(1), moves=3)
    game.refresh_from_db()
    assert game.status == GameStatus.RUNNING
    with pytest.raises(AnalysisRefused) as refused:
        analysis_run(game.pk, playouts=PLAYOUTS)
    assert refused.value.as_dict()["code"] == "game_not_finished"
    analyse_game(game.pk)  # the task logs the refusal, stores nothing, raises nothing
    assert not GameAnalysis.objects.filter(game=game).exists()


def test_the_task_analyses_a_finished_game_once(make_user: Any, settings: Any) -> None:
    settings.ANALYSIS_PLAYOUTS = PLAYOUTS
    game = finished_game([make_user(), make_user()], seed=5)
    analyse_game(game.pk)
    made = GameAnalysis.objects.get(game=game, version=ANALYSIS_VERSION)
    assert made.playouts == PLAYOUTS and json.loads(made.body)["chances"]
    analyse_game(game.pk)  # already there: kept, not remade
    assert GameAnalysis.objects.get(game=game).created_at == made.created_at


def test_the_command_analyses_finished_games_and_rebuilds_on_request(make_user: Any) -> None:
    done = finished_game([make_user(), make_user()], seed=7)
    running = start_table([make_user(), make_user()])
    out, err = StringIO(), StringIO()
    call_command("analyse_games", "--playouts", str(PLAYOUTS), stdout=out, stderr=err)
    assert "1 games analysed" in out.getvalue()
    assert "1/1 games" in err.getvalue()  # the progress bar
    assert GameAnalysis.objects.filter(game=done).exists()
    assert not GameAnalysis.objects.filter(game=running).exists()
    body = GameAnalysis.objects.get(game=done).body
    GameAnalysis.objects.filter(game=done).update(body="stale")
    call_command("analyse_games", "--game", str(done.pk), "--playouts", str(PLAYOUTS), stdout=out, stderr=err)
    assert GameAnalysis.objects.get(game=done).body == "stale"  # kept without --rebuild
    again = ("--game", str(done.pk), "--rebuild", "--playouts", str(PLAYOUTS))
    call_command("analyse_games", *again, stdout=out, stderr=err)
    assert GameAnalysis.objects.get(game=done).body == body
    call_command("analyse_games", "--since", "2999-01-01", "--playouts", "1", stdout=out, stderr=err)
    assert "0 games analysed" in out.getvalue()
    with pytest.raises(CommandError):
        call_command("analyse_games", "--game", str(running.pk), stdout=out, stderr=err)
