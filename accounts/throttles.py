"""Throttles on signing in and registering, kept in Django's cache (Redis in production, the
process's memory when embedded), and the lockout of an account after wrong passwords.

Every way to sign in goes through them: the sign-in page, /api/accounts/login/,
/api/accounts/token/ and the admin's /admin/login/ (accounts/admin.py).

Per client address (plumbing/client_address.py: the socket's peer unless that is one of
TRUSTED_PROXIES): `sign_in` (every try to sign in) and `register` (every registration, API or
page); rates in settings (THROTTLE_SIGN_IN, THROTTLE_REGISTER). A refusal is a 429 with
Retry-After.

The lockout, for one account (usernames compared without case), counted over LOCK_SECONDS from
the first wrong password and lasting LOCK_SECONDS (a 429 `locked`, with Retry-After):

- from one address: after LOCK_AFTER_FAILURES wrong passwords, that address may not try that
  account again; someone else's wrong passwords never lock a player out of their own address;
- from anywhere: after ACCOUNT_LOCK_AFTER_FAILURES wrong passwords from browsers not known to the
  account, from any addresses, no browser that is not known to it may try it;
- a known browser (accounts/devices.py: one that signed in to the account with the right password
  before, and carries the cookie saying so) is not stopped by the lock from anywhere; its own
  wrong passwords do not count towards it but against that browser: after LOCK_AFTER_FAILURES
  of them it is locked out of the account, from whatever address.

So an attacker spread over many addresses gets at most ACCOUNT_LOCK_AFTER_FAILURES guesses per
LOCK_SECONDS at an account, and the owner's own browsers still get in while they do. A program
that signs in with /api/accounts/token/ is a known device only if it keeps cookies.
"""

from __future__ import annotations

import hashlib
import math
import time
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext, npgettext, override
from rest_framework.throttling import SimpleRateThrottle

from plumbing.client_address import client_address
from plumbing.errors import ServiceError
from plumbing.sharedcache import shared_cache

LOCK_AFTER_FAILURES = 5
ACCOUNT_LOCK_AFTER_FAILURES = 20
LOCK_SECONDS = 15 * 60


def wait_words(seconds: int) -> str:
    """How long to wait, as people say it after "try again in": "15 minutes" (whole minutes, up,
    from a minute on), "40 seconds" below a minute; in the active language."""
    if seconds >= 60:
        n = math.ceil(seconds / 60)
        return npgettext("try again in", "%(n)s minute", "%(n)s minutes", n) % {"n": n}
    return npgettext("try again in", "%(n)s second", "%(n)s seconds", seconds) % {"n": seconds}


class _PerAddress(SimpleRateThrottle):
    """DRF's rate throttle keyed by the client's address (plumbing/client_address.py)."""

    @property
    def cache(self) -> Any:  # the process's one handle (plumbing/sharedcache.py says why)
        return shared_cache()

    def get_cache_key(self, request: Any, view: Any) -> str:
        return self.cache_format % {"scope": self.scope, "ident": client_address(request)}


class SignInThrottle(_PerAddress):
    scope = "sign_in"


class RegisterThrottle(_PerAddress):
    scope = "register"


class PreviewThrottle(_PerAddress):
    """Pictures of games (replays/images.py): each is drawn on the server."""

    scope = "preview"


class ClipThrottle(_PerAddress):
    """Animated clips of games (replays/images.py): up to CLIP_MAX_STEPS pictures each."""

    scope = "clip"


class _PerPerson(_PerAddress):
    """Keyed by the signed-in account, whatever its address; a client signed out by its address.
    Beside a _PerAddress throttle of its own rate, so neither one account spread over many
    addresses nor many accounts on one address get past."""

    def get_cache_key(self, request: Any, view: Any) -> str:
        user = getattr(request, "user", None)
        ident = f"user-{user.pk}" if user is not None and user.is_authenticated else client_address(request)
        return self.cache_format % {"scope": self.scope, "ident": ident}


class ReplayImportThrottle(_PerPerson):
    """Imports (POST /api/replays/import/): each checks a whole document by the rules, up to
    replays.importing.MAX_EVENTS events, and builds its frames."""

    scope = "replay_import"


class ReplayImportAddressThrottle(_PerAddress):
    scope = "replay_import_address"


class ReplayFramesThrottle(_PerPerson):
    """Whole replays built from a game's log (every step's table): the frames API, and the replay,
    embed and watch pages, which build the same."""

    scope = "replay_frames"


class ReplayFramesAddressThrottle(_PerAddress):
    scope = "replay_frames_address"


class GameLogThrottle(_PerPerson):
    """A game's whole log or what is kept of it, read but not folded: its export, its events
    (/api/games/<id>/events/, a game page's history), its analysis (stored, one entry per step)."""

    scope = "game_log"


