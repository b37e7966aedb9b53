"""A game's analysis: a projection of its event log (harehra/analysis.py), rebuildable at will."""

from __future__ import annotations

from django.conf import settings
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


class RequestStatus(models.TextChoices):
    QUEUED = "queued"
    RUNNING = "running"
    DONE = "done"
    FAILED = "failed"


class AnalysisRequest(models.Model):
    """A game's analysis asked for (the replay page's "Analyse" button) or begun by a worker (an
    automatic one): where it stands and how far it got, which the replay page is told over its
    analysis socket (analysis/publish.py). One per game and version: a second person asking for
    the same game waits for the same analysis."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="analysis_requests")
    version = models.PositiveSmallIntegerField()
    # Who asked (None: an automatic analysis): their one pending request at a time counts it.
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    status = models.CharField(max_length=8, choices=RequestStatus.choices)
    done = models.PositiveIntegerField(default=0)  # steps analysed so far
    total = models.PositiveIntegerField(default=0)  # steps in the game (0 until the worker starts)
    code = models.CharField(max_length=40, blank=True)  # why it failed
    asked_at = models.DateTimeField()  # queued (again) at
    # The worker's last word, set by every progress write: a running request long silent is stale.
    updated_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "version"], name="analysis_request_game_version")
        ]
        indexes = [models.Index(fields=["requested_by", "status"], name="analysis_request_pending")]

    def __str__(self) -> str:
        return f"analysis v{self.version} request of game {self.game_id}: {self.status}"
