"""Ratings: a projection of the finished games' event logs (`rebuild_ratings` refolds them)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from games.models import Game


class Pool(models.TextChoices):
    """A rating is kept overall and per table size."""

    ALL = "all", _("All games")
    TWO = "2", _("2 players")
    THREE = "3", _("3 players")
    FOUR = "4", _("4 players")
    BIG = "5-6", _("5–6 players")


class Placing(models.Model):
    """How one seat of a finished game (rated or casual) placed, with its statistics from the log."""

    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="placings", db_index=False)
    seat = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="placings"
    )
    is_bot = models.BooleanField(default=False)
    place = models.PositiveSmallIntegerField()  # 1 = first; shared places repeat
    players = models.PositiveSmallIntegerField()
    abandoned = models.BooleanField(default=False)  # a bot held the seat at the end: placed last
    rated = models.BooleanField(default=False)
    cumi_given = models.PositiveIntegerField(default=0)
    cumi_taken = models.PositiveIntegerField(default=0)
    volleys_evaded = models.PositiveIntegerField(default=0)
    skips_forwarded = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "seat"]
        constraints = [models.UniqueConstraint(fields=["game", "seat"], name="placing_unique_seat")]
        indexes = [models.Index(fields=["user", "-game"], name="placing_user_game")]


class RatedGame(models.Model):
    """A finished rated game, rated once. Its id is the order the games were rated in: taken while
    the players' rating rows are locked, so of two games sharing a player the later has the larger."""

    game = models.OneToOneField(Game, on_delete=models.PROTECT, related_name="rated_game")
    pool = models.CharField(max_length=8, choices=Pool.choices)
    created_at = models.DateTimeField(auto_now_add=True)
    # Set by `rebuild_ratings --write` when the rule of which games are rated no longer rates this
    # one: the refold leaves it out and the history shown skips it, but the row and its changes stay
    # as the record of what was once applied (the rating history is not rewritten).
    voided_at = models.DateTimeField(null=True, blank=True)


class Rating(models.Model):
    """A player's current OpenSkill (Plackett–Luce) rating in one pool."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="ratings")
    pool = models.CharField(max_length=8, choices=Pool.choices)
    mu = models.FloatField()
    sigma = models.FloatField()
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)  # first places, shared ones included
    display = models.IntegerField()  # the conservative rating shown: see ratings/rating.py
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "pool"], name="rating_unique_pool")]
        indexes = [
            models.Index(fields=["pool", "-display"], name="rating_board", condition=Q(games__gte=1)),
        ]


class RatingChange(models.Model):
    """What one rated game did to one player's rating in one pool: the rating history."""

    rated_game = models.ForeignKey(RatedGame, on_delete=models.CASCADE, related_name="changes")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    pool = models.CharField(max_length=8, choices=Pool.choices)
    place = models.PositiveSmallIntegerField()
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    display_before = models.IntegerField()
    display_after = models.IntegerField()

    class Meta:
        ordering = ["rated_game", "user", "pool"]
        constraints = [
            models.UniqueConstraint(fields=["rated_game", "user", "pool"], name="ratingchange_unique"),
        ]
        indexes = [models.Index(fields=["user", "pool", "rated_game"], name="ratingchange_history")]
