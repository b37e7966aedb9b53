"""What the tournaments API takes and answers. Answers are rendered through these serializers, so
the schema they give is the shape sent."""

from __future__ import annotations

from rest_framework import serializers

from games.models import BotLevel
from games.services.tables import TABLE_LIMITS
from harehra.bots import DEFAULT_LEVEL

from .models import Format


def _bounded(name: str, default: int) -> dict[str, int]:
    bounds = TABLE_LIMITS[name]
    return {"min_value": bounds.low, "max_value": bounds.high, "default": default}


class TournamentCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=80)
    format = serializers.ChoiceField(choices=Format.choices)
    table_size = serializers.IntegerField(min_value=2, max_value=6, default=4)
    min_table_size = serializers.IntegerField(
        min_value=2,
        max_value=6,
        required=False,
        help_text="the smallest table people sit at (default: table_size)",
    )
    bots_fill = serializers.BooleanField(default=True, help_text="bots fill a table short of min_table_size")
    bot_level = serializers.ChoiceField(choices=BotLevel.choices, default=DEFAULT_LEVEL)
    bots_after_seconds = serializers.IntegerField(min_value=0, max_value=3600, default=30)
    packs = serializers.ListField(child=serializers.CharField(max_length=32), default=list, max_length=4)
    mini = serializers.IntegerField(**_bounded("mini", 0))
    turn_timer = serializers.IntegerField(**_bounded("turn_timer", 30))
    reaction_timer = serializers.IntegerField(**_bounded("reaction_timer", 10))
    discard_timer = serializers.IntegerField(**_bounded("discard_timer", 10))
    pace = serializers.CharField(default="live", max_length=16, help_text="live, or slow (Swiss only)")
    decision_seconds = serializers.IntegerField(
        required=False,
        allow_null=True,
        default=None,
        help_text="a slow event's time per decision, in seconds",
    )
    rated = serializers.BooleanField(default=True)
    entry_opens_at = serializers.DateTimeField(required=False, help_text="default: now")
    starts_at = serializers.DateTimeField()
    duration_minutes = serializers.IntegerField(min_value=1, max_value=24 * 60, default=30, help_text="arena")
    rounds = serializers.IntegerField(min_value=1, max_value=30, default=5, help_text="Swiss")
    featured = serializers.BooleanField(
        required=False,
        help_text="shown in the lobby (staff only; default: true for staff, false for players)",
    )


class TournamentSummarySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    format = serializers.ChoiceField(choices=Format.choices)
    status = serializers.CharField()
    table_size = serializers.IntegerField()
    min_table_size = serializers.IntegerField()
    bots_fill = serializers.BooleanField()
    rated = serializers.BooleanField()
    entry_opens_at = serializers.DateTimeField()
    starts_at = serializers.DateTimeField()
    ends_at = serializers.DateTimeField(allow_null=True, help_text="an arena's end; null for Swiss")
    rounds = serializers.IntegerField(allow_null=True, help_text="Swiss; null for an arena")
    current_round = serializers.IntegerField()
    duration_minutes = serializers.IntegerField(allow_null=True, help_text="arena; null for Swiss")
    entrants = serializers.IntegerField()
    entry_open = serializers.BooleanField(help_text="a new player may enter now")
    featured = serializers.BooleanField(help_text="a staff event, shown in the lobby")
    host = serializers.CharField(help_text="who created the event")
    url = serializers.CharField(help_text="the event's page")


class TournamentListSerializer(serializers.Serializer):
    upcoming = TournamentSummarySerializer(many=True)
    running = TournamentSummarySerializer(many=True)
    finished = TournamentSummarySerializer(many=True, help_text="the latest 20 finished or cancelled")


class StandingSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    player = serializers.CharField()
    points = serializers.IntegerField()
    games = serializers.IntegerField()
    wins = serializers.IntegerField(help_text="sole first places")
    opposition = serializers.FloatField(help_text="Swiss tie-break: the opponents' average scores, summed")
    byes = serializers.IntegerField()
    streak = serializers.IntegerField(help_text="arena: sole wins in a row")
    paused = serializers.BooleanField()
    withdrawn = serializers.BooleanField()
    removed = serializers.BooleanField(help_text="removed by a moderator: listed after everyone still in")


class ResultSerializer(serializers.Serializer):
    game = serializers.IntegerField(allow_null=True, help_text="null: a bye")
    round = serializers.IntegerField(allow_null=True, help_text="Swiss round; null in an arena")
    bye = serializers.BooleanField()
    place = serializers.IntegerField(allow_null=True)
    players = serializers.IntegerField(allow_null=True, help_text="seats at the table, bots included")
    points = serializers.IntegerField(help_text="as counted (an arena streak doubles them)")
    won = serializers.BooleanField(help_text="a sole first place")
    bot_played = serializers.BooleanField(help_text="the player left and a bot played the seat to the end")
    replay = serializers.CharField(allow_null=True)


class MyEntrySerializer(serializers.Serializer):
    entered = serializers.BooleanField()
    paused = serializers.BooleanField()
    withdrawn = serializers.BooleanField()
    removed = serializers.BooleanField(help_text="a moderator removed you from the event")
    pauses = serializers.IntegerField()
    table = serializers.IntegerField(allow_null=True, help_text="the table you play at in this event now")
    game = serializers.IntegerField(allow_null=True, help_text="the game you play there: /games/<id>/")


class TournamentDetailSerializer(TournamentSummarySerializer):
    packs = serializers.ListField(child=serializers.CharField())
    mini = serializers.IntegerField()
    turn_timer = serializers.IntegerField()
    reaction_timer = serializers.IntegerField()
    discard_timer = serializers.IntegerField()
    pace = serializers.CharField()
    decision_seconds = serializers.IntegerField(allow_null=True)
    bot_level = serializers.CharField()
    bots_after_seconds = serializers.IntegerField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    points_by_place = serializers.DictField(
        child=serializers.ListField(child=serializers.IntegerField()),
        help_text="per table size the event may seat: the points of each place, first to last",
    )
    standings = StandingSerializer(many=True)
    podium = StandingSerializer(many=True, help_text="once finished: ranks 1 to 3")
    me = MyEntrySerializer(allow_null=True, help_text="your entry (null: signed out)")


class PlayerResultsSerializer(serializers.Serializer):
    standing = StandingSerializer()
    results = ResultSerializer(many=True)
