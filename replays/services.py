"""The spectator count: watch pages send a heartbeat; a watcher unseen for WATCHER_TTL is gone.

People are counted, not pages: a signed-in spectator once however many pages (client ids) they
keep open, a signed-out one once per address, since a client id is whatever a client sends.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.db import connection
from django.db.backends.base.base import BaseDatabaseWrapper
from django.utils import timezone
from django.utils.crypto import salted_hmac

from games.models import Game
from games.services.presence import game_mark_watched
from plumbing.errors import ServiceError
from plumbing.rawsql import cursor, statement

from .models import Watcher

WATCHER_TTL = timedelta(seconds=30)
HEARTBEAT_SECONDS = 10


def watcher_key(user: Any, address: str | None) -> str:
    """Who a watch page's heartbeat counts as: its user, else its address, hashed with the
    SECRET_KEY so the database holds no one's address (and a leaked row gives none back)."""
    if user is not None and user.is_authenticated:
        return f"user:{user.pk}"
    return "addr:" + salted_hmac("replays.watcher", address or "unknown").hexdigest()[:40]


def watcher_count(game: Game) -> int:
    return Watcher.objects.filter(game=game, last_seen__gte=timezone.now() - WATCHER_TTL).count()


def watcher_beat(*, game: Game, viewer: str, client_id: object, leaving: bool = False) -> int:
    """Record (or end) a spectator's presence, as `viewer` (watcher_key) from the page
    `client_id`; returns the spectators watching now."""
    if not isinstance(client_id, str) or not 8 <= len(client_id) <= 64 or "\x00" in client_id:
        raise ServiceError("bad_client_id", "client_id is a string of 8 to 64 characters")
    now = timezone.now()
    if leaving:
        # Only the page that beat last ends the presence: another page of the same person that
        # beat since keeps it (one that did not beats again within HEARTBEAT_SECONDS).
        Watcher.objects.filter(game=game, viewer=viewer, client_id=client_id).delete()
    elif connection.vendor == "postgresql":
        game_mark_watched(game_id=game.pk)
        return _beat(game.pk, viewer, client_id, now)
    else:
        # One upsert, not update_or_create's select, update and savepoints: a watch page beats
        # every HEARTBEAT_SECONDS for as long as it is open.
        Watcher.objects.bulk_create(
            [Watcher(game=game, viewer=viewer, client_id=client_id, last_seen=now)],
            update_conflicts=True,
            unique_fields=["game", "viewer"],
            update_fields=["client_id", "last_seen"],
        )
        game_mark_watched(game_id=game.pk)
    Watcher.objects.filter(game=game, last_seen__lt=now - WATCHER_TTL * 4).delete()
    return watcher_count(game)


def _beat_sql(db: BaseDatabaseWrapper) -> str:
    table = db.ops.quote_name(Watcher._meta.db_table)
    # The count reads the rows as they were before the statement (the upsert's row is not seen by
    # it): the viewer is counted once, by the 1, and every other viewer seen lately by the rest.
    return (
        f"WITH up AS (INSERT INTO {table} (game_id, viewer, client_id, last_seen) VALUES (%s, %s, %s, %s) "
        "ON CONFLICT (game_id, viewer) DO UPDATE SET client_id = EXCLUDED.client_id, "
        "last_seen = EXCLUDED.last_seen), "
        f"gone AS (DELETE FROM {table} WHERE game_id = %s AND last_seen < %s) "
        f"SELECT 1 + COUNT(*) FROM {table} WHERE game_id = %s AND last_seen >= %s AND viewer <> %s"
    )


def _beat(game_id: int, viewer: str, client_id: str, now: Any) -> int:
    """A heartbeat on PostgreSQL: the upsert, the stale rows' removal and the count in one
    statement written out (plumbing/rawsql.py), where the ORM took three; a watch page beats
    every HEARTBEAT_SECONDS, and at 600 games these were 3 % of the servers' samples."""
    db = connection
    with cursor(db) as cur:
        cur.execute(
            statement(db, "watcher_beat", _beat_sql),
            [
                game_id,
                viewer,
                client_id,
                now,
                game_id,
                now - WATCHER_TTL * 4,
                game_id,
                now - WATCHER_TTL,
                viewer,
            ],
        )
        return int(cur.fetchone()[0])
