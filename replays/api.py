"""The replay API: parse, ask access and selectors, render. Nothing else lives here."""

from __future__ import annotations

from typing import Any

from django.utils.decorators import method_decorator
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.throttles import GAME_LOG_THROTTLES, REPLAY_FRAMES_THROTTLES, REPLAY_IMPORT_THROTTLES
from games.frames import build_frames
from games.invites import request_invite
from plumbing.client_address import client_address
from plumbing.params import parse_count
from plumbing.replica import replica_view
from plumbing.schema import count_parameter

from .access import is_key_ref, open_replay
from .importing import DocumentRefused, validate_document
from .selectors import (
    game_events,
    parse_perspective,
    replay_export,
    replay_list_public,
    replay_list_rows,
    replay_meta,
    seat_names,
)
from .services import HEARTBEAT_SECONDS, watcher_beat, watcher_count, watcher_key

ERROR = inline_serializer("ReplayError", {"code": serializers.CharField(), "detail": serializers.CharField()})
IMPORT_ERROR = inline_serializer(
    "ReplayImportError",
    {
        "code": serializers.CharField(help_text="bad_document"),
        "detail": serializers.CharField(help_text="where and why, e.g. 'seq 17: waiting for seat 2'"),
        "seq": serializers.IntegerField(allow_null=True, required=False),
        "reason": serializers.CharField(
            required=False, help_text="a stable reason, e.g. not_your_turn, wrong_seq, bad_deck"
        ),
    },
)
PLAYER = inline_serializer(
    "ReplayPlayer",
    {
        "seat": serializers.IntegerField(),
        "name": serializers.CharField(),
        "is_bot": serializers.BooleanField(),
    },
)
PLAYER_LIST = serializers.ListField(child=PLAYER)
SUMMARY = inline_serializer(
    "ReplaySummary",
    {
        "id": serializers.IntegerField(),
        "table": serializers.IntegerField(),
        "number": serializers.IntegerField(),
        "status": serializers.CharField(),
        "result": serializers.CharField(),
        "winner": serializers.CharField(allow_null=True),
        "players": PLAYER_LIST,
        "events": serializers.IntegerField(),
        "finished_at": serializers.DateTimeField(allow_null=True),
        "url": serializers.CharField(),
    },
)
META = inline_serializer(
    "ReplayMeta",
    {
        "id": serializers.IntegerField(),
        "table": serializers.IntegerField(),
        "number": serializers.IntegerField(),
        "status": serializers.CharField(),
        "live": serializers.BooleanField(),
        "result": serializers.CharField(),
        "winner_seat": serializers.IntegerField(allow_null=True),
        "winner": serializers.CharField(allow_null=True),
        "players": PLAYER_LIST,
        "events": serializers.IntegerField(),
        "replay_access": serializers.CharField(),
        "perspectives": serializers.ListField(child=serializers.CharField()),
        "default_perspective": serializers.CharField(),
        "your_seat": serializers.IntegerField(allow_null=True),
        "url": serializers.CharField(help_text="the link to share"),
    },
)
FRAME = inline_serializer(
    "ReplayFrame",
    {
        "step": serializers.IntegerField(),
        "seq": serializers.IntegerField(),
        "turn_number": serializers.IntegerField(),
        "event": serializers.DictField(),
        "text": serializers.CharField(),
        "state": serializers.DictField(help_text="view_for for the perspective; 'all' adds every hand"),
        "capacity": serializers.ListField(child=serializers.IntegerField(), help_text="5 − damage per seat"),
    },
)
FRAMES = inline_serializer(
    "ReplayFrames",
    {
        "game": META,
        "perspective": serializers.CharField(),
        "total": serializers.IntegerField(help_text="frames in the whole game"),
        "frames": serializers.ListField(child=FRAME),
    },
)
PERSPECTIVE = OpenApiParameter(
    "perspective", str, description="all (finished games), spectator, or seat:N (only what seat N saw)"
)
REF_NOTE = (
    "`ref` is the game id, or its replay key (for link-only replays). A private table's running game: "
    "`?invite=CODE`, the table's invite code."
)


def _open(request: Request, ref: str) -> Any:
    """The replay `ref` names, as the requester may see it (a private table's running game with
    its invite: `?invite=`, or the one the session remembers)."""
    return open_replay(ref, request.user, lambda table_id: request_invite(request, table_id))


def _int_param(request: Request, name: str, default: int | None) -> int | None:
    return parse_count(request.query_params.get(name), name, default)


def frames_payload(grant: Any, perspective_name: str | None, first: int = 0, last: int | None = None,
                   opened_with_key: bool = False) -> dict[str, Any]:  # fmt: skip
    game = grant.game
    perspective = parse_perspective(perspective_name, grant, game.players)
    events = game_events(game)
    return {
        "game": replay_meta(grant, opened_with_key),
        "perspective": perspective_name or grant.default_perspective,
        "total": len(events),
        "frames": build_frames(events, seat_names(game), perspective, first, last),
    }


class ReplayListView(APIView):
    @extend_schema(
        summary="Public replays, newest first",
        operation_id="replays_list",
        parameters=[
            OpenApiParameter("player", str, description="only games this username played"),
            count_parameter("limit", "at most 100 (default 50)"),
            count_parameter("offset"),
        ],
        responses={
            200: inline_serializer(
                "ReplayList",
                {"count": serializers.IntegerField(), "results": serializers.ListField(child=SUMMARY)},
            )
        },
    )
    @method_decorator(replica_view)
    def get(self, request: Request) -> Response:
        games = replay_list_public(request.query_params.get("player") or None)
        limit = min(100, _int_param(request, "limit", 50) or 50)
        offset = _int_param(request, "offset", 0) or 0
        return Response({"count": games.count(), "results": replay_list_rows(games[offset : offset + limit])})


