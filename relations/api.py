"""Follows and blocks over REST: what the profile page's buttons do, for any client."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.access import access_signed_in
from accounts.throttles import FollowThrottle

from .selectors import LIST_AT_MOST, relations_of
from .services import block_create, block_delete, follow_create, follow_delete

RELATION = inline_serializer(
    "Relation",
    {
        "following": serializers.BooleanField(),
        "follower": serializers.BooleanField(),
        "friends": serializers.BooleanField(),
        "blocking": serializers.BooleanField(),
    },
)
NAMES = serializers.ListField(child=serializers.CharField())
RELATIONS = inline_serializer(
    "Relations", {"following": NAMES, "followers": NAMES, "friends": NAMES, "blocking": NAMES}
)


class RelationsView(APIView):
    @extend_schema(
        responses={200: RELATIONS},
        summary=f"Whom you follow, who follows you, friends, whom you block (at most {LIST_AT_MOST} each)",
    )
    def get(self, request: Request) -> Response:
        access_signed_in(request.user)
        return Response(relations_of(request.user.pk))


class FollowView(APIView):
    def get_throttles(self) -> list[FollowThrottle]:
        # Only following counts: unfollowing is never refused.
        return [FollowThrottle()] if self.request.method == "POST" else []

    throttle_classes = [FollowThrottle]

    @extend_schema(request=None, responses={200: RELATION}, summary="Follow a player (at most 100 a day)")
    def post(self, request: Request, username: str) -> Response:
        return Response(follow_create(user=request.user, username=username))

    @extend_schema(responses={200: RELATION}, summary="Stop following a player")
    def delete(self, request: Request, username: str) -> Response:
        return Response(follow_delete(user=request.user, username=username))


class BlockView(APIView):
    @extend_schema(
        request=None,
        responses={200: RELATION},
        summary="Block a player: they may not follow you or sit at your tables; neither follows the other",
    )
    def post(self, request: Request, username: str) -> Response:
        return Response(block_create(user=request.user, username=username))

    @extend_schema(responses={200: RELATION}, summary="Unblock a player")
    def delete(self, request: Request, username: str) -> Response:
        return Response(block_delete(user=request.user, username=username))
