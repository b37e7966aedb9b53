"""Accounts: register, sign in and out, passwords and API tokens."""

from __future__ import annotations

import hashlib
from collections.abc import Callable

from django.conf import settings
from django.contrib.auth import authenticate, get_user_model, login, logout, update_session_auth_hash
from django.contrib.auth.models import AbstractBaseUser
from django.contrib.auth.password_validation import validate_password
from django.core import signing
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from rest_framework.authtoken.models import Token

from plumbing.client_address import client_address
from plumbing.errors import ServiceError
from plumbing.hooks import Hook

from .access import access_sign_in
from .devices import device_known, device_remember
from .mail import mail_send_later
from .throttles import sign_in_check_lock, sign_in_failed, sign_in_succeeded

USERNAME_MAX = 30
# Sent with the user's id when a person signs out: their open sockets close (accounts/apps.py).
user_signed_out = Hook("a user signed out")
# Sent with the user's id and the digests (`credential_digest`) of the API token and the session
# key that stay signed in, or None, when a password change ended every other token and session:
# the sockets those others signed in close, as a sign-out's do (accounts/apps.py).
user_credentials_ended = Hook("a password change ended a user's other tokens and sessions")


def credential_digest(secret: str) -> str:
    """What names a token or session key outside this process (a message through Redis): not the
    secret itself."""
    return hashlib.sha256(secret.encode()).hexdigest()


def user_register(*, username: str, password: str, email: str = "") -> AbstractBaseUser:
    User = get_user_model()
    username = (username or "").strip()
    if not username or len(username) > USERNAME_MAX:
        raise ServiceError("bad_username", f"a username is 1 to {USERNAME_MAX} characters")
    try:
        User.username_validator(username)  # type: ignore[attr-defined]
    except ValidationError as e:
        raise ServiceError("bad_username", "letters, digits and @/./+/-/_ only") from e
    if email:
        try:
            validate_email(email)
        except ValidationError as e:
            raise ServiceError("bad_email", "that is not an email address") from e
    if User.objects.filter(username__iexact=username).exists():
        raise ServiceError("username_taken", "that username is taken", 409)
    candidate = User(username=username, email=email)
    try:
        validate_password(password or "", user=candidate)
    except ValidationError as e:
        raise ServiceError("weak_password", " ".join(e.messages)) from e
    try:
        with transaction.atomic():
            return User.objects.create_user(username=username, email=email, password=password)
    except IntegrityError as e:
        raise ServiceError("username_taken", "that username is taken", 409) from e


def user_check_credentials(*, request: HttpRequest, username: str, password: str) -> AbstractBaseUser:
    """Every way to sign in asks here (pages, API, admin). Wrong passwords lock the account for a
    while, per client address and per account (accounts/throttles.py); the right one makes this
    browser known to the account (accounts/devices.py)."""
    address = client_address(request)
    device = device_known(request, username)
    sign_in_check_lock(username, address, device)
    user = authenticate(username=username, password=password)
    if user is None:
        sign_in_failed(username, address, device)
        raise ServiceError("bad_credentials", "wrong username or password", 401)
    sign_in_succeeded(username, address, device)
    access_sign_in(user)  # a suspended or banned user is refused, with the reason
    device_remember(request, username)
    return user


def user_sign_in(*, request: HttpRequest, username: str, password: str) -> AbstractBaseUser:
    """Django's login() gives the session a new key, so a planted session id is worthless."""
    user = user_check_credentials(request=request, username=username, password=password)
    login(request, user)
    return user


def user_sign_out(*, request: HttpRequest) -> None:
    user_id = request.user.pk if request.user.is_authenticated else None
    logout(request)
    if user_id is not None:
        user_signed_out.send(user_id)


def user_token(*, user: AbstractBaseUser) -> str:
    token, _ = Token.objects.get_or_create(user=user)
    return token.key


def user_change_password(
    *,
    request: HttpRequest,
    user: AbstractBaseUser,
    old_password: str,
    new_password: str,
    keep_token: str | None = None,
) -> None:
    """Ends every other session (Django's session hash) and every API token but `keep_token`:
    what was signed in with the old password stops working, except what makes the change. The
    sockets they signed in are closed too (`user_credentials_ended`), as a sign-out closes them."""
    if not user.check_password(old_password or ""):
        raise ServiceError("bad_credentials", "the current password is wrong", 401)
    try:
        validate_password(new_password or "", user=user)
    except ValidationError as e:
        raise ServiceError("weak_password", " ".join(e.messages)) from e
    with transaction.atomic():
        user.set_password(new_password)
        user.save(update_fields=["password"])
        tokens = Token.objects.filter(user=user)
        if keep_token:
            tokens = tokens.exclude(key=keep_token)
        tokens.delete()
    # The session making the change (its key before update_session_auth_hash gives it a new one:
    # its sockets were signed in with that one) stays signed in; every other one is ended.
    signed_in_here = getattr(request, "user", None) is not None and request.user.pk == user.pk
    kept_session = request.session.session_key if signed_in_here and hasattr(request, "session") else None
    update_session_auth_hash(request, user)
    kept = (
        credential_digest(keep_token) if keep_token else None,
        credential_digest(kept_session) if kept_session else None,
    )
    transaction.on_commit(lambda: user_credentials_ended.send(user.pk, *kept))


