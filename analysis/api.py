"""The analysis API: a replay's analysis, and asking for one. Parse, ask access and the services or
selectors, render. Every refusal of the replay itself is its 404 (replays.access)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.throttles import GAME_LOG_THROTTLES
from games.invites import request_invite
from replays.access import ReplayGrant, open_replay

from .access import access_analysis_view
from .models import GameAnalysis
from .selectors import analysis_status
from .services import analysis_request_create

STATUS = inline_serializer(
    "ReplayAnalysis",
    {
        "status": serializers.ChoiceField(["none", "queued", "running", "done", "failed"]),
        "version": serializers.IntegerField(help_text="the analysis method's version (today's)"),
        "progress": inline_serializer(
            "AnalysisProgress",
            {
                "done": serializers.IntegerField(help_text="steps analysed so far"),
                "total": serializers.IntegerField(help_text="the game's steps (0 until a worker starts it)"),
            },
            required=False,
            help_text="queued and running",
        ),
        "code": serializers.CharField(
            required=False, help_text="failed: why (game_not_finished, error); none: analysis_lost"
        ),
        "playouts": serializers.IntegerField(required=False, help_text="done: worlds per estimate"),
        "made_at": serializers.DateTimeField(required=False),
        "analysis": serializers.DictField(
            required=False,
            help_text=(
                "done: {version, playouts, players, chances (per step, per seat, 0..1), decisions "
                "([{step, seat, kind, options: [{command, win, se}], chosen, best, drop, se, label, "
                "accuracy}]), accuracy (per seat, or null)}, and placings and luck when the version "
                "has them (docs/ANALYSIS.md)"
            ),
        ),
    },
)
NOTE = (
    "`ref` is the game id, or its replay key. Whoever may open the replay may read its analysis "
    "(a finished game's replay shows every hand, so every option is shown). A game that did not "
    "end by the rules (running, aborted) is `game_not_finished` (409)."
)


def _open(request: Request, ref: str) -> ReplayGrant:
    return open_replay(ref, request.user, lambda table_id: request_invite(request, table_id))


def _answer(grant: ReplayGrant, code: int = status.HTTP_200_OK) -> Response:
    return Response(analysis_status(grant.game), status=code)


class ReplayAnalysisView(APIView):
    # The stored analysis has an entry per step; asking for one has THROTTLE_ANALYSIS besides.
    throttle_classes = GAME_LOG_THROTTLES

    @extend_schema(
        summary="A finished game's analysis, or how far its making got",
        description=NOTE,
        responses={200: STATUS},
    )
    def get(self, request: Request, ref: str) -> Response:
        grant = _open(request, ref)
        access_analysis_view(grant)
        return _answer(grant)

    @extend_schema(
        summary="Ask for a finished game's analysis",
        description=(
            NOTE + " Signed in. Queues the analysis (202) unless it exists (200) or is under way (202, "
            "the same request: not counted again). One pending request per person "
            "(`analysis_pending`, 409); a few per hour (`throttled`, 429 with Retry-After: "
            "settings THROTTLE_ANALYSIS). Then follow its progress over the websocket "
            "/ws/replays/<ref>/analysis/ (docs/PROTOCOL.md), or GET it."
        ),
        request=None,
        responses={200: STATUS, 202: STATUS},
    )
    def post(self, request: Request, ref: str) -> Response:
        grant = _open(request, ref)
        made = analysis_request_create(grant=grant, user=request.user)
        done = isinstance(made, GameAnalysis)
        return _answer(grant, status.HTTP_200_OK if done else status.HTTP_202_ACCEPTED)
