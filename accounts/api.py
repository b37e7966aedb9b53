from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import exceptions, serializers, status
from rest_framework.authentication import SessionAuthentication
from rest_framework.authtoken.models import Token
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from plumbing.api_errors import validated_body
from plumbing.errors import ServiceError

from .access import access_signed_in
from .services import (
    user_change_password,
    user_check_credentials,
    user_register,
    user_sign_in,
    user_sign_out,
    user_token,
)
from .throttles import RegisterThrottle, SignInThrottle


class RegisterSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=256, write_only=True)
    email = serializers.CharField(required=False, allow_blank=True, max_length=254)


class CredentialsSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=256, write_only=True)


class PasswordSerializer(serializers.Serializer):
    old_password = serializers.CharField(max_length=256)
    new_password = serializers.CharField(max_length=256)


TOKEN = inline_serializer("Token", {"token": serializers.CharField(), "username": serializers.CharField()})


class RegisterView(APIView):
    throttle_classes = [RegisterThrottle]

    @extend_schema(request=RegisterSerializer, responses={201: TOKEN})
    def post(self, request: Request) -> Response:
        data = validated_body(RegisterSerializer, request.data)
        user = user_register(**data)
        return Response(
            {"username": user.get_username(), "token": user_token(user=user)}, status=status.HTTP_201_CREATED
        )


class TokenView(APIView):
    throttle_classes = [SignInThrottle]

    @extend_schema(request=CredentialsSerializer, responses={200: TOKEN})
    def post(self, request: Request) -> Response:
        data = validated_body(CredentialsSerializer, request.data)
        user = user_check_credentials(request=request._request, **data)
        return Response({"username": user.get_username(), "token": user_token(user=user)})


class LoginView(APIView):
    """Browser sign-in: answers with a session cookie, so it takes Django's CSRF token (cookie
    `csrftoken`, header `X-CSRFToken`) like any form; programs use /api/accounts/token/."""

    authentication_classes: list = []  # no session is needed to sign in, only the CSRF token
    throttle_classes = [SignInThrottle]

    @extend_schema(request=CredentialsSerializer, responses={200: OpenApiResponse(description="signed in")})
    def post(self, request: Request) -> Response:
        try:
            SessionAuthentication().enforce_csrf(request)  # login CSRF: a foreign page can't sign you in
        except exceptions.PermissionDenied as e:
            detail = f"{e.detail}; programs sign in at /api/accounts/token/"
            raise ServiceError("csrf_failed", detail, 403) from e
        data = validated_body(CredentialsSerializer, request.data)
        user = user_sign_in(request=request._request, **data)
        return Response({"username": user.get_username()})


class LogoutView(APIView):
    @extend_schema(request=None, responses={204: None})
    def post(self, request: Request) -> Response:
        user_sign_out(request=request._request)
        return Response(status=status.HTTP_204_NO_CONTENT)


class PasswordView(APIView):
    throttle_classes = [SignInThrottle]  # the current password is checked: a try, and a hashing

    @extend_schema(request=PasswordSerializer, responses={204: None})
    def post(self, request: Request) -> Response:
        access_signed_in(request.user)
        data = validated_body(PasswordSerializer, request.data)
        # The token making the change keeps working (one token per user: any other way ends it).
        keep = request.auth.key if isinstance(request.auth, Token) else None
        user_change_password(request=request._request, user=request.user, keep_token=keep, **data)
        return Response(status=status.HTTP_204_NO_CONTENT)
