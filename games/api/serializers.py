from __future__ import annotations

from typing import Any

from rest_framework import serializers

from harehra.bots import DEFAULT_LEVEL

from ..labels import seat_name
from ..models import (
    SLOW_DECISION_SECONDS,
    STANDING_SKIP,
    STANDING_VOLLEY,
    BotLevel,
    Game,
    Pace,
    ReplayAccess,
    Seat,
    Table,
    Visibility,
)
from ..services.tables import TABLE_LIMITS, TableSettings


def _bounded(name: str) -> dict[str, Any]:
    """A number's bounds and default, as the table service sets them."""
    bounds = TABLE_LIMITS[name]
    return {"min_value": bounds.low, "max_value": bounds.high, "default": getattr(TableSettings, name)}


class TableCreateSerializer(serializers.Serializer):
    seats = serializers.IntegerField(**_bounded("seats"))
    packs = serializers.ListField(child=serializers.CharField(max_length=32), default=list, max_length=4)
    mini = serializers.IntegerField(**_bounded("mini"))
    turn_timer = serializers.IntegerField(**_bounded("turn_timer"))
    reaction_timer = serializers.IntegerField(**_bounded("reaction_timer"))
    discard_timer = serializers.IntegerField(**_bounded("discard_timer"))
    visibility = serializers.ChoiceField(choices=Visibility.choices, default=Visibility.PUBLIC)
    replay_access = serializers.ChoiceField(choices=ReplayAccess.choices, default=ReplayAccess.PUBLIC)
    rated = serializers.BooleanField(default=True, help_text="rated games update the players' ratings")
    chat_enabled = serializers.BooleanField(
        default=True, help_text="the table's chat (the host may turn it off)"
    )
    away_bot_level = serializers.ChoiceField(
        choices=BotLevel.choices,
        default=DEFAULT_LEVEL,
        help_text="the level of the bot that plays a seat whose person is away or has left",
    )
    # Checked by the table service (bad_pace), so the page, the API and challenges answer alike.
    pace = serializers.CharField(
        default=Pace.LIVE, max_length=16, help_text="live (the timers, in seconds) or slow (decision_seconds)"
    )
    decision_seconds = serializers.IntegerField(
        required=False,
        allow_null=True,
        default=None,
        help_text=f"a slow table's time per decision, in seconds: one of {list(SLOW_DECISION_SECONDS)}",
    )


class SeatChoiceSerializer(serializers.Serializer):
    seat = serializers.IntegerField(
        required=False, allow_null=True, min_value=0, max_value=TABLE_LIMITS["seats"].high - 1
    )
    invite_code = serializers.CharField(required=False, allow_blank=True, max_length=64)
    level = serializers.ChoiceField(
        choices=BotLevel.choices, default=DEFAULT_LEVEL, help_text="add-bot: the bot's level"
    )


class SeatSerializer(serializers.ModelSerializer):
    name = serializers.SerializerMethodField()

    class Meta:
        model = Seat
        fields = ["number", "name", "is_bot", "bot_level"]

    def get_name(self, seat: Seat) -> str | None:
        return seat_name(seat)


class TableSerializer(serializers.ModelSerializer):
    host = serializers.CharField(source="host.username", read_only=True)
    seat_list = SeatSerializer(source="seat_set", many=True, read_only=True)
    current_game = serializers.SerializerMethodField()
    invite_code = serializers.SerializerMethodField()

    class Meta:
        model = Table
        fields = [
            "id",
            "host",
            "seats",
            "packs",
            "mini",
            "turn_timer",
            "reaction_timer",
            "discard_timer",
            "visibility",
            "replay_access",
            "rated",
            "chat_enabled",
            "away_bot_level",
            "pace",
            "status",
            "next_shuffler",
            "seat_list",
            "current_game",
            "invite_code",
            "created_at",
        ]

    def get_current_game(self, table: Table) -> int | None:
        game = table.games.order_by("-number").first()
        return game.pk if game else None

    def get_invite_code(self, table: Table) -> str | None:
        """Only the host and seated players see the invite code, to pass it on."""
        user = self.context["request"].user
        if user.is_authenticated and (
            table.host_id == user.pk or any(s.user_id == user.pk for s in table.seat_set.all())
        ):
            return table.invite_code
        return None


class AutoAnswerSerializer(serializers.Serializer):
    on = serializers.BooleanField(
        help_text="answer for me when I can't: short reaction windows, declined at their end"
    )


