"""Requests no view should see: a NUL character in the path or query (PostgreSQL text can't hold it)."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, JsonResponse


class RejectNulMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        query = request.META.get("QUERY_STRING", "")
        if "\x00" in request.path or "%00" in query or "\x00" in query:
            detail = "the request contains a NUL character"
            if request.path.startswith("/api/"):
                return JsonResponse({"code": "bad_request", "detail": detail}, status=400)
            return HttpResponse(detail, status=400, content_type="text/plain; charset=utf-8")
        return self.get_response(request)
