"""The table chat over REST: what the chat panel does over the page's socket, for any client."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.invites import request_invite
from plumbing.api_errors import validated_body

from .models import MAX_CHARS
from .selectors import chat_open
from .services import chat_post, chat_set_enabled

MESSAGE_FIELDS = {
    "id": serializers.IntegerField(),
    "channel": serializers.CharField(),
    "user": serializers.CharField(),
    "text": serializers.CharField(),
    "at": serializers.DateTimeField(),
}
MESSAGE = inline_serializer("ChatMessage", MESSAGE_FIELDS)
CHAT = inline_serializer(
    "Chat",
    {
        "table": serializers.IntegerField(),
        "channel": serializers.ChoiceField(choices=["players", "spectators"]),
        "enabled": serializers.BooleanField(),
        "can_send": serializers.BooleanField(),
        "why_not": serializers.CharField(),
        "host": serializers.BooleanField(),
        "messages": inline_serializer("ChatMessages", MESSAGE_FIELDS, many=True),
    },
)
INVITE = OpenApiParameter("invite", str, description="invite code of a private table")


class PostSerializer(serializers.Serializer):
    text = serializers.CharField(max_length=MAX_CHARS * 4, trim_whitespace=False)


class EnabledSerializer(serializers.Serializer):
    enabled = serializers.BooleanField()


class TableChatView(APIView):
    @extend_schema(responses={200: CHAT}, parameters=[INVITE], summary="Your channel of the table's chat")
    def get(self, request: Request, pk: int) -> Response:
        return Response(chat_open(pk, request.user, request_invite(request, pk)))

    @extend_schema(
        request=PostSerializer,
        responses={201: MESSAGE},
        parameters=[INVITE],
        summary="Post to your channel (players' or spectators'): at most 300 characters, 5 in 10 s",
    )
    def post(self, request: Request, pk: int) -> Response:
        data = validated_body(PostSerializer, request.data)
        sent = chat_post(
            table_id=pk, user=request.user, text=data["text"], invite_code=request_invite(request, pk)
        )
        return Response(sent, status=status.HTTP_201_CREATED)


class TableChatSettingsView(APIView):
    @extend_schema(
        request=EnabledSerializer, responses={200: EnabledSerializer}, summary="The host turns chat on or off"
    )
    def post(self, request: Request, pk: int) -> Response:
        data = validated_body(EnabledSerializer, request.data)
        return Response(
            {"enabled": chat_set_enabled(table_id=pk, user=request.user, enabled=data["enabled"])}
        )
