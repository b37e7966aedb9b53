"""Who a socket's credentials sign in, each read in one hand-written statement (a socket opens on
every page load and every reconnect, and a restarted server's pages all come back at once: the
ORM's query building would cost several times the statement, games/sql.py says more).

`session_user` is Django's own sign-in check (`django.contrib.auth.get_user`, as Channels runs it)
for the one case every browser's socket is: a session signed in with the model backend, whose
user is active and whose password hash still verifies it. Anything else goes to Channels' own
`get_user`, which reads what it needs and flushes a session that does not verify.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.contrib.auth.models import AnonymousUser
from django.db import connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.utils import timezone
from django.utils.crypto import constant_time_compare

from plumbing.rawsql import Rows, cursor, statement

from .models import UserSession

MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"
_USERS: dict[str, Rows] = {}


def _users() -> Rows:
    model = get_user_model()
    rows = _USERS.get(model._meta.label)
    if rows is None:
        rows = _USERS[model._meta.label] = Rows(model, "u")
    return rows


def _table(db: BaseDatabaseWrapper, model: Any) -> str:
    return db.ops.quote_name(model._meta.db_table)


def token_user(key: str) -> Any:
    """The user an API token belongs to, None if there is no such token."""
    from rest_framework.authtoken.models import Token

    db, users = connections["default"], _users()
    sql = statement(
        db,
        "token_user",
        lambda db: (
            f"SELECT {users.columns(db)} FROM {_table(db, Token)} t "
            f"JOIN {_table(db, get_user_model())} u ON u.id = t.user_id "
            f"WHERE t.{db.ops.quote_name('key')} = %s"
        ),
    )
    with cursor(db) as cur:
        cur.execute(sql, [key])
        row = cur.fetchone()
    return users.build(db, row) if row is not None else None


def session_user(session: Any) -> Any:
    """The user a session signs in (`session`: Django's SessionStore for the request's cookie, as
    Channels puts it in the scope): in the usual case above read with the session in one
    statement; AnonymousUser when the session is gone, expired or signed in to no one; None when it
    is another case, for the caller to ask Django. Whatever it answers, the session's data is
    loaded into `session` as reading it would (a socket reads the invites it remembers,
    games/invites.py)."""
    key = session.session_key
    if not key:
        return AnonymousUser()
    db, users = connections["default"], _users()
    sql = statement(
        db,
        "session_user",
        lambda db: (
            f"SELECT s.session_data, {users.columns(db)} FROM {_table(db, UserSession)} s "
            f"LEFT JOIN {_table(db, get_user_model())} u ON u.id = s.user_id "
            "WHERE s.session_key = %s AND s.expire_date > %s"
        ),
    )
    now = UserSession._meta.get_field("expire_date").get_db_prep_value(timezone.now(), db)
    with cursor(db) as cur:
        cur.execute(sql, [key, now])
        row = cur.fetchone()
    session.accessed = True
    if row is None:  # gone or expired: as Django's load() leaves it, a new session
        session._session_key = None
        session._session_cache = {}
        return AnonymousUser()
    data = session._session_cache = session.decode(row[0])
    if SESSION_KEY not in data:
        return AnonymousUser()
    if row[1] is None or data.get(BACKEND_SESSION_KEY) != MODEL_BACKEND:
        return None
    if MODEL_BACKEND not in settings.AUTHENTICATION_BACKENDS:
        return None
    user = users.build(db, row[1:])
    if str(data[SESSION_KEY]) != str(user.pk) or not user.is_active:
        return None
    session_hash = data.get(HASH_SESSION_KEY)
    if not session_hash or not constant_time_compare(session_hash, user.get_session_auth_hash()):
        return None  # Django flushes such a session
    return user