class GameLogAddressThrottle(_PerAddress):
    scope = "game_log_address"


class SchemaThrottle(_PerAddress):
    """The API's OpenAPI schema, generated from the views on every request."""

    scope = "schema"


REPLAY_IMPORT_THROTTLES = [ReplayImportThrottle, ReplayImportAddressThrottle]
REPLAY_FRAMES_THROTTLES = [ReplayFramesThrottle, ReplayFramesAddressThrottle]
GAME_LOG_THROTTLES = [GameLogThrottle, GameLogAddressThrottle]


def throttle_wait(throttle_class: type[SimpleRateThrottle], request: HttpRequest) -> int | None:
    """For plain Django views: None if the request may go on, else the seconds to wait."""
    throttle = throttle_class()
    if throttle.allow_request(request, None):  # type: ignore[arg-type]
        return None
    return max(1, math.ceil(throttle.wait() or 1))


def throttles_wait(throttle_classes: list[type[SimpleRateThrottle]], request: HttpRequest) -> int | None:
    """throttle_wait over several throttles, as DRF checks a view's: each counts the request, and
    the longest wait of those that refuse it is the answer."""
    waits = [w for w in (throttle_wait(t, request) for t in throttle_classes) if w is not None]
    return max(waits, default=None)


def _key(kind: str, username: str, source: str) -> str:
    digest = hashlib.sha256(f"{username.strip().lower()}|{source}".encode()).hexdigest()[:32]
    return f"sign-in-{kind}:{digest}"


def _sources(address: str, device: str | None) -> list[tuple[str, int]]:
    """Whose wrong passwords for an account count together, and how many of them lock it: the
    address, and the known browser or else everyone not known to the account."""
    return [
        (f"address:{address}", LOCK_AFTER_FAILURES),
        (f"device:{device}", LOCK_AFTER_FAILURES) if device else ("account", ACCOUNT_LOCK_AFTER_FAILURES),
    ]


def sign_in_lock_wait(username: str, address: str, device: str | None = None) -> int | None:
    """None if this client may try `username`'s password, else the seconds until it may."""
    keys = [_key("lock", username, source) for source, _ in _sources(address, device)]
    locks = shared_cache().get_many(keys)
    until = max(locks.values(), default=0.0)
    if until <= time.time():
        return None
    return max(1, math.ceil(until - time.time()))


def sign_in_check_lock(username: str, address: str, device: str | None = None) -> None:
    wait = sign_in_lock_wait(username, address, device)
    if wait is not None:
        with override("en"):  # an API's detail stays English (clients word errors by code)
            detail = f"too many wrong passwords for this account; try again in {wait_words(wait)}"
        raise ServiceError("locked", detail, 429, retry_after=wait)


def sign_in_failed(username: str, address: str, device: str | None = None) -> None:
    for source, limit in _sources(address, device):
        key = _key("fails", username, source)
        shared_cache().add(key, 0, LOCK_SECONDS)
        try:
            failures = shared_cache().incr(key)
        except ValueError:  # expired between add and incr
            shared_cache().set(key, failures := 1, LOCK_SECONDS)
        if failures >= limit:
            shared_cache().set(_key("lock", username, source), time.time() + LOCK_SECONDS, LOCK_SECONDS)
            shared_cache().delete(key)


def sign_in_succeeded(username: str, address: str, device: str | None = None) -> None:
    """The right password clears the count of its address and of its browser, not the account's:
    the owner signing in must not give an attacker elsewhere fresh tries."""
    shared_cache().delete_many(
        [_key("fails", username, source) for source, _ in _sources(address, device) if source != "account"]
    )


class FollowThrottle(_PerPerson):
    """Following people (relations/): each follow tells the person followed."""

    scope = "follow"


class PeopleSearchThrottle(_PerPerson):
    """Finding people by the start of their name (relations/)."""

    scope = "people_search"


class PasswordResetThrottle(_PerAddress):
    """Asking for a link to reset a password: each may send a mail."""

    scope = "password_reset"


class EmailThrottle(_PerPerson):
    """Setting an address or asking for its link again: each sends a mail."""

    scope = "email"


def too_many_page(request: HttpRequest, wait: int) -> HttpResponse:
    """A page refused by a throttle: 429, when to come back in words and in Retry-After."""
    words = gettext("Too many attempts from here. Try again in %(wait)s.") % {"wait": wait_words(wait)}
    response = render(request, "429.html", {"words": words}, status=429)
    response["Retry-After"] = str(wait)
    return response


class PushSubscriptionThrottle(_PerPerson):
    """Push subscriptions (webpush/): each subscribing browser is a row the worker posts to."""

    scope = "push_subscription"
