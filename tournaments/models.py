"""Tournaments: arenas and Swiss events. Results are a projection of the games' event logs
(`rebuild_tournament ID` folds them again); seating and scoring are pure (seating.py, scoring.py)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from games.models import BotLevel, Game, Pace, Table
from harehra.bots import DEFAULT_LEVEL


class Format(models.TextChoices):
    ARENA = "arena", "Arena"
    SWISS = "swiss", "Swiss"


class Status(models.TextChoices):
    SCHEDULED = "scheduled", "Upcoming"
    RUNNING = "running", "Running"
    FINISHED = "finished", "Finished"
    CANCELLED = "cancelled", "Cancelled"


class Tournament(models.Model):
    name = models.CharField(max_length=80)
    format = models.CharField(max_length=8, choices=Format.choices)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.SCHEDULED)
    table_size = models.PositiveSmallIntegerField(default=4)
    # The smallest table the event seats people at; bots fill a table short of it (`bots_fill`),
    # otherwise the players left over wait (arena) or sit the round out (Swiss: a bye).
    min_table_size = models.PositiveSmallIntegerField(default=4)
    bots_fill = models.BooleanField(default=True)
    bot_level = models.CharField(max_length=8, choices=BotLevel.choices, default=DEFAULT_LEVEL)
    # Arena: a player free this long is seated with bots when too few are free (bots_fill).
    bots_after_seconds = models.PositiveIntegerField(default=30)
    packs = models.JSONField(default=list, blank=True)
    mini = models.PositiveSmallIntegerField(default=0)
    turn_timer = models.PositiveIntegerField(default=30)
    reaction_timer = models.PositiveIntegerField(default=10)
    discard_timer = models.PositiveIntegerField(default=10)
    # Live, or slow (Swiss only: a round's games are played over days, a decision in
    # `decision_seconds`, one of games.models.SLOW_DECISION_SECONDS, instead of the timers).
    pace = models.CharField(max_length=8, choices=Pace.choices, default=Pace.LIVE)
    decision_seconds = models.PositiveIntegerField(null=True, blank=True)
    rated = models.BooleanField(default=True)
    entry_opens_at = models.DateTimeField()
    starts_at = models.DateTimeField()
    duration_minutes = models.PositiveIntegerField(default=30)  # arena
    rounds = models.PositiveSmallIntegerField(default=5)  # Swiss
    current_round = models.PositiveSmallIntegerField(default=0)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    # Staff's events, shown in the lobby and first in the lists; a player's event is not featured.
    featured = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-starts_at"]
        constraints = [
            models.CheckConstraint(condition=Q(table_size__gte=2, table_size__lte=6), name="tournament_size"),
            models.CheckConstraint(
                condition=Q(min_table_size__gte=2, min_table_size__lte=models.F("table_size")),
                name="tournament_min_size",
            ),
        ]
        indexes = [
            models.Index(fields=["status", "starts_at"], name="tournament_status"),
            models.Index(fields=["created_by", "created_at"], name="tournament_host"),
        ]

    def __str__(self) -> str:
        return self.name


class Entry(models.Model):
    """A player in an event, with the running figures the results add up to (scoring.Tally)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    score = models.IntegerField(default=0)
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    streak = models.PositiveIntegerField(default=0)
    byes = models.PositiveIntegerField(default=0)
    pauses = models.PositiveIntegerField(default=0)
    paused = models.BooleanField(default=False)
    withdrawn = models.BooleanField(default=False)
    # Removed by a moderator (moderation's services, with its audit entry): withdrawn for good,
    # their game then in progress lost, listed after everyone still in.
    removed_at = models.DateTimeField(null=True, blank=True)
    # Arena: free (not at a table) since when; ready to be seated from `ready_at` (after a pause).
    free_since = models.DateTimeField(null=True, blank=True)
    ready_at = models.DateTimeField(null=True, blank=True)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "-score", "id"]
        constraints = [models.UniqueConstraint(fields=["tournament", "user"], name="entry_unique_user")]

    def __str__(self) -> str:
        return f"{self.user} in {self.tournament} (#{self.tournament_id})"


class Round(models.Model):
    """A Swiss round (an arena has none: its tables come and go)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField()
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="round_unique_number")]


class EventTable(models.Model):
    """One table the event seated: its games' table and its one game."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="tables")
    round = models.ForeignKey(Round, null=True, blank=True, on_delete=models.CASCADE, related_name="tables")
    table = models.OneToOneField(Table, on_delete=models.PROTECT, related_name="tournament_table")
    game = models.OneToOneField(
        Game, null=True, blank=True, on_delete=models.PROTECT, related_name="tournament_table"
    )
    done = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "id"]
        indexes = [models.Index(fields=["tournament"], condition=Q(done=False), name="eventtable_open")]


class EventSeat(models.Model):
    """Who the event seated where: an entry, or a bot (entry empty)."""

    event_table = models.ForeignKey(EventTable, on_delete=models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField()
    entry = models.ForeignKey(Entry, null=True, blank=True, on_delete=models.CASCADE, related_name="seats")

    class Meta:
        ordering = ["event_table", "seat"]
        constraints = [models.UniqueConstraint(fields=["event_table", "seat"], name="eventseat_unique")]


class Result(models.Model):
    """An entry's result in one game (from its log) or one round sat out (a bye, no game)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="results")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="results")
    game = models.ForeignKey(Game, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    round = models.ForeignKey(Round, null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    place = models.PositiveSmallIntegerField(null=True, blank=True)
    players = models.PositiveSmallIntegerField(null=True, blank=True)
    points = models.IntegerField()  # as counted: an arena streak doubles them
    won = models.BooleanField(default=False)  # a sole first place
    bot_played = models.BooleanField(default=False)  # a bot held the seat at the end (they left)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["entry", "game"], condition=Q(game__isnull=False), name="result_unique_game"
            ),
            models.UniqueConstraint(
                fields=["entry", "round"], condition=Q(game__isnull=True), name="result_unique_bye"
            ),
        ]
