"""Challenges over REST: what the challenge pages and the banner's buttons do, for any client."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import BaseThrottle
from rest_framework.views import APIView

from accounts.access import access_signed_in
from accounts.throttles import ChallengeThrottle
from games.api.serializers import TableCreateSerializer
from games.services.tables import TableSettings
from harehra.bots import DEFAULT_LEVEL, LEVELS
from plumbing.api_errors import validated_body

from .selectors import (
    LIST_AT_MOST,
    challenge_dict,
    challenge_for,
    challenges_from_of,
    challenges_of,
    friends_online,
)
from .services import (
    challenge_answer,
    challenge_cancel,
    challenge_create,
    challenge_start,
    challenges_from_set,
    rematch_offer,
)

CHALLENGE = inline_serializer(
    "Challenge",
    {
        "id": serializers.IntegerField(),
        "from": serializers.CharField(),
        "mine": serializers.BooleanField(help_text="you made it"),
        "status": serializers.ChoiceField(["pending", "started", "declined", "expired", "cancelled"]),
        "rematch": serializers.BooleanField(),
        "settings": serializers.DictField(
            help_text="the new table's settings, as POST /api/tables/ takes them"
        ),
        "bot_level": serializers.CharField(),
        "to": serializers.ListField(child=serializers.CharField(), help_text="the people challenged"),
        "answers": inline_serializer(
            "ChallengeAnswer",
            {
                "name": serializers.CharField(),
                "status": serializers.ChoiceField(["pending", "accepted", "declined"]),
            },
            many=True,
        ),
        "my_answer": serializers.CharField(allow_null=True),
        "table": serializers.IntegerField(allow_null=True),
        "game": serializers.IntegerField(allow_null=True, help_text="the game it started"),
        "created_at": serializers.DateTimeField(),
        "expires_at": serializers.DateTimeField(),
    },
)


class ChallengeCreateSerializer(TableCreateSerializer):
    to = serializers.ListField(child=serializers.CharField(max_length=150), min_length=1, max_length=5)
    bot_level = serializers.ChoiceField(choices=list(LEVELS), default=DEFAULT_LEVEL)


def _challenge(request: Request, challenge: Any, code: int = status.HTTP_200_OK) -> Response:
    return Response(challenge_dict(challenge, request.user.pk), status=code)


class ChallengesView(APIView):
    def get_throttles(self) -> list[BaseThrottle]:
        # Only making one counts: reading your list is never refused.
        return [ChallengeThrottle()] if self.request.method == "POST" else []

    throttle_classes = [ChallengeThrottle]

    @extend_schema(
        operation_id="challenges_list",
        responses={
            200: inline_serializer("Challenges", {"challenges": serializers.ListField(child=CHALLENGE)})
        },
        summary=f"Your challenges, made and received (the newest {LIST_AT_MOST})",
    )
    def get(self, request: Request) -> Response:
        access_signed_in(request.user)
        return Response({"challenges": challenges_of(request.user.pk)})

    @extend_schema(
        request=ChallengeCreateSerializer,
        responses={201: CHALLENGE},
        summary="Challenge people to a new table (6 a minute); 403 blocked, friends_only, not_accepting",
    )
    def post(self, request: Request) -> Response:
        access_signed_in(request.user)
        data = validated_body(ChallengeCreateSerializer, request.data)
        names, level = data.pop("to"), data.pop("bot_level")
        data["packs"] = tuple(data["packs"])
        challenge = challenge_create(
            user=request.user, names=names, settings=TableSettings(**data), bot_level=level
        )
        return _challenge(request, challenge, status.HTTP_201_CREATED)


class ChallengeView(APIView):
    @extend_schema(responses={200: CHALLENGE}, summary="One challenge you made or received")
    def get(self, request: Request, pk: int) -> Response:
        access_signed_in(request.user)
        return _challenge(request, challenge_for(pk, request.user.pk))


class ChallengeActionView(APIView):
    action = ""

    @extend_schema(request=None, responses={200: CHALLENGE})
    def post(self, request: Request, pk: int) -> Response:
        if self.action in ("accept", "decline"):
            challenge = challenge_answer(user=request.user, challenge_id=pk, accept=self.action == "accept")
        elif self.action == "cancel":
            challenge = challenge_cancel(user=request.user, challenge_id=pk)
        else:
            challenge = challenge_start(user=request.user, challenge_id=pk)
        return _challenge(request, challenge)


class RematchView(APIView):
    throttle_classes = [ChallengeThrottle]

    @extend_schema(
        request=None,
        responses={201: CHALLENGE},
        summary="After a game, offer its other players the table's next game (a rematch)",
    )
    def post(self, request: Request, game_id: int) -> Response:
        return _challenge(request, rematch_offer(user=request.user, game_id=game_id), status.HTTP_201_CREATED)


CHALLENGES_FROM = inline_serializer(
    "WhoMayChallenge", {"challenges_from": serializers.ChoiceField(["friends", "anyone", "nobody"])}
)


class ChallengesFromSerializer(serializers.Serializer):
    challenges_from = serializers.ChoiceField(["friends", "anyone", "nobody"])


class ChallengesFromView(APIView):
    @extend_schema(responses={200: CHALLENGES_FROM}, summary="Who may challenge you")
    def get(self, request: Request) -> Response:
        access_signed_in(request.user)
        return Response({"challenges_from": challenges_from_of(request.user.pk)})

    @extend_schema(
        request=ChallengesFromSerializer,
        responses={200: CHALLENGES_FROM},
        summary="Set who may challenge you: friends (the default), anyone or nobody",
    )
    def post(self, request: Request) -> Response:
        access_signed_in(request.user)
        data = validated_body(ChallengesFromSerializer, request.data)
        return Response(
            {"challenges_from": challenges_from_set(user=request.user, value=data["challenges_from"])}
        )


class FriendsOnlineView(APIView):
    @extend_schema(
        responses={
            200: inline_serializer(
                "FriendsOnline",
                {
                    "friends": inline_serializer(
                        "FriendOnline",
                        {
                            "name": serializers.CharField(),
                            "table": serializers.IntegerField(allow_null=True),
                            "game": serializers.IntegerField(allow_null=True),
                        },
                        many=True,
                    )
                },
            )
        },
        summary="Your friends online now, with the table each sits at where you could watch it",
    )
    def get(self, request: Request) -> Response:
        access_signed_in(request.user)
        return Response({"friends": friends_online(request.user)})