class ReplayDetailView(APIView):
    @extend_schema(
        summary="A replay's metadata and players", description=REF_NOTE, responses={200: META, 404: ERROR}
    )
    @method_decorator(replica_view)
    def get(self, request: Request, ref: str) -> Response:
        grant = _open(request, ref)
        return Response(replay_meta(grant, is_key_ref(ref)))


class ReplayFramesView(APIView):
    throttle_classes = REPLAY_FRAMES_THROTTLES  # every step rebuilt from the deal

    @extend_schema(
        summary="The table at each step, for one perspective",
        description=REF_NOTE + " `from` and `to` are steps (inclusive, from 0, the deal).",
        parameters=[
            PERSPECTIVE,
            count_parameter("from", "first step (default 0)"),
            count_parameter("to", "last step, inclusive (default the last)"),
        ],
        responses={200: FRAMES, 400: ERROR, 404: ERROR},
    )
    @method_decorator(replica_view)
    def get(self, request: Request, ref: str) -> Response:
        grant = _open(request, ref)
        first = _int_param(request, "from", 0) or 0
        last = _int_param(request, "to", None)
        payload = frames_payload(
            grant, request.query_params.get("perspective"), first, last, opened_with_key=is_key_ref(ref)
        )
        return Response(payload)


EXPORT = inline_serializer(
    "ReplayExport",
    {
        "format": serializers.CharField(help_text="harehra-replay"),
        "version": serializers.IntegerField(help_text="the document's version: 1"),
        "game": serializers.DictField(
            help_text="{id, table, number, status, result, winner_seat, players: [{seat, name, is_bot}], "
            "created_at, finished_at}"
        ),
        "events": serializers.ListField(
            child=serializers.DictField(), help_text="every event of the log, each with its seq"
        ),
        "analysis": serializers.DictField(
            required=False,
            help_text=(
                "the game's analysis at today's version, when one exists: the analysis API's "
                "`analysis` (docs/ANALYSIS.md). An import ignores it: it is never trusted"
            ),
        ),
    },
)


class ReplayExportView(APIView):
    throttle_classes = GAME_LOG_THROTTLES  # every event of the log

    @extend_schema(
        summary="The game's events as a JSON document (finished games), with its analysis if made",
        description=REF_NOTE,
        responses={
            200: EXPORT,
            404: ERROR,
            409: ERROR,
        },
    )
    @method_decorator(replica_view)
    def get(self, request: Request, ref: str) -> Response:
        grant = _open(request, ref)
        response = Response(replay_export(grant))
        if request.query_params.get("download"):
            response["Content-Disposition"] = f'attachment; filename="harehra-game-{grant.game.pk}.json"'
        return response


class ReplayImportView(APIView):
    throttle_classes = REPLAY_IMPORT_THROTTLES  # the whole document checked by the rules

    @extend_schema(
        summary="Check an exported document by the rules and return its frames (nothing is stored)",
        parameters=[PERSPECTIVE],
        request={"application/json": OpenApiTypes.OBJECT},
        description=(
            "The body is an export document: {format, version, game, events}; an `analysis` it "
            "carries (an export's) is ignored: never trusted, stored or returned."
        ),
        responses={200: FRAMES, 400: IMPORT_ERROR},
    )
    def post(self, request: Request) -> Response:
        try:
            imported = validate_document(request.data)
        except DocumentRefused as refusal:
            return Response(refusal.as_dict(), status=status.HTTP_400_BAD_REQUEST)
        players = len(imported.names)
        name = request.query_params.get("perspective") or "all"
        perspective = parse_perspective(name, None, players)
        frames = build_frames(imported.events, imported.names, perspective)
        return Response(
            {
                "game": {
                    "id": None,
                    "players": imported.game["players"],
                    "events": len(imported.events),
                    "complete": imported.complete,
                    "live": False,
                    "perspectives": ["all", "spectator", *[f"seat:{n}" for n in range(players)]],
                    "default_perspective": "all",
                },
                "perspective": name,
                "total": len(frames),
                "frames": frames,
            }
        )


class ReplayWatchersView(APIView):
    @extend_schema(
        summary="Spectators watching a running game now",
        description=REF_NOTE,
        responses={200: inline_serializer("WatcherCount", {"count": serializers.IntegerField()}), 404: ERROR},
    )
    def get(self, request: Request, ref: str) -> Response:
        grant = _open(request, ref)
        return Response({"count": watcher_count(grant.game), "heartbeat": HEARTBEAT_SECONDS})

    @extend_schema(
        summary="A watch page's heartbeat (or its goodbye with leaving=true)",
        description=(
            "Counts people, not pages: a signed-in spectator once whatever their client ids, a "
            "signed-out one once per address."
        ),
        request=inline_serializer(
            "WatcherBeat",
            {"client_id": serializers.CharField(), "leaving": serializers.BooleanField(required=False)},
        ),
        responses={200: inline_serializer("WatcherCountAfterBeat", {"count": serializers.IntegerField()})},
    )
    def post(self, request: Request, ref: str) -> Response:
        grant = _open(request, ref)
        body = request.data if isinstance(request.data, dict) else {}
        count = watcher_beat(
            game=grant.game,
            viewer=watcher_key(request.user, client_address(request)),
            client_id=body.get("client_id"),
            leaving=bool(body.get("leaving")),
        )
        return Response({"count": count, "heartbeat": HEARTBEAT_SECONDS})
