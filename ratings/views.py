"""The leaderboard page."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from plumbing.errors import ServiceError
from plumbing.replica import replica_view
from plumbing.share import share_tags

from .api import pool_from
from .models import Pool
from .rating import PROVISIONAL_GAMES
from .selectors import BOARD_POOLS, leaderboard, leaderboard_min_games


@replica_view  # a board a few seconds old is as good
def leaderboard_page(request: HttpRequest) -> HttpResponse:
    try:
        pool = pool_from(request.GET.get("pool"))
    except ServiceError:
        pool = Pool.ALL.value
    return render(
        request,
        "ratings/leaderboard.html",
        {
            **share_tags(
                request,
                _("Leaderboard") + " · Harehra Online",
                _("The best players of Harehra, by their rating: who stays in longer than everyone else."),
                "/leaderboard/",
                {"pool": pool if pool != Pool.ALL.value else None},
            ),
            "pool": pool,
            "pools": [(p.value, p.label) for p in BOARD_POOLS],
            "rows": leaderboard(pool),
            "min_games": leaderboard_min_games(),
            "provisional_games": PROVISIONAL_GAMES,
        },
    )