def user_set_language(*, user: AbstractBaseUser, language: str) -> str:
    """Remember `language` (one of settings.LANGUAGES) for `user`, for every browser they sign in on."""
    from .models import Preference

    if language not in dict(settings.LANGUAGES):
        raise ServiceError("bad_language", "choose one of the site's languages")
    Preference.objects.update_or_create(user_id=user.pk, defaults={"language": language})
    return language


def user_language(*, user: AbstractBaseUser) -> str:
    """The language `user` chose, or "" for the browser's."""
    from .models import Preference

    return Preference.objects.filter(user_id=user.pk).values_list("language", flat=True).first() or ""


# An address is verified by opening a link that carries it, signed with the site's key, for
# EMAIL_LINK_SECONDS; its salt keeps it from being any other signed value of the site.
EMAIL_LINK_SALT = "accounts.email-verify"
EMAIL_LINK_DAYS = settings.EMAIL_LINK_SECONDS // (24 * 3600)


def email_is_verified(user: AbstractBaseUser) -> bool:
    from .models import Preference

    email = getattr(user, "email", "")
    if not email:
        return False
    verified = Preference.objects.filter(user_id=user.pk).values_list("email_verified", flat=True).first()
    return bool(verified) and verified.lower() == email.lower()


def user_email_set(*, user: AbstractBaseUser, email: str, link: Callable[[str], str]) -> None:
    """The account's address becomes `email`, not verified until the link mailed to it is opened
    (`link` makes the page's URL from the token). The same address again sends its link again."""
    email = (email or "").strip()
    try:
        validate_email(email)
    except ValidationError as e:
        raise ServiceError("bad_email", "that is not an email address") from e
    with transaction.atomic():
        user.email = email  # type: ignore[attr-defined]
        user.save(update_fields=["email"])
        token = signing.TimestampSigner(salt=EMAIL_LINK_SALT).sign_object({"user": user.pk, "email": email})
        body = render_to_string(
            "accounts/mail/verify.txt", {"user": user, "link": link(token), "days": EMAIL_LINK_DAYS}
        )
        mail_send_later(to=email, subject=_("Confirm your email address for Harehra Online"), body=body)


def user_email_verify(*, token: str) -> AbstractBaseUser:
    """Open a verification link: its address becomes the verified one, if it is still the
    account's. Refused: `bad_link` (not one of ours), `link_expired`, `email_changed`."""
    from .models import Preference

    try:
        data = signing.TimestampSigner(salt=EMAIL_LINK_SALT).unsign_object(
            token, max_age=settings.EMAIL_LINK_SECONDS
        )
    except signing.SignatureExpired as e:
        raise ServiceError("link_expired", "this link has expired: ask for a new one") from e
    except signing.BadSignature as e:
        raise ServiceError("bad_link", "this link is not valid") from e
    with transaction.atomic():
        user = get_user_model().objects.select_for_update().filter(pk=data.get("user")).first()
        if user is None or (user.email or "").lower() != str(data.get("email", "")).lower():
            raise ServiceError("email_changed", "the account's address changed since this link was sent", 409)
        Preference.objects.update_or_create(user=user, defaults={"email_verified": user.email})
    return user


def user_email_remove(*, user: AbstractBaseUser) -> None:
    from .models import Preference

    with transaction.atomic():
        user.email = ""  # type: ignore[attr-defined]
        user.save(update_fields=["email"])
        Preference.objects.filter(user_id=user.pk).update(email_verified="")


def user_password_reset(*, user: AbstractBaseUser, new_password: str) -> None:
    """A new password from a reset link: every session and API token of the account ends, and the
    sockets they signed in close (nothing was signed in by the one who reset it)."""
    try:
        validate_password(new_password or "", user=user)
    except ValidationError as e:
        raise ServiceError("weak_password", " ".join(e.messages)) from e
    with transaction.atomic():
        user.set_password(new_password)  # a new password: every session's hash no longer matches
        user.save(update_fields=["password"])
        Token.objects.filter(user=user).delete()
    transaction.on_commit(lambda: user_credentials_ended.send(user.pk, None, None))
