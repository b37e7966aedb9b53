"""A player's profile over the API: what the profile page shows, gathered from accounts, games,
ratings and tournaments (this app sits above them all, so none of them imports another for it)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.http import Http404
from django.utils.decorators import method_decorator
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.access import access_signed_in
from analysis.selectors import user_analysis_averages
from games.selectors import user_game_stats, user_games
from plumbing.replica import primary_needed, replica_view
from ratings.selectors import places_of, rating_history, user_placing_stats, user_ratings
from tournaments.selectors import user_tournament_results


def profile(user: Any, viewer: Any) -> dict[str, Any]:
    games = list(user_games(user, viewer=viewer))
    places = places_of(user, [g.pk for g in games])
    ratings = user_ratings(user)
    return {
        "username": user.get_username(),
        "rating": ratings["rating"],
        "ratings_by_table_size": ratings["pools"],
        "rating_history": rating_history(user),
        "stats": user_game_stats(user),
        "statistics": user_placing_stats(user),
        # Over the latest analysed rated games: accuracy 0-100, luck as shares of 1 (docs/ANALYSIS.md).
        "analysis": user_analysis_averages(user),
        "tournaments": [
            {
                "id": r["tournament"].pk,
                "name": r["tournament"].name,
                "format": r["tournament"].format,
                "status": r["tournament"].status,
                "rank": r["rank"],
                "of": r["of"],
                "points": r["points"],
                "games": r["games"],
                "wins": r["wins"],
                "withdrawn": r["withdrawn"],
                "url": f"/tournaments/{r['tournament'].pk}/",
            }
            for r in user_tournament_results(user)
        ],
        "games": [
            {
                "id": g.pk,
                "table": g.table_id,
                "status": g.status,
                "result": g.result,
                "placing": places.get(g.pk),
                "url": f"/api/games/{g.pk}/",
                "replay": f"/replays/{g.pk}/" if g.status != "running" else None,
                "created_at": g.created_at.isoformat(),
            }
            for g in games
        ],
    }


class MeView(APIView):
    @extend_schema(responses={200: OpenApiResponse(description="your profile")})
    def get(self, request: Request) -> Response:
        access_signed_in(request.user)
        return Response(profile(request.user, request.user))


class ProfileView(APIView):
    @extend_schema(responses={200: OpenApiResponse(description="a player's profile")})
    @method_decorator(replica_view)
    def get(self, request: Request, username: str) -> Response:
        user = get_user_model().objects.filter(username=username).first()
        if user is None or user.pk == request.user.pk:
            primary_needed()  # as the profile page: someone new, or the person's own (MeView's)
        if user is None:
            raise Http404
        return Response(profile(user, request.user))
