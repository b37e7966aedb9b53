"""POST /api/reports/: a signed-in user reports a player and/or a game."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from chat.models import ChatMessage
from games.invites import request_invite
from plumbing.api_errors import validated_body
from plumbing.errors import ServiceError
from tournaments.models import Entry, Tournament

from .models import ReportReason
from .services import (
    REASON_MAX,
    REPORT_TEXT_MAX,
    chat_message_hide,
    report_create,
    tournament_cancel,
    tournament_player_remove,
    user_mute,
    user_unmute,
)


class ReportSerializer(serializers.Serializer):
    user = serializers.CharField(required=False, allow_blank=True, max_length=150)
    game = serializers.IntegerField(required=False, allow_null=True, min_value=1)
    reason = serializers.ChoiceField(choices=ReportReason.choices)
    text = serializers.CharField(required=False, allow_blank=True, max_length=REPORT_TEXT_MAX)


REPORT = inline_serializer(
    "ReportCreated", {"id": serializers.IntegerField(), "status": serializers.CharField()}
)


class ReportCreateView(APIView):
    @extend_schema(request=ReportSerializer, responses={201: REPORT})
    def post(self, request: Request) -> Response:
        if not isinstance(request.data, dict):
            raise ServiceError("invalid", "the request body is a JSON object")
        s = ReportSerializer(data=request.data)
        s.is_valid(raise_exception=True)
        data: dict[str, Any] = s.validated_data
        report = report_create(
            reporter=request.user,
            reason=data["reason"],
            text=data.get("text", ""),
            target_username=data.get("user") or None,
            game_id=data.get("game"),
            invite_of=lambda table_id: request_invite(request, table_id),
        )
        return Response({"id": report.pk, "status": report.status}, status=status.HTTP_201_CREATED)


class ChatReportSerializer(serializers.Serializer):
    reason = serializers.ChoiceField(choices=ReportReason.choices, default=ReportReason.ABUSE)
    text = serializers.CharField(required=False, allow_blank=True, max_length=REPORT_TEXT_MAX)


class ChatReportView(APIView):
    """POST /api/chat/messages/{id}/report/: report a chat message you saw (quoted in the report)."""

    @extend_schema(request=ChatReportSerializer, responses={201: REPORT})
    def post(self, request: Request, pk: int) -> Response:
        data = validated_body(ChatReportSerializer, request.data or {})
        report = report_create(
            reporter=request.user,
            reason=data["reason"],
            text=data.get("text", ""),
            chat_message_id=pk,
            invite_of=lambda table_id: request_invite(request, table_id),
        )
        return Response({"id": report.pk, "status": report.status}, status=status.HTTP_201_CREATED)


class ReasonSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=REASON_MAX)


class MuteSerializer(ReasonSerializer):
    hours = serializers.IntegerField(
        required=False, allow_null=True, min_value=1, max_value=87600, help_text="none: until lifted"
    )


class ChatMessageHideView(APIView):
    """POST /api/moderation/chat-messages/{id}/hide/: a moderator hides a chat message."""

    @extend_schema(request=ReasonSerializer, responses={200: OpenApiResponse(description="hidden")})
    def post(self, request: Request, pk: int) -> Response:
        data = validated_body(ReasonSerializer, request.data)
        message = get_object_or_404(ChatMessage, pk=pk)
        chat_message_hide(moderator=request.user, message=message, reason=data["reason"])
        return Response({"id": pk, "hidden": True})


class MuteView(APIView):
    """POST /api/moderation/users/{name}/mute/ and .../unmute/: a moderator mutes a user, or lifts it."""

    lift = False

    @extend_schema(request=MuteSerializer, responses={200: OpenApiResponse(description="muted or unmuted")})
    def post(self, request: Request, username: str) -> Response:
        user = get_object_or_404(get_user_model(), username=username)
        if self.lift:
            data = validated_body(ReasonSerializer, request.data)
            user_unmute(moderator=request.user, user=user, reason=data["reason"])
            return Response({"user": username, "muted": False})
        data = validated_body(MuteSerializer, request.data)
        hours = data.get("hours")
        mute = user_mute(
            moderator=request.user,
            user=user,
            reason=data["reason"],
            period=timedelta(hours=hours) if hours else None,
        )
        return Response(
            {"user": username, "muted": True, "until": mute.until.isoformat() if mute.until else None}
        )


class TournamentCancelView(APIView):
    """POST /api/moderation/tournaments/{id}/cancel/: a moderator cancels a tournament."""

    @extend_schema(request=ReasonSerializer, responses={200: OpenApiResponse(description="cancelled")})
    def post(self, request: Request, pk: int) -> Response:
        data = validated_body(ReasonSerializer, request.data)
        t = tournament_cancel(
            moderator=request.user, tournament=get_object_or_404(Tournament, pk=pk), reason=data["reason"]
        )
        return Response({"tournament": t.pk, "status": t.status})


class TournamentPlayerRemoveView(APIView):
    """POST /api/moderation/tournaments/{id}/players/{name}/remove/: a moderator removes a player."""

    @extend_schema(request=ReasonSerializer, responses={200: OpenApiResponse(description="removed")})
    def post(self, request: Request, pk: int, username: str) -> Response:
        data = validated_body(ReasonSerializer, request.data)
        t = get_object_or_404(Tournament, pk=pk)
        entry = Entry.objects.filter(tournament=t, user__username=username).first()
        if entry is None:
            raise ServiceError("not_entered", "that player is not in this tournament", 404)
        entry = tournament_player_remove(moderator=request.user, entry=entry, reason=data["reason"])
        return Response(
            {"tournament": t.pk, "player": username, "removed": True, "withdrawn": entry.withdrawn}
        )
