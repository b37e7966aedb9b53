"""GET /api/ratings/leaderboard/: the leaderboard, overall or per table size."""

from __future__ import annotations

from django.utils.decorators import method_decorator
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from plumbing.errors import ServiceError
from plumbing.replica import replica_view

from .models import Pool
from .selectors import leaderboard, leaderboard_min_games

ROWS = inline_serializer(
    "LeaderboardRow",
    many=True,
    fields={
        "rank": serializers.IntegerField(),
        "name": serializers.CharField(),
        "rating": serializers.IntegerField(),
        "games": serializers.IntegerField(),
        "wins": serializers.IntegerField(),
        "provisional": serializers.BooleanField(),
    },
)
BOARD = inline_serializer(
    "Leaderboard",
    {
        "pool": serializers.CharField(),
        "min_games": serializers.IntegerField(),
        "results": ROWS,
    },
)


def pool_from(value: str | None) -> str:
    pool = value or Pool.ALL.value
    if pool not in Pool.values:
        raise ServiceError("bad_pool", "pool is one of: " + ", ".join(Pool.values))
    return pool


class LeaderboardView(APIView):
    @extend_schema(
        responses={200: BOARD},
        summary="The leaderboard: players with at least min_games rated games, best first",
        parameters=[
            OpenApiParameter(
                "pool", str, enum=Pool.values, description="all (default), or a table size: 2, 3, 4, 5-6"
            )
        ],
    )
    @method_decorator(replica_view)
    def get(self, request: Request) -> Response:
        pool = pool_from(request.query_params.get("pool"))
        return Response({"pool": pool, "min_games": leaderboard_min_games(), "results": leaderboard(pool)})
