"""The REST API: parse, call a service or selector, render. Nothing else lives here."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from harehra_site.api_errors import validated_body
from harehra_site.errors import ServiceError

from ..access import access_table_view
from ..engine import event_for
from ..models import Game, Table
from ..selectors import game_events_for, game_view, table_list_open
from ..services.commands import game_command_submit
from ..services.seats import seat_reclaim
from ..services.tables import (
    TableSettings,
    table_add_bot,
    table_create,
    table_join,
    table_leave,
    table_next_game,
    table_remove_bot,
    table_start,
)
from .serializers import (
    CommandSerializer,
    GameSummarySerializer,
    SeatChoiceSerializer,
    TableCreateSerializer,
    TableSerializer,
    command_from,
)

ERROR = inline_serializer("Error", {"code": serializers.CharField(), "detail": serializers.CharField()})


def _table(request: Request, pk: int) -> Table:
    table = get_object_or_404(Table, pk=pk)
    access_table_view(table, request.user, request.query_params.get("invite"))
    return table


def _render_table(request: Request, table: Table, code: int = status.HTTP_200_OK) -> Response:
    table = Table.objects.prefetch_related("seat_set__user").select_related("host").get(pk=table.pk)
    return Response(TableSerializer(table, context={"request": request}).data, status=code)


class TableListView(APIView):
    @extend_schema(responses=TableSerializer(many=True), summary="Open public tables (the lobby)")
    def get(self, request: Request) -> Response:
        tables = table_list_open()[:100]
        return Response(TableSerializer(tables, many=True, context={"request": request}).data)

    @extend_schema(request=TableCreateSerializer, responses={201: TableSerializer, 400: ERROR})
    def post(self, request: Request) -> Response:
        data = validated_body(TableCreateSerializer, request.data)
        data["packs"] = tuple(data["packs"])
        table = table_create(host=request.user, settings=TableSettings(**data))
        return _render_table(request, table, status.HTTP_201_CREATED)


class TableDetailView(APIView):
    @extend_schema(
        responses={200: TableSerializer, 404: ERROR},
        parameters=[OpenApiParameter("invite", str, description="invite code of a private table")],
    )
    def get(self, request: Request, pk: int) -> Response:
        return _render_table(request, _table(request, pk))


class TableActionView(APIView):
    """POST /api/tables/{id}/<action>/ for join, leave, add-bot, remove-bot, start, next-game."""

    action = ""

    @extend_schema(request=SeatChoiceSerializer, responses={200: TableSerializer, 400: ERROR, 409: ERROR})
    def post(self, request: Request, pk: int) -> Response:
        data = validated_body(SeatChoiceSerializer, request.data or {})
        table = get_object_or_404(Table, pk=pk)
        user = request.user
        seat = data.get("seat")
        if self.action == "join":
            table_join(table=table, user=user, seat=seat, invite_code=data.get("invite_code"))
        elif self.action == "leave":
            table_leave(table=table, user=user)
        elif self.action == "add-bot":
            table_add_bot(table=table, user=user, seat=seat, level=data["level"])
        elif self.action == "remove-bot":
            if seat is None:
                raise ServiceError("bad_seat", "say which seat's bot to remove")
            table_remove_bot(table=table, user=user, seat=seat)
        elif self.action == "start":
            table_start(table=table, user=user)
        elif self.action == "next-game":
            table_next_game(table=table, user=user)
        return _render_table(request, table)


class GameDetailView(APIView):
    @extend_schema(responses={200: OpenApiResponse(description="the game as the requester may see it")})
    def get(self, request: Request, pk: int) -> Response:
        return Response(game_view(get_object_or_404(Game, pk=pk), request.user))


class GameCommandView(APIView):
    @extend_schema(
        request=CommandSerializer,
        responses={
            200: OpenApiResponse(description="the accepted events, as the requester may see them"),
            400: ERROR,
            403: ERROR,
            409: ERROR,
        },
    )
    def post(self, request: Request, pk: int) -> Response:
        game = get_object_or_404(Game, pk=pk)
        body = request.data
        if not isinstance(body, dict):
            raise ServiceError("bad_command", "the request body is a JSON object")
        outcome = game_command_submit(
            game=game,
            user=request.user,
            command=command_from(body),
            client_cmd_id=body.get("client_cmd_id"),
            expected_seq=body.get("expected_seq"),
        )
        return Response(
            {
                "seq": outcome.last_seq,
                "duplicate": outcome.duplicate,
                "events": [{"seq": s, "event": event_for(e, outcome.seat)} for s, e in outcome.events],
            }
        )


class GameEventsView(APIView):
    @extend_schema(
        parameters=[OpenApiParameter("after", int, description="only events after this seq")],
        responses={200: OpenApiResponse(description="events after SEQ, filtered for the requester")},
    )
    def get(self, request: Request, pk: int) -> Response:
        game = get_object_or_404(Game, pk=pk)
        raw = request.query_params.get("after", "0")
        if not raw.isdigit():
            raise ServiceError("bad_request", "after is a non-negative integer")
        return Response({"events": game_events_for(game, request.user, after=int(raw))})


class GameReclaimView(APIView):
    @extend_schema(request=None, responses={200: OpenApiResponse(description="the seat reclaimed")})
    def post(self, request: Request, pk: int) -> Response:
        game = get_object_or_404(Game, pk=pk)
        return Response({"seat": seat_reclaim(game=game, user=request.user)})


class TableGamesView(APIView):
    @extend_schema(responses=GameSummarySerializer(many=True))
    def get(self, request: Request, pk: int) -> Response:
        table = _table(request, pk)
        games = table.games.order_by("number")
        return Response(GameSummarySerializer(games, many=True).data)
