"""Reading ratings: leaderboards, a player's rating, history and statistics, the lobby's figures."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.db.models import Avg, Count, Q, Sum

from games.models import Game

from .models import Placing, Pool, Rating, RatingChange
from .rating import PROVISIONAL_GAMES

LEADERBOARD_LIMIT = 100
BOARD_POOLS = [Pool.ALL, Pool.TWO, Pool.THREE, Pool.FOUR, Pool.BIG]


def leaderboard_min_games() -> int:
    return int(getattr(settings, "RATINGS_LEADERBOARD_MIN_GAMES", 5))


def leaderboard(pool: str = Pool.ALL, limit: int = LEADERBOARD_LIMIT) -> list[dict[str, Any]]:
    """The best players of `pool` with at least the minimum number of rated games: rank, name,
    rating, games. Equal ratings share a rank; more games, then the earlier name, list first."""
    rows = (
        Rating.objects.filter(pool=pool, games__gte=leaderboard_min_games(), user__is_active=True)
        .select_related("user")
        .order_by("-display", "-games", "user__username")[:limit]
    )
    out: list[dict[str, Any]] = []
    for i, r in enumerate(rows):
        rank = out[-1]["rank"] if out and out[-1]["rating"] == r.display else i + 1
        out.append(
            {
                "rank": rank,
                "name": r.user.get_username(),
                "rating": r.display,
                "games": r.games,
                "wins": r.wins,
                "provisional": r.games < PROVISIONAL_GAMES,
            }
        )
    return out


def _rating_dict(r: Rating) -> dict[str, Any]:
    return {
        "pool": r.pool,
        "rating": r.display,
        "games": r.games,
        "wins": r.wins,
        "provisional": r.games < PROVISIONAL_GAMES,
        "mu": r.mu,
        "sigma": r.sigma,
    }


def user_ratings(user: Any) -> dict[str, Any]:
    """The player's rating overall (`rating`, None before their first rated game) and per pool."""
    rows = {r.pool: r for r in Rating.objects.filter(user_id=user.pk)}
    overall = rows.get(Pool.ALL)
    return {
        "rating": _rating_dict(overall) if overall else None,
        "pools": {p.value: _rating_dict(rows[p.value]) for p in BOARD_POOLS[1:] if p.value in rows},
    }


def rating_history(user: Any, pool: str = Pool.ALL, limit: int = 500) -> list[dict[str, Any]]:
    """The player's rating after each rated game, oldest first (the last `limit` games). A game
    whose rating was voided by a rebuild is left out: it no longer counts in the rating."""
    rows = list(
        RatingChange.objects.filter(user_id=user.pk, pool=pool, rated_game__voided_at__isnull=True)
        .select_related("rated_game")
        .order_by("-rated_game_id")[:limit]
    )
    rows.reverse()
    return [
        {
            "game": c.rated_game.game_id,
            "rating": c.display_after,
            "before": c.display_before,
            "place": c.place,
            "at": c.rated_game.created_at.isoformat(),
        }
        for c in rows
    ]


def user_placing_stats(user: Any) -> dict[str, Any]:
    """Figures from the player's finished games' logs: placings, wins by table size, and play."""
    mine = Placing.objects.filter(user_id=user.pk)
    agg = mine.aggregate(
        games=Count("pk"),
        rated=Count("pk", filter=Q(rated=True)),
        average_place=Avg("place"),
        cumi_given=Sum("cumi_given"),
        cumi_taken=Sum("cumi_taken"),
        volleys_evaded=Sum("volleys_evaded"),
        skips_forwarded=Sum("skips_forwarded"),
        abandoned=Count("pk", filter=Q(abandoned=True)),
    )
    places = {str(p): n for p, n in mine.values_list("place").annotate(n=Count("pk")).order_by("place")}
    by_size: dict[str, dict[str, int]] = {}
    for players, games, wins in (
        mine.values_list("players")
        .annotate(g=Count("pk"), w=Count("pk", filter=Q(place=1)))
        .order_by("players")
    ):
        by_size[str(players)] = {"games": games, "wins": wins}
    average = agg["average_place"]
    return {
        "games": agg["games"],
        "rated_games": agg["rated"],
        "placings": places,
        "by_table_size": by_size,
        "average_place": round(average, 2) if average is not None else None,
        "cumi_given": agg["cumi_given"] or 0,
        "cumi_taken": agg["cumi_taken"] or 0,
        "volleys_evaded": agg["volleys_evaded"] or 0,
        "skips_forwarded": agg["skips_forwarded"] or 0,
        "abandoned": agg["abandoned"],
    }


def places_of(user: Any, game_ids: Iterable[int]) -> dict[int, dict[str, Any]]:
    """The player's place in each of these games that has one: {game: {place, players, rated}}."""
    return {
        p.game_id: {"place": p.place, "players": p.players, "rated": p.rated, "abandoned": p.abandoned}
        for p in Placing.objects.filter(user_id=user.pk, game_id__in=list(game_ids))
    }


def display_ratings(user_ids: Iterable[int]) -> dict[int, dict[str, Any]]:
    """Overall display ratings of these users, for the lobby: {user: {rating, provisional}}."""
    ids = [u for u in set(user_ids) if u is not None]
    if not ids:
        return {}
    return {
        u: {"rating": d, "provisional": g < PROVISIONAL_GAMES}
        for u, d, g in Rating.objects.filter(user_id__in=ids, pool=Pool.ALL).values_list(
            "user_id", "display", "games"
        )
    }


def game_rating_changes(game_id: int) -> dict[str, Any]:
    """The overall rating of each person of a game, before and after it, for its end screen:
    {"state": "rated", "changes": [{seat, before, after}]}; "unrated" (a casual table, or a game
    nobody contested: ratings/services.py), or "pending" (not placed yet: it is still being played,
    or its placings are being rebuilt), each with no changes."""
    placings = list(Placing.objects.filter(game_id=game_id).values_list("seat", "user_id", "rated"))
    if not placings:
        rated_table = Game.objects.filter(pk=game_id, table__rated=True).exists()
        return {"state": "pending" if rated_table else "unrated", "changes": []}
    if not any(rated for _, _, rated in placings):
        return {"state": "unrated", "changes": []}
    seat_of = {user: seat for seat, user, _ in placings if user is not None}
    rows = RatingChange.objects.filter(
        rated_game__game_id=game_id, rated_game__voided_at__isnull=True, pool=Pool.ALL
    ).values_list("user_id", "display_before", "display_after")
    changes = sorted(
        ({"seat": seat_of[u], "before": b, "after": a} for u, b, a in rows if u in seat_of),
        key=lambda c: c["seat"],
    )
    return {"state": "rated" if changes else "pending", "changes": changes}


def game_rating_context(game_id: int) -> dict[str, Any]:
    """The game page's rating changes (games.selectors.game_part_of)."""
    return {"ratings": game_rating_changes(game_id)}
