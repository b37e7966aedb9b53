"""Tables, games and the append-only event log. Models store and constrain; services decide."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from harehra.bots import DEFAULT_LEVEL, LEVELS


def new_token() -> str:
    return secrets.token_urlsafe(16)


class Visibility(models.TextChoices):
    PUBLIC = "public", _("Public (listed in the lobby)")
    PRIVATE = "private", _("Private (invite link only)")


class ReplayAccess(models.TextChoices):
    PUBLIC = "public", _("Anyone")
    LINK = "link", _("Anyone with the link")
    PLAYERS = "players", _("Players only")


class TableStatus(models.TextChoices):
    OPEN = "open", _("Waiting for players")
    PLAYING = "playing", _("Game in progress")
    BETWEEN = "between", _("Between games")
    CLOSED = "closed", _("Closed")


# The pure game's bot levels as choices: BotLevel.EASY == "easy", labelled "Easy" (the pages' words
# are games/labels.py's).
BotLevel = models.TextChoices("BotLevel", [(level.upper(), level) for level in LEVELS])


class Pace(models.TextChoices):
    """A live table's decisions take seconds, with everyone online together; a slow table's take
    hours or days, one person at a time, over days (the same time for turns, reactions and
    discards: SLOW_DECISION_SECONDS)."""

    LIVE = "live", _("Live")
    SLOW = "slow", _("Slow (a decision in hours or days)")


# The time per decision a slow table may choose, in seconds: 1 hour, 8 hours, 1 day, 3 days.
SLOW_DECISION_SECONDS = (3600, 8 * 3600, 24 * 3600, 3 * 24 * 3600)


class Table(models.Model):
    host = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="hosted_tables")
    seats = models.PositiveSmallIntegerField()
    packs = models.JSONField(default=list, blank=True)
    mini = models.PositiveSmallIntegerField(default=0)
    turn_timer = models.PositiveIntegerField(default=30)
    reaction_timer = models.PositiveIntegerField(default=10)
    discard_timer = models.PositiveIntegerField(default=10)
    visibility = models.CharField(max_length=16, choices=Visibility.choices, default=Visibility.PUBLIC)
    replay_access = models.CharField(max_length=16, choices=ReplayAccess.choices, default=ReplayAccess.PUBLIC)
    invite_code = models.CharField(max_length=32, unique=True, default=new_token)
    status = models.CharField(max_length=16, choices=TableStatus.choices, default=TableStatus.OPEN)
    next_shuffler = models.PositiveSmallIntegerField(default=0)
    # Rated: its finished games update the players' ratings (ratings/); casual: they do not.
    rated = models.BooleanField(default=False)
    # The table's chat (chat/): the host may turn it off.
    chat_enabled = models.BooleanField(default=True)
    # The level of the bot that plays a seat whose person is away or has left.
    away_bot_level = models.CharField(max_length=8, choices=BotLevel.choices, default=DEFAULT_LEVEL)
    pace = models.CharField(max_length=8, choices=Pace.choices, default=Pace.LIVE)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.CheckConstraint(condition=Q(seats__gte=2, seats__lte=6), name="table_seats_2_to_6"),
            models.CheckConstraint(
                condition=Q(away_bot_level__in=BotLevel.values), name="table_away_bot_level"
            ),
            models.CheckConstraint(condition=Q(turn_timer__gte=5), name="table_turn_timer_min"),
            models.CheckConstraint(condition=Q(reaction_timer__gte=3), name="table_reaction_timer_min"),
        ]

    def __str__(self) -> str:
        return f"Table {self.pk}"

    @property
    def is_slow(self) -> bool:
        return self.pace == Pace.SLOW


class Seat(models.Model):
    """A chair at a table: empty, a person, or a bot."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seat_set")
    number = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="seats"
    )
    is_bot = models.BooleanField(default=False)
    bot_level = models.CharField(max_length=8, choices=BotLevel.choices, default=DEFAULT_LEVEL)

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="seat_unique_number"),
            models.UniqueConstraint(
                fields=["table", "user"], condition=Q(user__isnull=False), name="seat_one_per_user"
            ),
            models.CheckConstraint(condition=~Q(is_bot=True, user__isnull=False), name="seat_bot_or_user"),
            models.CheckConstraint(condition=Q(bot_level__in=BotLevel.values), name="seat_bot_level"),
        ]

    @property
    def is_empty(self) -> bool:
        return self.user_id is None and not self.is_bot


class GameStatus(models.TextChoices):
    RUNNING = "running", _("Running")
    FINISHED = "finished", _("Finished")
    ABORTED = "aborted", _("Aborted")


