"""A player's profile page: their games, placings, ratings, statistics and tournament results,
gathered from accounts, games, ratings and tournaments."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from analysis.selectors import user_analysis_averages
from games.models import GameStatus
from games.selectors import user_game_stats, user_games, user_recent_games
from plumbing.replica import primary_needed, replica_view
from plumbing.share import share_tags
from ratings.chart import rating_chart
from ratings.selectors import places_of, rating_history, user_placing_stats, user_ratings
from relations.selectors import follow_counts, relation_between
from tournaments.selectors import user_tournament_results


@replica_view
def profile(request: HttpRequest, username: str) -> HttpResponse:
    player = get_user_model().objects.filter(username=username).first()
    if player is None or player.pk == request.user.pk:
        # Someone just registered is not on the replica yet; and a person's own profile shows
        # what they just did (a game they just finished, a follow): both are the primary's.
        primary_needed()
    if player is None:
        raise Http404(_("No such player"))
    games = user_recent_games(player, viewer=request.user)
    places = places_of(player, [row["game"].pk for row in games])
    for row in games:
        row["placing"] = places.get(row["game"].pk)
    stats = user_game_stats(player)
    analysis = user_analysis_averages(player)
    if analysis["luck"] is not None:  # shown in points of win chance, as the replay shows drops
        analysis["points"] = {part: 100 * share for part, share in analysis["luck"].items()}
    # The picture: the player's latest game that anyone may see (the preview is seen by anyone).
    shown = next(iter(user_games(player, limit=1, viewer=AnonymousUser())), None)
    image = None
    if shown is not None:
        image = (
            f"/watch/{shown.pk}/image.png"
            if shown.status == GameStatus.RUNNING
            else f"/replays/{shown.pk}/image.png"
        )
    share = share_tags(
        request,
        _("%(name)s on Harehra Online") % {"name": player.get_username()},
        _("%(name)s has played %(played)s games of Harehra and won %(won)s: games, ratings and statistics.")
        % {"name": player.get_username(), "played": stats["played"], "won": stats["won"]},
        f"/players/{player.get_username()}/",
        image_path=image,
    )
    return render(
        request,
        "accounts/profile.html",
        {
            **share,
            "player": player,
            "stats": stats,
            "games": games,
            "ratings": user_ratings(player),
            "chart": rating_chart(rating_history(player)),
            "statistics": user_placing_stats(player),
            "tournament_results": user_tournament_results(player),
            "analysis": analysis,
            "follows": follow_counts(player.pk),
            "relation": relation_between(request.user, player.pk),
        },
    )
