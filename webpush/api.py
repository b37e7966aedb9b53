"""Push subscriptions over REST: what the "Notifications on this device" switch does."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.access import access_signed_in
from accounts.throttles import PushSubscriptionThrottle
from plumbing.api_errors import validated_body

from .selectors import vapid_public_key
from .services import ENDPOINT_MAX_CHARS, subscription_delete, subscription_save


class KeysSerializer(serializers.Serializer):
    p256dh = serializers.CharField(max_length=200)
    auth = serializers.CharField(max_length=100)


class SubscriptionSerializer(serializers.Serializer):
    """A browser's PushSubscription.toJSON() (expirationTime, if sent, is not kept)."""

    endpoint = serializers.CharField(max_length=ENDPOINT_MAX_CHARS)
    keys = KeysSerializer()


class EndpointSerializer(serializers.Serializer):
    endpoint = serializers.CharField(max_length=ENDPOINT_MAX_CHARS)


PUSH_STATE = inline_serializer(
    "PushState",
    {
        "enabled": serializers.BooleanField(),
        "public_key": serializers.CharField(
            help_text="the VAPID public key (base64url); empty while push is off"
        ),
    },
)


class PushSubscriptionsView(APIView):
    throttle_classes = [PushSubscriptionThrottle]

    @extend_schema(responses={200: PUSH_STATE}, summary="Whether this site sends push, and its VAPID key")
    def get(self, request: Request) -> Response:
        access_signed_in(request.user)
        key = vapid_public_key()
        return Response({"enabled": bool(key), "public_key": key})

    @extend_schema(
        request=SubscriptionSerializer,
        responses={201: inline_serializer("PushSubscribed", {"subscribed": serializers.BooleanField()})},
        summary="Send your notifications to this browser (its push subscription)",
    )
    def post(self, request: Request) -> Response:
        access_signed_in(request.user)
        data = validated_body(SubscriptionSerializer, request.data)
        subscription_save(
            user=request.user,
            endpoint=data["endpoint"],
            p256dh=data["keys"]["p256dh"],
            auth=data["keys"]["auth"],
        )
        return Response({"subscribed": True}, status=201)

    @extend_schema(
        request=EndpointSerializer,
        responses={200: inline_serializer("PushUnsubscribed", {"deleted": serializers.IntegerField()})},
        summary="Stop sending your notifications to this browser",
    )
    def delete(self, request: Request) -> Response:
        access_signed_in(request.user)
        data = validated_body(EndpointSerializer, request.data)
        return Response({"deleted": subscription_delete(user=request.user, endpoint=data["endpoint"])})
