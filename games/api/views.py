"""The REST API: parse, call a service or selector, render. Nothing else lives here."""

from __future__ import annotations

import time

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.access import access_signed_in
from accounts.throttles import GAME_LOG_THROTTLES
from harehra import event_for
from plumbing.api_errors import validated_body
from plumbing.errors import ServiceError
from plumbing.logs import command_observed
from plumbing.params import parse_count
from plumbing.publish import sends_held, sends_made_sync
from plumbing.schema import count_parameter

from ..access import access_game_seat, access_table_view
from ..invites import request_invite
from ..models import Game, Table
from ..selectors import (
    game_events_for,
    game_seat_standing_answers,
    game_view,
    holiday_status,
    my_games,
    table_games_for,
    table_list_open,
)
from ..services.holidays import holiday_end, holiday_take
from ..services.moves import game_command_submit
from ..services.seats import seat_reclaim, seat_set_auto_answer, seat_set_standing_answers
from ..services.tables import TableSettings, table_act, table_create
from .serializers import (
    AutoAnswerSerializer,
    CommandSerializer,
    GameSummarySerializer,
    HolidayStatusSerializer,
    HolidayTakeSerializer,
    MyGamesSerializer,
    SeatChoiceSerializer,
    StandingAnswersSerializer,
    TableCreateSerializer,
    TableSerializer,
    command_from,
)

ERROR = inline_serializer("Error", {"code": serializers.CharField(), "detail": serializers.CharField()})


def _table(request: Request, pk: int) -> Table:
    table = get_object_or_404(Table, pk=pk)
    access_table_view(table, request.user, request_invite(request, table.pk))
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
        table_act(
            table=table,
            user=request.user,
            action=self.action,
            seat=data.get("seat"),
            invite_code=data.get("invite_code"),
            level=data["level"],
        )
        return _render_table(request, table)


INVITE = OpenApiParameter("invite", str, description="invite code of a private table (to watch its game)")


def _invite(request: Request, game: Game) -> str | None:
    return request_invite(request, game.table_id)


class GameDetailView(APIView):
    @extend_schema(
        parameters=[INVITE],
        responses={200: OpenApiResponse(description="the game as the requester may see it")},
    )
    def get(self, request: Request, pk: int) -> Response:
        game = get_object_or_404(Game, pk=pk)
        return Response(game_view(game, request.user, _invite(request, game)))


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
        started, cmd_id = time.perf_counter(), body.get("client_cmd_id")
        try:
            with sends_held() as held:
                try:
                    outcome = game_command_submit(
                        game=game,
                        user=request.user,
                        command=command_from(body),
                        client_cmd_id=cmd_id,
                        expected_seq=body.get("expected_seq"),
                    )
                finally:
                    # The move's push goes out before its answer (publish.sends_held).
                    sends_made_sync(held)
        except ServiceError as e:
            command_observed(game.pk, request.user, cmd_id, None, e.code, started, "api")
            raise
        code = "duplicate" if outcome.duplicate else "ok"
        command_observed(game.pk, request.user, cmd_id, outcome.last_seq, code, started, "api")
        return Response(
            {
                "seq": outcome.last_seq,
                "duplicate": outcome.duplicate,
                "events": [{"seq": s, "event": event_for(e, outcome.seat)} for s, e in outcome.events],
            }
        )


class GameEventsView(APIView):
    throttle_classes = GAME_LOG_THROTTLES  # from ?after=0: the whole log

    @extend_schema(
        parameters=[count_parameter("after", "only events after this seq"), INVITE],
        responses={200: OpenApiResponse(description="events after SEQ, filtered for the requester")},
    )
    def get(self, request: Request, pk: int) -> Response:
        game = get_object_or_404(Game, pk=pk)
        after = parse_count(request.query_params.get("after"), "after", 0) or 0
        events = game_events_for(game, request.user, after=after, invite=_invite(request, game))
        return Response({"events": events})


class GameReclaimView(APIView):
    @extend_schema(request=None, responses={200: OpenApiResponse(description="the seat reclaimed")})
    def post(self, request: Request, pk: int) -> Response:
        game = get_object_or_404(Game, pk=pk)
        return Response({"seat": seat_reclaim(game=game, user=request.user)})


class GameAutoAnswerView(APIView):
    @extend_schema(
        request=AutoAnswerSerializer,
        responses={200: AutoAnswerSerializer, 400: ERROR, 403: ERROR},
    )
    def post(self, request: Request, pk: int) -> Response:
        game = get_object_or_404(Game, pk=pk)
        on = validated_body(AutoAnswerSerializer, request.data)["on"]
        return Response({"on": seat_set_auto_answer(game=game, user=request.user, on=on)})


class GameStandingAnswersView(APIView):
    """Your seat's standing answers (docs/RULES.md, "Standing answers"): only its own person reads
    or sets them (`not_seated` to anyone else), and no other viewer ever receives them."""

    @extend_schema(responses={200: StandingAnswersSerializer, 403: ERROR})
    def get(self, request: Request, pk: int) -> Response:
        game = get_object_or_404(Game, pk=pk)
        return Response(game_seat_standing_answers(game, access_game_seat(game, request.user)))

    @extend_schema(
        request=StandingAnswersSerializer,
        responses={200: StandingAnswersSerializer, 400: ERROR, 403: ERROR},
    )
    def post(self, request: Request, pk: int) -> Response:
        game = get_object_or_404(Game, pk=pk)
        body = request.data if isinstance(request.data, dict) else {}
        answers = seat_set_standing_answers(
            game=game, user=request.user, volley=body.get("volley"), skip=body.get("skip")
        )
        return Response(answers.as_dict())


class TableGamesView(APIView):
    @extend_schema(responses=GameSummarySerializer(many=True))
    def get(self, request: Request, pk: int) -> Response:
        table = _table(request, pk)
        return Response(GameSummarySerializer(table_games_for(table, request.user), many=True).data)


class MyGamesView(APIView):
    @extend_schema(
        responses={200: MyGamesSerializer, 401: ERROR},
        summary="The requester's games: running (those awaiting their decision first) and lately finished",
    )
    def get(self, request: Request) -> Response:
        access_signed_in(request.user)
        return Response(MyGamesSerializer(my_games(request.user)).data)


def _holiday(request: Request, code: int = status.HTTP_200_OK) -> Response:
    return Response(HolidayStatusSerializer(holiday_status(request.user.pk)).data, status=code)


class HolidayView(APIView):
    @extend_schema(responses={200: HolidayStatusSerializer, 401: ERROR}, summary="The requester's holidays")
    def get(self, request: Request) -> Response:
        access_signed_in(request.user)
        return _holiday(request)

    @extend_schema(
        request=HolidayTakeSerializer,
        responses={201: HolidayStatusSerializer, 400: ERROR, 401: ERROR, 409: ERROR},
        summary="Take a holiday from now: the requester's slow games' clocks wait",
    )
    def post(self, request: Request) -> Response:
        access_signed_in(request.user)
        days = validated_body(HolidayTakeSerializer, request.data)["days"]
        holiday_take(user=request.user, days=days)
        return _holiday(request, status.HTTP_201_CREATED)


class HolidayEndView(APIView):
    @extend_schema(
        request=None,
        responses={200: HolidayStatusSerializer, 401: ERROR, 409: ERROR},
        summary="End the requester's holiday now",
    )
    def post(self, request: Request) -> Response:
        holiday_end(user=request.user)
        return _holiday(request)
