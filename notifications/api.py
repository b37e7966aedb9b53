"""Notifications over REST: the list the notifications page shows, and marking them read."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.access import access_signed_in
from plumbing.api_errors import validated_body

from .models import Channel, Kind
from .selectors import LIST_AT_MOST, notifications_of, preferences_of, unread_count
from .services import notification_mark_read, notification_preferences_set

NOTIFICATION = {
    "id": serializers.IntegerField(),
    "kind": serializers.CharField(),
    "data": serializers.DictField(),
    "text": serializers.CharField(),
    "url": serializers.CharField(),
    "at": serializers.DateTimeField(),
    "read": serializers.BooleanField(),
}
NOTIFICATIONS = inline_serializer(
    "Notifications",
    {
        "unread": serializers.IntegerField(),
        "notifications": inline_serializer("Notification", NOTIFICATION, many=True),
    },
)


class NotificationsReadSerializer(serializers.Serializer):
    ids = serializers.ListField(child=serializers.IntegerField(), required=False, max_length=LIST_AT_MOST)


class NotificationsView(APIView):
    @extend_schema(responses={200: NOTIFICATIONS}, summary=f"Your newest {LIST_AT_MOST} notifications")
    def get(self, request: Request) -> Response:
        access_signed_in(request.user)
        pk = request.user.pk
        return Response({"unread": unread_count(pk), "notifications": notifications_of(pk)})


class NotificationsReadView(APIView):
    @extend_schema(
        request=NotificationsReadSerializer,
        responses={200: inline_serializer("NotificationsMarked", {"marked": serializers.IntegerField()})},
        summary="Mark notifications read: those of `ids`, else all",
    )
    def post(self, request: Request) -> Response:
        data = validated_body(NotificationsReadSerializer, request.data)
        return Response({"marked": notification_mark_read(user=request.user, ids=data.get("ids"))})


PREFERENCES = inline_serializer(
    "NotificationPreferences",
    {
        k: inline_serializer(
            f"NotificationChannels_{k}", {c: serializers.BooleanField() for c in Channel.values}
        )
        for k in Kind.values
    },
)


class PreferencesSerializer(serializers.Serializer):
    preferences = serializers.DictField(
        child=serializers.DictField(child=serializers.BooleanField()),
        help_text="{kind: {channel: on}}; kinds and channels left out are unchanged",
    )

    def validate_preferences(self, value: dict[str, dict[str, bool]]) -> dict[str, dict[str, bool]]:
        for kind, channels in value.items():
            if kind not in Kind.values:
                raise serializers.ValidationError(f"no notification kind {kind!r}")
            for channel in channels:
                if channel not in Channel.values:
                    raise serializers.ValidationError(f"no channel {channel!r}")
        return value


class NotificationPreferencesView(APIView):
    @extend_schema(
        responses={200: inline_serializer("NotificationPreferencesAnswer", {"preferences": PREFERENCES})},
        summary="How you want each kind of notification: on the site (always), by push, by email",
    )
    def get(self, request: Request) -> Response:
        access_signed_in(request.user)
        return Response({"preferences": preferences_of(request.user.pk)})

    @extend_schema(
        request=PreferencesSerializer,
        responses={200: inline_serializer("NotificationPreferencesSaved", {"preferences": PREFERENCES})},
        summary="Change your choices; `site` may only be true (the site always keeps a notification)",
    )
    def put(self, request: Request) -> Response:
        access_signed_in(request.user)
        data = validated_body(PreferencesSerializer, request.data)
        notification_preferences_set(user=request.user, choices=data["preferences"])
        return Response({"preferences": preferences_of(request.user.pk)})
