"""The OpenAPI schema tells every status an operation may answer, with the error body each has.

Views declare their successes; what every view may answer besides is added here: 400 (a bad
query parameter, a body that is not a JSON object), 401/403 (a wrong token, a refused account),
404, 409 (the state forbids it), 415 (a body that is not JSON), 429 (throttled)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter

from .params import MAX_COUNT

ERROR_SCHEMA = {
    "type": "object",
    "properties": {
        "code": {"type": "string", "description": "stable: see docs/PROTOCOL.md"},
        "detail": {"type": "string"},
    },
    "required": ["code", "detail"],
}
WORDS = {
    "400": "bad input",
    "401": "not signed in, or a wrong token",
    "403": "refused",
    "404": "no such thing (or not yours to see)",
    "409": "the state forbids it",
    "415": "the body is not JSON",
    "429": "too many requests: see Retry-After",
}


def add_error_responses(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict[str, Any]:
    result.setdefault("components", {}).setdefault("schemas", {})["Error"] = ERROR_SCHEMA
    ref = {"$ref": "#/components/schemas/Error"}
    for operations in result.get("paths", {}).values():
        for method, operation in operations.items():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            codes = ["400", "401", "403", "404", "429"]
            if method in ("post", "put", "patch", "delete"):
                codes += ["409", "415"]
            for code in codes:
                operation["responses"].setdefault(
                    code, {"description": WORDS[code], "content": {"application/json": {"schema": ref}}}
                )
    return result


def count_parameter(name: str, description: str = "") -> OpenApiParameter:
    """A query parameter read by plumbing.params.parse_count: a whole number, 0 to MAX_COUNT."""
    return OpenApiParameter(
        name, {"type": "integer", "minimum": 0, "maximum": MAX_COUNT}, description=description
    )
