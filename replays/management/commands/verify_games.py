"""Check every game's log by the rules: each event must be what the engine decides from the
command it implies (replays.importing.validate_document, the importer's own check), the game row
must say what the log's end says, and the snapshot must equal the refolded log."""

from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import BaseCommand

from games.eventlog import fold_from_log
from games.models import Game, GameSnapshot, GameStatus
from harehra import GameState, apply, snapshot_is_current, state_from_dict
from replays.importing import DocumentRefused, validate_document
from replays.selectors import export_document


def game_problems(game: Game) -> list[str]:
    """What is wrong with one game's log, row and snapshot (nothing: an empty list)."""
    try:
        imported = validate_document(export_document(game))
    except DocumentRefused as refused:
        return [f"its log breaks the rules at {refused.detail} ({refused.reason})"]
    state: GameState | None = None
    for _seq, event in imported.events:
        state = apply(state, event)
    assert state is not None
    problems = []
    if len(imported.events) != game.last_seq:
        problems.append(f"its row says seq {game.last_seq}, its log ends at {len(imported.events)}")
    if state.over:
        aborted = state.result is not None and state.result.value == "aborted"
        status = GameStatus.ABORTED if aborted else GameStatus.FINISHED
        expected = (status, state.result.value if state.result else "", None if aborted else state.winner)
    else:
        expected = (GameStatus.RUNNING, "", None)
    row = (game.status, game.result, game.winner_seat)
    if row != expected:
        problems.append(f"its row says {row}, its log says {expected}")
    snap = GameSnapshot.objects.filter(game=game).first()
    # An older version's snapshot is refolded, never read: there is nothing to compare.
    if snap is None or not snapshot_is_current(snap.state):
        return problems
    if state_from_dict(snap.state) != fold_from_log(game, upto=snap.seq):
        problems.append(f"its snapshot at seq {snap.seq} differs from its log")
    return problems


class Command(BaseCommand):
    help = (
        "Check every game's log event by event against the rules, and its row and snapshot against the log."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        checked = bad = 0
        for game in Game.objects.select_related("table").order_by("pk").iterator():
            checked += 1
            problems = game_problems(game)
            if problems:
                bad += 1
                for p in problems:
                    self.stdout.write(f"game {game.pk}: {p}")
        self.stdout.write(f"{checked} games checked, {bad} with problems")
        if bad:
            sys.exit(1)
