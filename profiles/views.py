"""A player's profile page: their games, placings, ratings and statistics, gathered from accounts,
games and ratings."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from games.selectors import user_game_stats, user_recent_games
from ratings.chart import rating_chart
from ratings.selectors import places_of, rating_history, user_placing_stats, user_ratings


def profile(request: HttpRequest, username: str) -> HttpResponse:
    player = get_user_model().objects.filter(username=username).first()
    if player is None:
        raise Http404(_("No such player"))
    games = user_recent_games(player, viewer=request.user)
    places = places_of(player, [row["game"].pk for row in games])
    for row in games:
        row["placing"] = places.get(row["game"].pk)
    return render(
        request,
        "accounts/profile.html",
        {
            "player": player,
            "stats": user_game_stats(player),
            "games": games,
            "ratings": user_ratings(player),
            "chart": rating_chart(rating_history(player)),
            "statistics": user_placing_stats(player),
        },
    )
