"""The service layer's refusal: a stable code, words for people, and the HTTP status it maps to."""

from __future__ import annotations


class ServiceError(Exception):
    def __init__(self, code: str, detail: str, status: int = 400, retry_after: int | None = None) -> None:
        super().__init__(f"{code}: {detail}")
        self.code = code
        self.detail = detail
        self.status = status
        self.retry_after = retry_after  # seconds, sent as Retry-After (a 429)