class Game(models.Model):
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="games")
    number = models.PositiveIntegerField()  # place in the table's series, from 1
    players = models.PositiveSmallIntegerField()
    shuffler = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=16, choices=GameStatus.choices, default=GameStatus.RUNNING)
    result = models.CharField(max_length=16, blank=True, default="")
    winner_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    last_seq = models.PositiveIntegerField(default=0)
    # The decision awaited now and when its time runs out; timers and the sweep read these.
    awaiting_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    awaiting_kind = models.CharField(max_length=16, blank=True, default="")
    # Not indexed: every move changes it, and an indexed column changed would make every move
    # write a new entry into each of the table's indexes (no HOT update). The sweep finds due
    # deadlines among the running games, which the partial index `game_running` lists.
    deadline_at = models.DateTimeField(null=True, blank=True)
    # When the game's one pending countdown task fires. A later deadline needs no task of its own:
    # that task, finding the deadline moved, arms itself again for it.
    timer_armed_for = models.DateTimeField(null=True, blank=True)
    # A slow table's game (Table.pace), fixed when the game starts: the sweeps of live games pass
    # over slow ones by the partial index `game_running_live`, and slow games' deadlines are kept
    # below, with no countdown task (games/followups.py).
    slow = models.BooleanField(default=False)
    # When the beat's sweep must next look at a slow game: its deadline, or sooner when a bot is
    # to move there (in case the bot's wake-up task is lost); None for live games and for slow
    # games with nothing awaited. A column of its own rather than an index on `deadline_at`: an
    # index on `deadline_at` (even one partial to slow games) would make every live move change an
    # indexed column and lose its HOT update; this one stays NULL at live games, so their moves
    # keep HOT updates, and slow games, which move rarely, pay the index entry.
    slow_deadline_at = models.DateTimeField(null=True, blank=True)
    # A slow game's decision whose person is still to be told of it (once per decision:
    # games/services/turns.py, decisions_tell). Always false at live games.
    slow_tell = models.BooleanField(default=False)
    # Until when a watch page is open on the game: while it is, each move's push also carries the
    # spectators' replay frames (they cost more than everything else a push carries).
    watched_until = models.DateTimeField(null=True, blank=True)
    replay_key = models.CharField(max_length=32, unique=True, default=new_token)
    # Set by moderators: a hidden replay answers 404 to all but its players and moderators.
    replay_hidden = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="game_unique_number"),
        ]
        indexes = [
            models.Index(fields=["id"], condition=Q(status="running"), name="game_running"),
            models.Index(fields=["id"], condition=Q(status="running", slow=False), name="game_running_live"),
            models.Index(
                fields=["slow_deadline_at"], condition=Q(slow_deadline_at__isnull=False), name="game_slow_due"
            ),
            models.Index(fields=["id"], condition=Q(slow_tell=True), name="game_slow_tell"),
        ]

    def __str__(self) -> str:
        return f"Game {self.pk}"


# Missed turns or discards in a row that hand a person's seat to a bot (games/services/autoplay.py).
MISSED_DEADLINES_BEFORE_AWAY = 2
# At a slow table: missed decisions in a row (of any kind: there a reaction window that runs out
# was one its seat could answer) that hand the seat to a bot until its person takes it back.
# Three, not two: a decision there lasts hours or days, and a person away for one of them (a
# night, a day's travel) should find their seat still theirs, each miss already played by a bot
# and told; three in a row is days of absence, and meanwhile the others wait a whole window at
# every one of the seat's decisions, which the bot taking the seat ends (it plays at once).
SLOW_MISSES_IN_A_ROW = 3


def misses_before_away(slow: bool) -> int:
    return SLOW_MISSES_IN_A_ROW if slow else MISSED_DEADLINES_BEFORE_AWAY


# A seat's standing answers: "ask" (none: its person answers), the card ("when I hold one"), or
# "never" (always decline). The API and the pages use the same words.
STANDING_VOLLEY = ("ask", "taptap", "never")
STANDING_SKIP = ("ask", "strom", "never")


