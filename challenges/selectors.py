"""Reads: a person's challenges, one challenge as a person sees it, and the friends panel."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Q

from accounts.models import ChallengesFrom, Preference
from games.access import access_table_view
from games.models import GameStatus, Seat, TableStatus
from plumbing.errors import ServiceError
from relations.online import online_seen_by
from relations.selectors import friend_ids

from .models import AnswerStatus, Challenge, ChallengeAnswer, ChallengeStatus

# The challenges list shows the newest this many.
LIST_AT_MOST = 30


def challenge_dict(challenge: Challenge, viewer_id: int) -> dict[str, Any]:
    answers = list(challenge.answers.select_related("user").order_by("pk"))
    mine = next((a for a in answers if a.user_id == viewer_id), None)
    return {
        "id": challenge.pk,
        "from": challenge.challenger.get_username(),
        "mine": challenge.challenger_id == viewer_id,
        "status": challenge.status,
        "rematch": challenge.rematch,
        "settings": challenge.settings,
        "bot_level": challenge.bot_level,
        "to": [a.user.get_username() for a in answers],
        "answers": [{"name": a.user.get_username(), "status": a.status} for a in answers],
        "my_answer": mine.status if mine is not None else None,
        "table": challenge.table_id,
        "game": challenge.game_id,
        "created_at": challenge.created_at.isoformat(),
        "expires_at": challenge.expires_at.isoformat(),
    }


def challenge_for(challenge_id: int, viewer_id: int) -> Challenge:
    """The challenge, if `viewer_id` made it or was challenged (else not_found)."""
    found = (
        Challenge.objects.select_related("challenger")
        .filter(pk=challenge_id)
        .filter(Q(challenger_id=viewer_id) | Q(answers__user_id=viewer_id))
        .first()
    )
    if found is None:
        raise ServiceError("not_found", "no such challenge", 404)
    return found


def challenges_of(user_id: int) -> list[dict[str, Any]]:
    """The person's challenges, made and received, the newest first."""
    received = ChallengeAnswer.objects.filter(user_id=user_id).values("challenge_id")
    rows = (
        Challenge.objects.select_related("challenger")
        .filter(Q(challenger_id=user_id) | Q(pk__in=received))
        .order_by("-created_at", "-pk")[:LIST_AT_MOST]
    )
    return [challenge_dict(c, user_id) for c in rows]


def challenges_from_of(user_id: int) -> str:
    """Who may challenge the person (accounts' Preference; friends when never set)."""
    found = Preference.objects.filter(user_id=user_id).values_list("challenges_from", flat=True).first()
    return found or ChallengesFrom.FRIENDS


def challenges_waiting(user_id: int) -> int:
    """Challenges the person has not answered yet, still open."""
    return ChallengeAnswer.objects.filter(
        user_id=user_id, status=AnswerStatus.PENDING, challenge__status=ChallengeStatus.PENDING
    ).count()


def friends_online(viewer: Any) -> list[dict[str, Any]]:
    """The viewer's friends (mutual follows) online now, each with the table they sit at, only
    where the viewer could watch it (a public table, or one they sit at), and its running game."""
    if not getattr(viewer, "is_authenticated", False):
        return []
    online = online_seen_by(viewer.pk, friend_ids(viewer.pk))
    if not online:
        return []
    names = dict(get_user_model().objects.filter(pk__in=online).values_list("pk", "username"))
    at: dict[int, dict[str, Any]] = {}
    seats = (
        Seat.objects.filter(user_id__in=online)
        .exclude(table__status=TableStatus.CLOSED)
        .select_related("table")
        .order_by("-table__created_at")
    )
    for seat in seats:
        if seat.user_id in at:
            continue
        try:
            access_table_view(seat.table, viewer, None)
        except ServiceError:
            continue
        game = None
        if seat.table.status == TableStatus.PLAYING:
            game = seat.table.games.filter(status=GameStatus.RUNNING).values_list("pk", flat=True).first()
        at[seat.user_id] = {"table": seat.table_id, "game": game}
    return sorted(
        (
            {"name": names[uid], "table": at.get(uid, {}).get("table"), "game": at.get(uid, {}).get("game")}
            for uid in names
        ),
        key=lambda f: f["name"].lower(),
    )