class StandingAnswersSerializer(serializers.Serializer):
    volley = serializers.ChoiceField(
        choices=STANDING_VOLLEY,
        required=False,
        help_text='a volley of Hare Cumi at your seat: "ask" (you answer), "taptap" (a Hare Taptap when '
        'you hold one, else take it), "never" (take it); played at the end of the short window',
    )
    skip = serializers.ChoiceField(
        choices=STANDING_SKIP,
        required=False,
        help_text='a Strom skip: "ask" (you answer), "strom" (forward it with a Strom when you hold one, '
        'else lose the turn), "never" (lose the turn); played at the end of the short window',
    )


class CommandSerializer(serializers.Serializer):
    client_cmd_id = serializers.CharField(max_length=64)
    expected_seq = serializers.IntegerField(required=False, allow_null=True, min_value=0)
    play = serializers.ListField(child=serializers.CharField(), required=False)
    target = serializers.IntegerField(required=False, allow_null=True)
    react = serializers.CharField(required=False)
    discard = serializers.ListField(child=serializers.CharField(), required=False)
    burn = serializers.CharField(required=False, allow_null=True)


class GameSummarySerializer(serializers.ModelSerializer):
    class Meta:
        model = Game
        fields = ["id", "table", "number", "status", "result", "winner_seat", "created_at", "finished_at"]


def command_from(data: dict[str, Any]) -> dict[str, Any]:
    """The engine command inside a request body (the keys the engine knows)."""
    return {k: data[k] for k in ("play", "target", "react", "discard", "burn") if k in data}


# --- My games and holidays (output only: they document the answers and render their moments) ---


class MyGamePlayerSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    name = serializers.CharField(allow_null=True)
    is_bot = serializers.BooleanField()
    bot_playing = serializers.BooleanField(help_text="a bot plays this person's seat now")


class MyGameAwaitingSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    name = serializers.CharField(allow_null=True)
    kind = serializers.CharField(help_text="turn, volley, skip or discard")
    you = serializers.BooleanField(help_text="the decision is the requester's seat's")


class MyGameSerializer(serializers.Serializer):
    game = serializers.IntegerField()
    table = serializers.IntegerField()
    number = serializers.IntegerField(help_text="the game's place in its table's series")
    url = serializers.CharField(help_text="the game's page")
    pace = serializers.ChoiceField(choices=["live", "slow"])
    decision_seconds = serializers.IntegerField(help_text="the table's time for a turn")
    rated = serializers.BooleanField()
    status = serializers.CharField(help_text="running, finished or aborted")
    seat = serializers.IntegerField(help_text="the requester's seat")
    bot_playing = serializers.BooleanField(help_text="a bot plays the requester's seat (reclaim it)")
    others = MyGamePlayerSerializer(many=True)
    awaiting = MyGameAwaitingSerializer(allow_null=True, help_text="whose decision the game waits for")
    your_decision = serializers.BooleanField()
    deadline = serializers.DateTimeField(
        allow_null=True, help_text="when the awaited decision's time runs out"
    )
    seconds_left = serializers.IntegerField(allow_null=True)
    outcome = serializers.CharField(help_text="running, won, lost, draw or aborted (for the requester)")
    finished_at = serializers.DateTimeField(allow_null=True)


class MyGamesSerializer(serializers.Serializer):
    games = MyGameSerializer(many=True, help_text="running games: those awaiting the requester first")
    finished = MyGameSerializer(many=True, help_text="games finished in the last few days, newest first")
    waiting = serializers.IntegerField(help_text="how many running games await the requester's decision")


class HolidayNowSerializer(serializers.Serializer):
    starts_at = serializers.DateTimeField()
    ends_at = serializers.DateTimeField()
    days = serializers.IntegerField(help_text="days charged against the allowance")


class HolidayStatusSerializer(serializers.Serializer):
    allowance = serializers.IntegerField(help_text="days a year (any 365 days): HOLIDAY_DAYS_PER_YEAR")
    used = serializers.IntegerField(help_text="days charged in the last 365 days")
    left = serializers.IntegerField()
    current = HolidayNowSerializer(allow_null=True, help_text="the holiday running now")


class HolidayTakeSerializer(serializers.Serializer):
    # Its bounds are the service's (bad_days, holiday_allowance_exceeded): one place says them.
    days = serializers.IntegerField(help_text="from now, whole days: 1 to the days left")
