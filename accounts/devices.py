"""Known devices: a browser that signed in to an account with the right password carries a signed
cookie saying so (OWASP's "device cookie"), so a lock on the whole account after wrong passwords
from elsewhere (accounts/throttles.py) does not shut out the people whose browser it is.

The cookie names the accounts (their usernames, lower-cased, up to MAX_ACCOUNTS, newest last) and
a random id for each: the id is what that browser's own wrong passwords for the account count
against. It is signed with SECRET_KEY, so it cannot be made for an account without signing in to it.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core import signing
from django.http import HttpRequest, HttpResponse

COOKIE = "harehra_device"
MAX_AGE = 365 * 24 * 3600
MAX_ACCOUNTS = 8
_SALT = "accounts.devices"
_ISSUED = "_harehra_known_device"  # set on the request when a sign-in succeeds


def _accounts(request: HttpRequest) -> dict[str, str]:
    raw = request.COOKIES.get(COOKIE)
    if not raw:
        return {}
    try:
        value = signing.loads(raw, salt=_SALT, max_age=MAX_AGE)
    except signing.BadSignature:
        return {}
    if not isinstance(value, dict):
        return {}
    return {str(k): str(v) for k, v in value.items()}


def _name(username: str) -> str:
    return username.strip().lower()


def device_known(request: HttpRequest, username: str) -> str | None:
    """This browser's id for `username` if it signed in to that account before, else None."""
    return _accounts(request).get(_name(username))


def device_remember(request: HttpRequest, username: str) -> None:
    """After a right password: this browser is known to `username` (the cookie is sent with the
    response, KnownDeviceMiddleware). It keeps its id, so its own count of wrong passwords stays."""
    accounts = _accounts(request)
    name = _name(username)
    device = accounts.pop(name, None) or secrets.token_urlsafe(12)
    accounts[name] = device
    kept = dict(list(accounts.items())[-MAX_ACCOUNTS:])
    setattr(request, _ISSUED, signing.dumps(kept, salt=_SALT, compress=True))


class KnownDeviceMiddleware:
    """Sends the cookie `device_remember` made: every way to sign in (pages, API, admin) in one place."""

    def __init__(self, get_response: Callable[[HttpRequest], Any]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        value = getattr(request, _ISSUED, None)
        if value is not None:
            response.set_cookie(
                COOKIE,
                value,
                max_age=MAX_AGE,
                secure=settings.SESSION_COOKIE_SECURE,
                httponly=True,
                samesite="Lax",
            )
        return response
