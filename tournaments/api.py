"""The tournaments REST API: parse, call a service or selector, render. Nothing else lives here."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.decorators import method_decorator
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from plumbing.api_errors import validated_body
from plumbing.errors import ServiceError
from plumbing.replica import replica_view

from .models import Entry, Tournament
from .selectors import (
    entry_result_rows,
    tournament_detail,
    tournament_list_rows,
    tournament_rows,
    tournament_to_show,
)
from .serializers import (
    PlayerResultsSerializer,
    TournamentCreateSerializer,
    TournamentDetailSerializer,
    TournamentListSerializer,
)
from .services import TOURNAMENT_ACTIONS as ACTIONS
from .services import tournament_create


def _detail(request: Request, t: Tournament, code: int = status.HTTP_200_OK) -> Response:
    t = Tournament.objects.get(pk=t.pk)
    return Response(TournamentDetailSerializer(tournament_detail(t, request.user)).data, status=code)


class TournamentListView(APIView):
    @extend_schema(
        responses=TournamentListSerializer,
        summary="Tournaments: upcoming, running, finished",
        operation_id="tournaments_list",
    )
    def get(self, request: Request) -> Response:
        return Response(TournamentListSerializer(tournament_list_rows()).data)

    @extend_schema(
        request=TournamentCreateSerializer,
        responses={201: TournamentDetailSerializer},
        summary="Create a tournament",
        description=(
            "Any signed-in player in good standing creates an arena or a Swiss event; staff's are "
            "featured (the lobby shows them). A player's event starts within 7 days (now: "
            "`starts_at` = the current time), an arena lasts 10 to 180 minutes, a Swiss event 1 to "
            "9 rounds. Errors: 400 `invalid` (a field), `bad_settings`, `bad_dates`; 403 `not_staff` "
            "(`featured` by a player), `banned`, `suspended`; 429 `too_many_events` (2 of yours not "
            "ended), `too_often` (5 created in 24 hours; Retry-After)."
        ),
    )
    def post(self, request: Request) -> Response:
        data: dict[str, Any] = validated_body(TournamentCreateSerializer, request.data)
        data.setdefault("entry_opens_at", min(timezone.now(), data["starts_at"]))
        data.setdefault("min_table_size", data["table_size"])
        t = tournament_create(user=request.user, **data)
        return _detail(request, t, status.HTTP_201_CREATED)


class TournamentDetailView(APIView):
    @extend_schema(responses=TournamentDetailSerializer, summary="A tournament, its rules and standings")
    @method_decorator(replica_view)
    def get(self, request: Request, pk: int) -> Response:
        t = tournament_to_show(pk)
        if t is None:
            raise Http404
        return _detail(request, t)


class TournamentActionView(APIView):
    """POST /api/tournaments/{id}/<action>/ for join, withdraw, pause, and cancel (the host before
    the start, or staff: 403 `not_host`, 409 `started`)."""

    action = ""

    @extend_schema(request=None, responses=TournamentDetailSerializer)
    def post(self, request: Request, pk: int) -> Response:
        t = get_object_or_404(Tournament, pk=pk)
        ACTIONS[self.action](tournament=t, user=request.user)
        return _detail(request, t)


class TournamentPlayerView(APIView):
    @extend_schema(responses=PlayerResultsSerializer, summary="One entrant's standing and games")
    def get(self, request: Request, pk: int, username: str) -> Response:
        t = get_object_or_404(Tournament, pk=pk)
        user = get_user_model().objects.filter(username=username).first()
        entry = Entry.objects.filter(tournament=t, user=user).first() if user else None
        if entry is None:
            raise ServiceError("not_entered", "no such player in this tournament", 404)
        row = next(r for r in tournament_rows(t) if r["entry"] == entry.pk)
        return Response(PlayerResultsSerializer({"standing": row, "results": entry_result_rows(entry)}).data)