class GameSeat(models.Model):
    """Who sat where in one game; `bot_playing` is who moves for the seat right now."""

    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="game_seats")
    seat = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="game_seats"
    )
    is_bot = models.BooleanField(default=False)
    bot_playing = models.BooleanField(default=False)
    # The level of the bot that plays the seat (a bot's own seat, or one handed to a bot).
    bot_level = models.CharField(max_length=8, choices=BotLevel.choices, default=DEFAULT_LEVEL)
    missed_deadlines = models.PositiveSmallIntegerField(default=0)  # in a row; two make a seat away
    # "Answer for me when I can't": the seat's reaction windows last AUTO_ANSWER_SECONDS, whatever
    # its hand, and one not answered by then is declined (docs/RULES.md, "Answer for me").
    auto_answer = models.BooleanField(default=False)
    # Standing answers (docs/RULES.md, "Standing answers"): what the seat answers a volley or a
    # skip with, at the end of the same short window "answer for me" has, when its person has not
    # answered by then: "ask" waits for the person as usual; "taptap" / "strom" plays that card if
    # the seat holds one (else declines); "never" declines. Shown to the seat's own person only.
    # The database's default too: the code of the release before, still running while this one's
    # migration is applied, makes seat rows without these columns.
    standing_volley = models.CharField(max_length=8, default="ask", db_default="ask")
    standing_skip = models.CharField(max_length=8, default="ask", db_default="ask")
    # Open sockets of the seat's person, and since when they have had none (for the grace period).
    connections = models.PositiveIntegerField(default=0)
    disconnected_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["seat"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seat"], name="gameseat_unique_seat"),
            models.CheckConstraint(
                condition=Q(standing_volley__in=STANDING_VOLLEY), name="gameseat_standing_volley"
            ),
            models.CheckConstraint(
                condition=Q(standing_skip__in=STANDING_SKIP), name="gameseat_standing_skip"
            ),
        ]
        indexes = [
            # The seats counted as connected, for the sweep's check of their leases
            # (presence_stale_seats): a few, among the many seats of slow games nobody looks at.
            models.Index(fields=["game"], condition=Q(connections__gt=0), name="gameseat_connected"),
        ]

    def standing_for(self, kind: str) -> str:
        """The seat's standing answer to a decision of `kind` ("volley" or "skip"); "ask" for none."""
        if kind == "volley":
            return self.standing_volley
        if kind == "skip":
            return self.standing_skip
        return "ask"

    def answers_at_once(self, kind: str) -> bool:
        """Whether a reaction window of `kind` gets the short window (AUTO_ANSWER_SECONDS): "answer
        for me" or a standing answer for it is on, and no bot plays the seat."""
        if self.bot_playing or kind not in ("volley", "skip"):
            return False
        return self.auto_answer or self.standing_for(kind) != "ask"

    @property
    def away_warned(self) -> bool:
        """One more missed deadline hands this person's seat at a live table to a bot: its person
        is warned (`warned_at` for a table of either pace)."""
        return self.warned_at(slow=False)

    def warned_at(self, *, slow: bool) -> bool:
        return (
            not self.is_bot and not self.bot_playing and self.missed_deadlines >= misses_before_away(slow) - 1
        )


class GameEvent(models.Model):
    """One entry of a game's append-only log. Database triggers refuse UPDATE and DELETE."""

    # No index of its own: the unique (game, seq) index serves every lookup by game.
    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="events", db_index=False)
    seq = models.PositiveIntegerField()
    type = models.CharField(max_length=40)
    version = models.PositiveSmallIntegerField(default=1)
    payload = models.JSONField()
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="gameevent_unique_seq"),
            models.CheckConstraint(condition=Q(seq__gte=1), name="gameevent_seq_from_1"),
        ]


class GameSnapshot(models.Model):
    """A disposable cache of the folded state at `seq`; `verify_games` checks it against the log."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="snapshot", primary_key=True)
    seq = models.PositiveIntegerField()
    state = models.JSONField()


class CommandRecord(models.Model):
    """An accepted command, so a resend of the same client id returns the same outcome."""

    # No index of its own: the unique (game, user, client_cmd_id) index serves lookups by game.
    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="commands", db_index=False)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT)
    client_cmd_id = models.CharField(max_length=64)
    seat = models.PositiveSmallIntegerField()
    first_seq = models.PositiveIntegerField()
    last_seq = models.PositiveIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["game", "user", "client_cmd_id"], name="command_unique_client_id"
            ),
        ]


class GameFault(models.Model):
    """A game whose periodic work (its timeout, its bot's move, its seats' presence) failed.

    The beat's sweep records each failure here and goes on with the other games; a game that
    keeps failing, or whose log does not match its row, is set aside: the sweep passes it over
    until a moderator ends it (moderators see every set-aside game on their reports page).
    """

    game = models.OneToOneField(Game, on_delete=models.PROTECT, related_name="fault", primary_key=True)
    failures = models.PositiveIntegerField(default=0)  # in a row, since `first_failed_at`
    stage = models.CharField(max_length=32)  # which work failed last: "deadline", "bot", "log"...
    error = models.TextField()  # the last failure's kind and message, for the moderators
    first_failed_at = models.DateTimeField()
    last_failed_at = models.DateTimeField()
    set_aside_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-last_failed_at"]
        indexes = [
            models.Index(fields=["game"], condition=Q(set_aside_at__isnull=False), name="gamefault_set_aside")
        ]

    def __str__(self) -> str:
        return f"Fault of game {self.game_id}"


class Holiday(models.Model):
    """A person pauses the clocks of their slow games from `starts_at` until `ends_at`: a decision
    awaited from them at a slow table waits past the end (games/services/holidays.py). Live tables
    ignore it. `ends_at` moves earlier when the person ends it early; the days it lasted count
    against HOLIDAY_DAYS_PER_YEAR (`days`, whole days, at least one)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="holidays")
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField()
    days = models.PositiveSmallIntegerField()  # charged against the allowance
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-starts_at"]
        constraints = [
            models.CheckConstraint(
                condition=Q(ends_at__gt=models.F("starts_at")), name="holiday_ends_after_start"
            ),
            models.CheckConstraint(condition=Q(days__gte=1), name="holiday_at_least_a_day"),
        ]
        indexes = [models.Index(fields=["user", "-ends_at"], name="holiday_user_recent")]

    def __str__(self) -> str:
        return f"Holiday of user {self.user_id} from {self.starts_at:%Y-%m-%d}"
