"""Who may ask for a game's analysis: the one place the analysis API asks.

Seeing an analysis needs nothing beyond seeing the replay (replays.access.open_replay: hidden,
players-only and private tables' replays answer 404 to whoever may not open them); every option
of every decision may be shown to whoever opens it, because a finished game's replay shows every
hand at every step to them (its "all" perspective). Asking for one needs a signed-in account in
good standing (an analysis costs a worker's seconds) and a game that ended by the rules.
"""

from __future__ import annotations

from accounts.access import access_signed_in
from games.access import AnyUser
from games.models import GameStatus
from plumbing.errors import ServiceError
from replays.access import ReplayGrant


def access_analysis_view(grant: ReplayGrant) -> None:
    """Only a game that ended by the rules has (or may have) an analysis."""
    if grant.live or grant.game.status != GameStatus.FINISHED:
        raise ServiceError(
            "game_not_finished", "only a game that ended with a win or a draw is analysed", 409
        )


def access_analysis_request(grant: ReplayGrant, user: AnyUser) -> None:
    """`user` may ask for the analysis of the replay `grant` opened."""
    access_signed_in(user)
    access_analysis_view(grant)
