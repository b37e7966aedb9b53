"""A backup that restores: a pg_dump of a database with finished and running games, restored into
a fresh database, passes verify_games there, gives every replay the same frames, and its running
games go on (docs/OPERATIONS.md, "Backups")."""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any

import pytest
from django.db import connection

from games.frames import ALL, build_frames
from games.models import Game, GameStatus
from replays.selectors import game_events, seat_names
from tests.factories import finished_game, play_out, start_table
from tests.support.stack import ROOT, database_url

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's own dump and restore"),
    pytest.mark.skipif(shutil.which("pg_dump") is None, reason="pg_dump is PostgreSQL's client"),
]

# Run in the restored database: every finished game's frames, and one more move in each running one.
IN_THE_RESTORE = """
import json, django
django.setup()
from games.eventlog import load_state
from games.frames import ALL, build_frames
from games.models import Game, GameSeat, GameStatus
from games.services.moves import game_command_submit
from harehra import legal_commands
from replays.selectors import game_events, seat_names
out = {"frames": {}, "moved": {}}
for game in Game.objects.filter(status=GameStatus.FINISHED).order_by("pk"):
    out["frames"][str(game.pk)] = build_frames(game_events(game), seat_names(game), ALL)
for game in Game.objects.filter(status=GameStatus.RUNNING).order_by("pk"):
    state = load_state(game)
    seat = state.awaiting.seat
    user = GameSeat.objects.get(game=game, seat=seat).user
    command = {k: v for k, v in legal_commands(state, seat)[0].items() if k != "seat"}
    outcome = game_command_submit(game=game, user=user, command=command, client_cmd_id="after-restore")
    out["moved"][str(game.pk)] = [game.last_seq, outcome.last_seq]
print(json.dumps(out))
"""


def _environment(url: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL",)}
    return {
        **env,
        "DATABASE_URL": url,
        "DJANGO_SETTINGS_MODULE": "harehra_site.settings",
        "DB_POOL_SIZE": "0",
    }


def _run(args: list[str], url: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=ROOT, env=_environment(url), capture_output=True, text=True, timeout=300)


def test_a_dump_restores_into_a_fresh_database(make_user: Any, tmp_path: Path) -> None:
    people = [make_user(), make_user()]
    finished = [finished_game(people, seed=seed) for seed in (1, 2)]
    running = play_out(start_table(people), random.Random(3), moves=6)
    assert running.status == GameStatus.RUNNING and all(g.status == GameStatus.FINISHED for g in finished)
    want = {str(g.pk): build_frames(game_events(g), seat_names(g), ALL) for g in finished}

    source = database_url(connection.settings_dict)
    dump = tmp_path / "harehra.dump"
    # The commands docs/OPERATIONS.md gives.
    made = subprocess.run(
        ["pg_dump", "--format=custom", f"--file={dump}", source], capture_output=True, text=True
    )
    assert made.returncode == 0, made.stderr
    name = f"harehra_restore_{uuid.uuid4().hex[:8]}"
    restored = source.rsplit("/", 1)[0] + f"/{name}"
    admin = source.rsplit("/", 1)[0] + "/postgres"
    subprocess.run(["psql", admin, "-c", f'CREATE DATABASE "{name}"'], check=True, capture_output=True)
    try:
        back = subprocess.run(
            ["pg_restore", "--no-owner", "--exit-on-error", f"--dbname={restored}", str(dump)],
            capture_output=True,
            text=True,
        )
        assert back.returncode == 0, back.stderr
        verified = _run([sys.executable, "manage.py", "verify_games"], restored)
        assert verified.returncode == 0, verified.stdout + verified.stderr
        assert f"{len(finished) + 1} games checked, 0 with problems" in verified.stdout
        there = _run([sys.executable, "-c", IN_THE_RESTORE], restored)
        assert there.returncode == 0, there.stderr
        got = json.loads(there.stdout.strip().splitlines()[-1])
        assert got["frames"] == want  # every replay, frame for frame
        before, after = got["moved"][str(running.pk)]
        assert before == Game.objects.get(pk=running.pk).last_seq and after > before  # it goes on
        assert _run([sys.executable, "manage.py", "verify_games"], restored).returncode == 0
    finally:
        subprocess.run(
            ["psql", admin, "-c", f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'], capture_output=True
        )
