"""POST /api/reports/: a signed-in user reports a player and/or a game."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from harehra_site.errors import ServiceError

from .models import ReportReason
from .services import REPORT_TEXT_MAX, report_create


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
        )
        return Response({"id": report.pk, "status": report.status}, status=status.HTTP_201_CREATED)
