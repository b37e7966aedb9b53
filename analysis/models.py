"""A game's analysis: a projection of its event log (harehra/analysis.py), rebuildable at will."""

from __future__ import annotations

from django.db import models

from games.models import Game


class GameAnalysis(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="analyses")
    version = models.PositiveSmallIntegerField()  # harehra.analysis.ANALYSIS_VERSION when made
    playouts = models.PositiveIntegerField()  # the budget: worlds per step and per option
    # The analysis as canonical JSON text, byte for byte what `analysis_json` gave (a jsonb column
    # would reorder its keys): two runs are compared by these bytes.
    body = models.TextField()
    seconds = models.FloatField()  # the time it took, on the worker that made it
    created_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "version"], name="analysis_game_version")]

    def __str__(self) -> str:
        return f"analysis v{self.version} of game {self.game_id}"
