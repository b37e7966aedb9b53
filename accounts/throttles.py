"""Throttles on signing in and registering, kept in Django's cache (Redis in production, the
process's memory when embedded), and the lockout of one account after repeated wrong passwords.

Per client address: `sign_in` (every try at /api/accounts/login/, /api/accounts/token/ and the
sign-in page) and `register` (every registration, API or page); rates in settings
(THROTTLE_SIGN_IN, THROTTLE_REGISTER). A refusal is a 429 with Retry-After.

The lockout counts wrong passwords for one account *from one address*: after
LOCK_AFTER_FAILURES of them within LOCK_SECONDS, that address may not try that account again
until LOCK_SECONDS after the lock began. Someone else's wrong passwords therefore never lock a
player out from their own address, and no lock lasts longer than LOCK_SECONDS.
"""

from __future__ import annotations

import hashlib
import math
import time
from typing import Any

from django.core.cache import cache
from django.http import HttpRequest
from rest_framework.throttling import SimpleRateThrottle

from harehra_site.errors import ServiceError

LOCK_AFTER_FAILURES = 5
LOCK_SECONDS = 15 * 60


class _PerAddress(SimpleRateThrottle):
    """DRF's rate throttle keyed by the client's address (NUM_PROXIES says which one that is)."""

    def get_cache_key(self, request: Any, view: Any) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class SignInThrottle(_PerAddress):
    scope = "sign_in"


class RegisterThrottle(_PerAddress):
    scope = "register"


def client_address(request: HttpRequest) -> str:
    return str(SignInThrottle().get_ident(request))


def throttle_wait(throttle_class: type[SimpleRateThrottle], request: HttpRequest) -> int | None:
    """For plain Django views: None if the request may go on, else the seconds to wait."""
    throttle = throttle_class()
    if throttle.allow_request(request, None):  # type: ignore[arg-type]
        return None
    return max(1, math.ceil(throttle.wait() or 1))


def _key(kind: str, username: str, address: str) -> str:
    digest = hashlib.sha256(f"{username.strip().lower()}|{address}".encode()).hexdigest()[:32]
    return f"sign-in-{kind}:{digest}"


def sign_in_check_lock(username: str, address: str) -> None:
    until = cache.get(_key("lock", username, address))
    if until is not None and until > time.time():
        wait = max(1, math.ceil(until - time.time()))
        detail = f"too many wrong passwords for this account; try again in {wait} s"
        raise ServiceError("locked", detail, 429, retry_after=wait)


def sign_in_failed(username: str, address: str) -> None:
    key = _key("fails", username, address)
    cache.add(key, 0, LOCK_SECONDS)
    try:
        failures = cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.set(key, failures := 1, LOCK_SECONDS)
    if failures >= LOCK_AFTER_FAILURES:
        cache.set(_key("lock", username, address), time.time() + LOCK_SECONDS, LOCK_SECONDS)
        cache.delete(key)


def sign_in_succeeded(username: str, address: str) -> None:
    cache.delete(_key("fails", username, address))
