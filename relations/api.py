"""Follows and blocks over REST: what the profile page's buttons do, for any client."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.access import access_signed_in
from accounts.throttles import FollowThrottle, PeopleSearchThrottle
from plumbing.errors import ServiceError

from .selectors import LIST_AT_MOST, SEARCH_AT_MOST, SEARCH_MAX_CHARS, people_search, relations_of
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
PEOPLE = inline_serializer(
    "People",
    {
        "people": inline_serializer(
            "Person",
            {
                "name": serializers.CharField(),
                "following": serializers.BooleanField(),
                "follower": serializers.BooleanField(),
                "me": serializers.BooleanField(),
                "online": serializers.BooleanField(
                    help_text="on the site now (never a person who blocks you)"
                ),
            },
            many=True,
        )
    },
)
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


def search_prefix(raw: object) -> str:
    """The `q` of a search: the start of a name, 1 to SEARCH_MAX_CHARS characters."""
    prefix = raw.strip() if isinstance(raw, str) else ""
    if not prefix or len(prefix) > SEARCH_MAX_CHARS:
        raise ServiceError("bad_query", f"q is the start of a name: 1 to {SEARCH_MAX_CHARS} characters")
    return prefix


class PeopleView(APIView):
    throttle_classes = [PeopleSearchThrottle]

    @extend_schema(
        parameters=[OpenApiParameter("q", str, required=True, description="the start of a name, case aside")],
        responses={200: PEOPLE},
        summary=f"Find people by the start of their name (at most {SEARCH_AT_MOST}, in name order)",
    )
    def get(self, request: Request) -> Response:
        prefix = search_prefix(request.query_params.get("q"))
        return Response({"people": people_search(prefix, request.user)})
