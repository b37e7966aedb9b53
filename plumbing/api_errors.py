"""Every API error is JSON with a stable `code` and a `detail` for people."""

import sys
from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.views import defaults
from psycopg_pool import PoolTimeout
from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from .errors import ServiceError


def validated_body(serializer_class: Any, data: Any) -> dict[str, Any]:
    """A request body that must be a JSON object, validated by `serializer_class`."""
    if not isinstance(data, dict):
        raise ServiceError("invalid", "the request body is a JSON object")
    s = serializer_class(data=data)
    s.is_valid(raise_exception=True)
    return dict(s.validated_data)


_DEFAULT_CODES = {
    400: "invalid",
    401: "not_authenticated",
    403: "permission_denied",
    404: "not_found",
    405: "method_not_allowed",
    406: "not_acceptable",
    415: "unsupported_media_type",
    429: "throttled",
}


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, ServiceError):
        headers = {"Retry-After": str(exc.retry_after)} if exc.retry_after is not None else None
        return Response({"code": exc.code, "detail": exc.detail}, status=exc.status, headers=headers)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        response.data = {"code": "invalid", "detail": "the request is not valid", "fields": exc.detail}
        return response
    code = getattr(exc, "default_code", None) or _DEFAULT_CODES.get(response.status_code, "error")
    detail = getattr(exc, "detail", str(exc))
    response.data = {"code": str(code), "detail": str(detail)}
    return response


# Django's own error views, for what never reaches DRF's handler (an unexpected exception, a
# request Django refuses before any view): under /api/ they answer JSON like every API error.
_API_ERROR_WORDS = {
    400: ("bad_request", "the request is not valid"),
    403: ("permission_denied", "you may not do that"),
    500: ("server_error", "something went wrong on our side; it has been logged"),
    503: ("busy", "the site is too busy to answer now; try again in a few seconds"),
}

# A request that waited the pool's whole timeout for a database connection: the site is
# overloaded, not broken, and the same request a few seconds later is likely to be served.
BUSY_RETRY_AFTER_SECONDS = 5


def _is_api(request: HttpRequest) -> bool:
    return request.path.startswith("/api/")


def _api_error(status: int) -> JsonResponse:
    code, detail = _API_ERROR_WORDS[status]
    return JsonResponse({"code": code, "detail": detail}, status=status)


def _database_busy(exc: BaseException | None) -> bool:
    """Whether `exc` (Django wraps the driver's errors, keeping them as the cause) is the pool's
    timeout waiting for a connection."""
    while exc is not None:
        if isinstance(exc, PoolTimeout):
            return True
        exc = exc.__cause__
    return False


def busy(request: HttpRequest) -> HttpResponse:
    """503 with Retry-After: JSON under /api/, else a page that needs no database (the site's
    header, which reads the person's notifications, would wait for a connection again)."""
    if _is_api(request):
        response: HttpResponse = _api_error(503)
    else:
        response = HttpResponse(render_to_string("503.html"), status=503)
    response["Retry-After"] = str(BUSY_RETRY_AFTER_SECONDS)
    return response


def server_error(request: HttpRequest) -> HttpResponse:
    """Django's handler500, called while the unexpected exception is being handled."""
    if _database_busy(sys.exc_info()[1]):
        return busy(request)
    return _api_error(500) if _is_api(request) else defaults.server_error(request)


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    return _api_error(400) if _is_api(request) else defaults.bad_request(request, exception)


def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    return _api_error(403) if _is_api(request) else defaults.permission_denied(request, exception)
